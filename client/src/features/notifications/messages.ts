import type { LiveEvent } from '../live';
import type { ToastKind } from '../../components/ui/toast/toast-store';
import { formatRupees } from '../../lib/format';

/** The toast a personal live event raises, or null for events that are not notifications. */
export function notificationFor(e: LiveEvent): { kind: ToastKind; message: string } | null {
  switch (e.event) {
    case 'bid:outbid':
      return { kind: 'warning', message: `You were outbid on ${e.data.product_name}: highest bid is now ${formatRupees(e.data.highest_bid)}` };
    case 'bid:won':
      return { kind: 'success', message: `You won ${e.data.product_id} for ${formatRupees(e.data.amount)}!` };
    case 'bid:reinstated':
      return { kind: 'info', message: `Your bid of ${formatRupees(e.data.amount)} on ${e.data.product_id} is leading again` };
    default:
      return null;
  }
}
