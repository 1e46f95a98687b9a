import type { Product } from '@auction/shared';
import { Icon } from '../../../components/ui/Icon';
import { reserveNote, standingOf } from '../../../lib/catalogue';

const STANDING_ICON = { leading: 'check', outbid: 'alert', won: 'check', lost: 'info' } as const;

/**
 * A lot's state for the caller ("You're the highest bidder", "Outbid — bid again", "You won", …) and its
 * reserve's ("Reserve not met yet", "Reserve met"), as a lot row and the lot page show them; nothing when
 * there is neither.
 */
export function LotState({ product, ended, className }: { product: Pick<Product, 'status' | 'my_status' | 'my_max' | 'reserve_met'>; ended: boolean; className?: string }) {
  const standing = standingOf(product, ended);
  const reserve = reserveNote(product, ended);
  if (!standing && !reserve) return null;
  return (
    <div className={`auc-product-state${className ? ` ${className}` : ''}`}>
      {standing && (
        <p className={`auc-standing auc-standing-${standing.tone}`}>
          <Icon name={STANDING_ICON[standing.tone]} size={14} /> {standing.text}
        </p>
      )}
      {reserve && <p className={`auc-reserve${reserve.met ? ' auc-reserve-met' : ''}${!reserve.met && ended ? ' auc-reserve-failed' : ''}`}>{reserve.text}</p>}
    </div>
  );
}
