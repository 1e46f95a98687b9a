import { useEffect } from 'react';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { knownProducts } from '../../../lib/catalogue';
import { knownBids } from '../../../lib/account/my-bids';
import { onLive } from '../../../lib/live';
import { NOTIFIED_EVENTS, notificationFor, type ProductNameLookup } from '../messages';

/** The product's name from whatever this tab has loaded: the open auction's products, or the user's bids. */
const knownName: ProductNameLookup = (auctionId, productId) =>
  knownProducts(auctionId).find((p) => p.id === productId)?.name
  ?? knownBids().find((b) => b.auction_id === auctionId && b.product_id === productId)?.product_name;

/**
 * Turns the signed-in user's personal live events (outbid, won, reinstated) into toasts, whatever
 * page they are on. Renders nothing; mounted once by the user portal's shell.
 */
export function LiveNotifications() {
  useEffect(() => {
    const stop = onLive(NOTIFIED_EVENTS, (_data, e) => {
      const note = notificationFor(e, knownName);
      // One toast per lot at a time: a flood of outbids and reinstatements shows only the latest.
      useToasts.getState().show(note.kind, note.message, note.key);
    });
    return () => {
      stop();
    };
  }, []);
  return null;
}
