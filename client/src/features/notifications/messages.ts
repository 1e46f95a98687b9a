import type { LiveEvent } from '../../lib/live';
import type { ToastKind } from '../../components/ui/toast/toast-store';
import { formatRupees } from '../../lib/format';

/** A product's name when the page knows it; `bid:won` and `bid:reinstated` carry only its id (docs/live-protocol.md). */
export type ProductNameLookup = (auctionId: string, productId: string) => string | undefined;

/** The key a lot's toasts share: a bidder sees one toast per lot at a time, the latest standing (an outbid, then leading again). */
const lotKey = (data: { auction_id: string; product_id: string }) => `lot:${data.auction_id}:${data.product_id}`;

/** The personal live events that raise a toast. */
export const NOTIFIED_EVENTS = ['bid:outbid', 'bid:won', 'bid:reinstated'] as const;
export type NotifiedEvent = LiveEvent<(typeof NOTIFIED_EVENTS)[number]>;

/** The toast a personal live event raises. */
export function notificationFor(e: NotifiedEvent, nameOf: ProductNameLookup = () => undefined): { kind: ToastKind; message: string; key: string } {
  switch (e.event) {
    case 'bid:outbid':
      return { kind: 'warning', message: `You were outbid on ${e.data.product_name}: highest bid is now ${formatRupees(e.data.highest_bid)}`, key: lotKey(e.data) };
    case 'bid:won': {
      const product = nameOf(e.data.auction_id, e.data.product_id) ?? e.data.product_id;
      return { kind: 'success', message: `You won ${product} for ${formatRupees(e.data.amount)}!`, key: lotKey(e.data) };
    }
    case 'bid:reinstated': {
      const product = nameOf(e.data.auction_id, e.data.product_id) ?? e.data.product_id;
      return { kind: 'info', message: `Your bid of ${formatRupees(e.data.amount)} on ${product} is leading again`, key: lotKey(e.data) };
    }
  }
}
