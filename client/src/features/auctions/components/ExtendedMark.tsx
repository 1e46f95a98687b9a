import type { Auction } from '@auction/shared';
import { formatDateTime } from '../../../lib/format';
import { useExtensionFlash } from './use-extension-flash';

/**
 * "Extended": soft close has moved the auction's end. It flashes when an extension arrives live and
 * stays as a small badge while the auction is extended and open.
 */
export function ExtendedMark({ auction, ended }: { auction: Pick<Auction, 'id' | 'extended' | 'original_valid_until'>; ended: boolean }) {
  const flash = useExtensionFlash(auction.id);
  if (ended || (!auction.extended && flash === 0)) return null;
  return (
    <span key={flash} className={`auc-extended${flash > 0 ? ' auc-extended-flash' : ''}`}
      title={`Late bids moved the end; it was ${formatDateTime(auction.original_valid_until)}`}>
      Extended
    </span>
  );
}
