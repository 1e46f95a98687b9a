import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { Portal } from '../../../config/paths';
import { BrandMark } from '../../../components/ui/BrandMark';
import { Icon } from '../../../components/ui/Icon';
import './auth.css';

interface AuthLayoutProps {
  /** Absent on the pages our emails' links open: their token does not say which portal. */
  portal?: Portal | undefined;
  title: string;
  subtitle: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card every login and register screen shares, and the public pages our emails link to. */
export function AuthLayout({ portal, title, subtitle, children, footer }: AuthLayoutProps) {
  return (
    <div className={`auth-page auth-page-${portal ?? 'user'}`}>
      <header className="auth-top">
        <Link to={paths.home} className="brand-link">
          <BrandMark />
        </Link>
        <Link to={paths.home} className="auth-back">
          <Icon name="arrow-left" size={16} />
          Back to home
        </Link>
      </header>
      <main className="auth-main">
        <section className="auth-card" aria-labelledby="auth-title">
          <div className="auth-card-head">
            {portal && (
              <span className={`portal-chip portal-chip-${portal}`}>
                <Icon name={portal === 'admin' ? 'shield' : 'user'} size={14} />
                {portal === 'admin' ? 'Admin Portal' : 'User Portal'}
              </span>
            )}
            <h1 id="auth-title">{title}</h1>
            <p className="auth-subtitle">{subtitle}</p>
          </div>
          {children}
          {footer && <div className="auth-footer">{footer}</div>}
        </section>
      </main>
    </div>
  );
}
