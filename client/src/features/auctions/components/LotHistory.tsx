import type { LotHistoryEntry } from '@auction/shared';
import { Badge, type Tone } from '../../../components/ui/Badge';
import { EmptyState } from '../../../components/ui/EmptyState';
import { formatDateTimeSeconds, formatRupees } from '../../../lib/format';

/**
 * What an entry's mark says: the leading bid leads, the rest of a live history is simply lower; a
 * cancelled bid, the winner and a leader below the reserve at the close say so.
 */
const MARKS: Partial<Record<LotHistoryEntry['state'], { label: string; tone: Tone }>> = {
  success: { label: 'Leading', tone: 'success' },
  won: { label: 'Won', tone: 'info' },
  rolledback: { label: 'Cancelled', tone: 'warning' },
  unsold: { label: 'Reserve not met', tone: 'neutral' },
};

/**
 * A lot's bids in its current auction, highest first: who (an alias such as "Bidder 3", "You" for the
 * caller), how much, when, and how it stands now; automatic raises of a maximum bid are marked Auto.
 */
export function LotHistory({ entries, titleId }: { entries: readonly LotHistoryEntry[]; titleId: string }) {
  if (entries.length === 0) {
    return <EmptyState icon="bids" title="No bids yet">Be the first to bid on this lot.</EmptyState>;
  }
  return (
    <ol className="lot-history-list" aria-labelledby={titleId}>
      {entries.map((e, i) => {
        const you = e.bidder === 'You';
        // One bid may appear several times (its automatic raises): only its highest entry carries the mark.
        const mark = entries.findIndex((x) => x.bid_id === e.bid_id) === i ? MARKS[e.state] : undefined;
        return (
          <li key={`${e.bid_id}-${e.auto ? 'auto' : 'bid'}-${e.amount}-${i}`} className={`lot-entry${you ? ' lot-entry-you' : ''}`}>
            <span className="lot-entry-who">
              <span className="lot-entry-bidder">{e.bidder}</span>
              {e.auto && <span className="lot-auto" title="An automatic raise of a maximum bid">Auto</span>}
            </span>
            <span className="lot-entry-amount">{formatRupees(e.amount)}</span>
            <time className="lot-entry-time" dateTime={e.timestamp}>{formatDateTimeSeconds(e.timestamp)}</time>
            <span className="lot-entry-status">{mark && <Badge tone={mark.tone}>{mark.label}</Badge>}</span>
          </li>
        );
      })}
    </ol>
  );
}
