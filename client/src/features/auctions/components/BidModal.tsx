import { minimumBid } from '@auction/shared';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { Modal } from '../../../components/ui/Modal';
import { formatRupees } from '../../../lib/format';
import { checkBid, isEnded } from '../lib/rules';
import { useAuctionActions, useAuctionList, useAuctionProducts } from '../store/auctions-store';
import { useSecondsLeft } from './use-seconds-left';

interface BidModalProps {
  auctionId: string;
  productId: string;
  onClose: () => void;
}

/** Place a bid on one product; the current highest stays live while the dialog is open. */
export function BidModal({ auctionId, productId, onClose }: BidModalProps) {
  const formId = useId();
  // The page has read both; the dialog follows them live without reading again.
  const product = useAuctionProducts(auctionId, { read: false }).data?.find((p) => p.id === productId);
  const auction = useAuctionList({ read: false }).data?.find((a) => a.id === auctionId);
  const placeBid = useAuctionActions((s) => s.placeBid);
  const secs = useSecondsLeft(auction?.valid_until);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);

  // The product or its auction vanished (deleted while the dialog was open): nothing left to bid on.
  const gone = !product || !auction;
  useEffect(() => {
    if (gone) onClose();
  }, [gone, onClose]);
  if (!product || !auction) return null;

  const highest = product.highest_bid;
  const closedReason = product.status === 'sold' ? 'This product has been sold.' : isEnded(auction, secs) ? 'This auction has ended.' : null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending || closedReason) return;
    const check = checkBid(amount, highest);
    if (!check.ok) {
      setError(check.error);
      document.getElementById(`${formId}-amount`)?.focus();
      return;
    }
    setError(undefined);
    setSending(true);
    if (await placeBid(auctionId, productId, check.amount)) onClose();
    else setSending(false);
  }

  return (
    <Modal
      title="Place Bid"
      onClose={onClose}
      footer={(
        <>
          <button type="button" className="btn btn-outline" onClick={onClose}>Cancel</button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={sending || closedReason !== null}>
            {sending ? 'Placing bid…' : 'Place Bid'}
          </button>
        </>
      )}
    >
      <form id={formId} className="auc-bid-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <dl className="auc-bid-summary">
          <div className="auc-bid-item">
            <dt className="auc-eyebrow">Product</dt>
            <dd className="auc-bid-product">{product.name}</dd>
            <dd className="auc-id">ID: {product.id}</dd>
          </div>
          <div className="auc-bid-item auc-bid-highest">
            <dt className="auc-eyebrow">Current highest bid</dt>
            <dd className="auc-bid-amount" aria-live="polite">{formatRupees(highest)}</dd>
          </div>
        </dl>
        {closedReason ? (
          <p className="auc-bid-closed" role="alert">{closedReason}</p>
        ) : (
          <FormField
            id={`${formId}-amount`}
            label="Your bid (₹)"
            type="number"
            inputMode="decimal"
            min={minimumBid(highest)}
            step={0.01}
            placeholder={String(minimumBid(highest))}
            required
            value={amount}
            onValueChange={(v) => {
              setAmount(v);
              setError(undefined);
            }}
            error={error}
          />
        )}
        {!closedReason && <p className="auc-bid-hint">Minimum bid: {formatRupees(minimumBid(highest))}. The amount is held from your wallet while your bid leads.</p>}
      </form>
    </Modal>
  );
}
