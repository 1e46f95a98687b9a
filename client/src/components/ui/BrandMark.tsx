import { Icon } from './Icon';

/** The product's logo and name, used in the landing header, auth screens and the sidebar. */
export function BrandMark({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className={`brand${inverted ? ' brand-inverted' : ''}`}>
      <span className="brand-logo" aria-hidden="true">
        <Icon name="gavel" size={18} />
      </span>
      <span className="brand-name">Auction Platform</span>
    </span>
  );
}
