import { useEffect, useRef } from 'react';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { toast } from '../../../components/ui/toast/toast-store';
import { formatRupees } from '../../../lib/format';
import { useAuctionActions, useAuctionProducts } from '../store/auctions-store';

interface BuyNowDialogProps {
  auctionId: string;
  productId: string;
  onClose: () => void;
}

export const BUY_NOW_GONE = 'This lot can no longer be bought at its buy-now price';

/**
 * "Buy now ₹X?" before POST /api/buy-now. The lot stays live while the question is open: once it can no
 * longer be bought at its price (a bid went in, it sold), the question goes and says why.
 */
export function BuyNowDialog({ auctionId, productId, onClose }: BuyNowDialogProps) {
  const product = useAuctionProducts(auctionId, { read: false }).data?.find((p) => p.id === productId);
  const buyNow = useAuctionActions((s) => s.buyNow);
  const busy = useAuctionActions((s) => s.buying[productId] === true);
  const sending = useRef(false);
  const price = product && product.status === 'available' ? product.buy_now_price : null;

  const gone = price === null;
  useEffect(() => {
    if (!gone || sending.current) return;
    if (product) toast.warning(BUY_NOW_GONE);
    onClose();
  }, [gone, product, onClose]);
  if (!product || price === null) return null;

  async function onConfirm() {
    if (sending.current) return;
    sending.current = true;
    await buyNow(auctionId, productId);
    onClose();
  }

  return (
    <ConfirmDialog
      title="Buy now"
      message={`Buy ${product.name} now for ${formatRupees(price)}? The amount is paid from your wallet at once and bidding on this lot ends.`}
      confirmLabel={busy ? 'Buying…' : `Buy now ${formatRupees(price)}`}
      busy={busy}
      onConfirm={() => void onConfirm()}
      onCancel={onClose}
    />
  );
}
