import { NavLink } from 'react-router-dom';
import { BrandMark } from '../../components/ui/BrandMark';
import { Icon } from '../../components/ui/Icon';
import type { PageRoute } from '../../config/paths';

interface SidebarProps {
  id: string;
  title: string;
  items: readonly PageRoute[];
  /** The entry marked current while the page shown has none of its own (PageRoute.section). */
  section?: string;
}

export function Sidebar({ id, title, items, section }: SidebarProps) {
  return (
    <aside className="sidebar" id={id}>
      <div className="sidebar-brand">
        <BrandMark inverted />
      </div>
      <p className="sidebar-title">{title}</p>
      {items.length > 0 && (
        <nav aria-label={title}>
          <ul className="sidebar-nav">
            {items.map((item) =>
              item.nav ? (
                <li key={item.path}>
                  <NavLink to={item.path} end className={({ isActive }) => `sidebar-link${isActive || item.path === section ? ' active' : ''}`}>
                    <Icon name={item.nav.icon} size={18} />
                    <span>{item.nav.label}</span>
                  </NavLink>
                </li>
              ) : null,
            )}
          </ul>
        </nav>
      )}
    </aside>
  );
}
