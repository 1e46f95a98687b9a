import { useEffect, useRef } from 'react';
import { isSessionEnded } from '../../../lib/api-client';
import { toast } from '../../../components/ui/toast/toast-store';

interface BrowseMoreProps {
  shown: number;
  /** The tab's count, as the server gave it. */
  total: number | null;
  more: boolean;
  /** The next page is on its way (from the button or from scrolling). */
  loading: boolean;
  /** Reads the next page; rejects when it could not be read. */
  onLoadMore: () => Promise<void>;
}

/** How far below the window the end of the list starts reading the next page. */
const SCROLL_AHEAD = '600px';

/**
 * The end of Browse's list: a "Load more" button for keyboards (busy while the page is read, never
 * disabled, so it keeps the focus), a sentinel that reads the next page as scrolling nears it, and a
 * polite count. On the last page the button gives way to a line, which takes the focus if the button had it.
 */
export function BrowseMore({ shown, total, more, loading, onLoadMore }: BrowseMoreProps) {
  const button = useRef<HTMLButtonElement>(null);
  const end = useRef<HTMLParagraphElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const hadFocus = useRef(false);
  const state = useRef({ more, loading, onLoadMore });
  state.current = { more, loading, onLoadMore };

  const load = useRef(async () => {
    const { more: hasMore, loading: busy, onLoadMore: read } = state.current;
    if (!hasMore || busy) return;
    hadFocus.current = document.activeElement === button.current;
    try {
      await read();
    } catch (err) {
      if (!isSessionEnded(err)) toast.error('Failed to load more auctions');
    }
  });

  useEffect(() => {
    if (more || !hadFocus.current) return;
    hadFocus.current = false;
    end.current?.focus();
  }, [more]);

  // Infinite scroll: the sentinel under the list reads the next page as it nears the window.
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !more || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void load.current();
    }, { rootMargin: `0px 0px ${SCROLL_AHEAD} 0px` });
    observer.observe(node);
    return () => observer.disconnect();
  }, [more, shown]);

  const count = total === null ? `Showing ${shown} auctions` : `Showing ${shown} of ${total} auctions`;
  return (
    <div className="auc-more">
      <div ref={sentinel} className="auc-more-sentinel" aria-hidden="true" />
      {more ? (
        <div className="load-more">
          <button ref={button} type="button" className="btn btn-outline btn-sm" aria-disabled={loading} aria-busy={loading}
            onClick={() => void load.current()}>
            {loading ? 'Loading…' : 'Load more'}
          </button>
          <span className="load-more-count" aria-live="polite">{count}</span>
        </div>
      ) : (
        <p ref={end} className="load-more load-more-end" tabIndex={-1}>
          {shown === 1 ? 'The one auction here is shown' : `All ${shown} auctions shown`}
        </p>
      )}
    </div>
  );
}
