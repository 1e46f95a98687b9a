import type { LiveEvent } from '../live';
import type { ToastKind } from '../../components/ui/toast/toast-store';
import { formatRupees } from '../../lib/format';

/** A product's name when the page knows it; `bid:won` and `bid:reinstated` carry only its id (docs/live-protocol.md). */
export type ProductNameLookup = (auctionId: string, productId: string) => string | undefined;

/** The toast a personal live event raises, or null for events that are not notifications. */
export function notificationFor(e: LiveEvent, nameOf: ProductNameLookup = () => undefined): { kind: ToastKind; message: string } | null {
  switch (e.event) {
    case 'bid:outbid':
      return { kind: 'warning', message: `You were outbid on ${e.data.product_name}: highest bid is now ${formatRupees(e.data.highest_bid)}` };
    case 'bid:won': {
      const product = nameOf(e.data.auction_id, e.data.product_id) ?? e.data.product_id;
      return { kind: 'success', message: `You won ${product} for ${formatRupees(e.data.amount)}!` };
    }
    case 'bid:reinstated': {
      const product = nameOf(e.data.auction_id, e.data.product_id) ?? e.data.product_id;
      return { kind: 'info', message: `Your bid of ${formatRupees(e.data.amount)} on ${product} is leading again` };
    }
    default:
      return null;
  }
}
