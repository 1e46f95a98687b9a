import { useEffect, useRef, useState } from 'react';
import { isSessionEnded } from '../../lib/api-client';
import { toast } from './toast/toast-store';
import './ui.css';

export interface LoadMoreProps {
  /** How many rows are shown. */
  shown: number;
  /** How many there are in all, when the server says (null: unknown). */
  total?: number | null;
  /** More rows are there to load. */
  more: boolean;
  /** Reads the next page and adds it (rejects on failure). */
  onLoadMore: () => Promise<void>;
  /** What the rows are, plural ("transactions"). */
  noun: string;
  /** The toast when a page cannot be read. */
  failed: string;
}

/**
 * "Load more" under a paged list (docs/architecture.md, Paged lists): a real button, so the keyboard
 * reaches it, busy while the page is read; beside it how many rows are shown (a polite live region, so a
 * screen reader hears the list grow). When the last page has come the button gives way to a line saying
 * so, which takes the focus if the button had it (focus is never dropped on the page).
 */
export function LoadMore({ shown, total = null, more, onLoadMore, noun, failed }: LoadMoreProps) {
  const [loading, setLoading] = useState(false);
  // Whether a page was loaded here: a list that fits on its first page says nothing at its end.
  const [loaded, setLoaded] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const end = useRef<HTMLParagraphElement>(null);
  const hadFocus = useRef(false);

  useEffect(() => {
    if (more || !hadFocus.current || !end.current) return;
    end.current.focus();
    hadFocus.current = false;
  }, [more, loaded]);

  async function load() {
    if (loading) return;
    hadFocus.current = document.activeElement === button.current;
    setLoading(true);
    // Before the page comes: the list may say it has ended in the same render as the page lands.
    setLoaded(true);
    try {
      await onLoadMore();
    } catch (err) {
      if (!isSessionEnded(err)) toast.error(failed);
    } finally {
      setLoading(false);
    }
  }

  const count = total === null ? `Showing ${shown} ${noun}` : `Showing ${shown} of ${total} ${noun}`;
  if (!more) {
    if (!loaded) return null;
    return (
      <p ref={end} className="load-more load-more-end" tabIndex={-1}>
        {total === null ? `All ${noun} shown` : `All ${total} ${noun} shown`}
      </p>
    );
  }
  return (
    <div className="load-more">
      {/* Busy, not disabled: a disabled button would drop the keyboard focus it has. */}
      <button ref={button} type="button" className="btn btn-outline btn-sm" aria-disabled={loading} aria-busy={loading} onClick={() => void load()}>
        {loading ? 'Loading…' : 'Load more'}
      </button>
      <span className="load-more-count" aria-live="polite">{count}</span>
    </div>
  );
}
