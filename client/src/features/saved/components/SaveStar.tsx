import { Icon } from '../../../components/ui/Icon';
import { useSession, useSignInToContinue } from '../../../lib/session';
import { toggleSaved, type SaveableLot } from '../store/saved-store';
import './saved.css';

/** Its accessible name: what a tap does, and what the lot is. */
export function saveStarLabel(name: string, saved: boolean): string {
  return saved ? `Saved: ${name} (remove)` : `Save ${name}`;
}

/**
 * The save star of a lot: filled while saved; a tap saves or unsaves it at once (put back with a toast
 * if the server refuses). Its state is the lot's `saved`, which every screen showing the lot shares.
 * A visitor's tap leads to signing in, and back.
 */
export function SaveStar({ lot, className }: { lot: SaveableLot; className?: string }) {
  const visitor = useSession((s) => s.user === null);
  const signIn = useSignInToContinue();
  const saved = lot.saved === true;
  return (
    <button
      type="button"
      className={`save-star${saved ? ' save-star-on' : ''}${className ? ` ${className}` : ''}`}
      aria-pressed={saved}
      aria-label={saveStarLabel(lot.name, saved)}
      title={visitor ? 'Sign in to save this lot' : saved ? 'Saved: tap to remove' : 'Save this lot'}
      onClick={visitor ? signIn : () => toggleSaved(lot)}
    >
      <Icon name="star" size={18} />
    </button>
  );
}
