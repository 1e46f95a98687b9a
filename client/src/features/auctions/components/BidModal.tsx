import { useEffect, useId, useState, type FormEvent } from 'react';
import { STRICT_CANCEL_WORDS, type Auction } from '@auction/shared';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { formatRupees } from '../../../lib/format';
import { useWalletBalance } from '../../../lib/account/wallet-balance';
import { checkBid, isEnded, quickBids, stepsText } from '../../../lib/catalogue';
import { useAuctionActions, useAuctionById, useAuctionProducts } from '../store/auctions-store';
import { useSecondsLeft } from './use-seconds-left';

interface BidModalProps {
  auctionId: string;
  productId: string;
  /** The auction as the page shows it, kept live there (the lot page's); left out, the copy read by id (Browse's panel). */
  auction?: Auction;
  onClose: () => void;
}

/** How many one-tap amounts the dialog offers. */
const QUICK_BIDS = 3;

/**
 * Place a bid on one product: the amount starts at the lowest acceptable bid, three one-tap amounts
 * follow the auction's increment rule, and an optional maximum lets the server bid step by step up to
 * it. The highest bid, the minimum and the caller's balance stay live while the dialog is open.
 */
export function BidModal({ auctionId, productId, auction: shown, onClose }: BidModalProps) {
  const formId = useId();
  const amountId = `${formId}-amount`;
  const maxId = `${formId}-max`;
  // The page has read both; the dialog follows them live without reading again.
  const product = useAuctionProducts(auctionId, { read: false }).data?.find((p) => p.id === productId);
  const byId = useAuctionById(auctionId, { read: false }).data;
  const auction = shown ?? byId;
  // The balance is read when the dialog opens (silently: a dash if it cannot be), then kept live by the wallet.
  const wallet = useWalletBalance().data;
  const placeBid = useAuctionActions((s) => s.placeBid);
  const secs = useSecondsLeft(auction?.valid_until);
  // Null: the field follows the lowest acceptable bid (it moves live until the bidder types).
  const [typed, setTyped] = useState<string | null>(null);
  const [max, setMax] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; max?: string }>({});
  const [sending, setSending] = useState(false);
  /** The answer to a bid an automatic bid beat at once (the dialog stays open to bid again). */
  const [autoOutbid, setAutoOutbid] = useState<string | null>(null);

  // The product or its auction vanished (deleted while the dialog was open): nothing left to bid on.
  const gone = !product || !auction;
  useEffect(() => {
    if (gone) onClose();
  }, [gone, onClose]);
  if (!product || !auction) return null;

  const highest = product.highest_bid;
  const unbid = highest <= 0;
  const minimum = product.min_next_bid;
  const amount = typed ?? String(minimum);
  const quick = quickBids(product, auction, QUICK_BIDS);
  const leading = product.my_status === 'leading';
  const closedReason = product.status === 'sold' ? 'This product has been sold.' : isEnded(auction, secs) ? 'This auction has ended.' : null;

  function focus(id: string) {
    document.getElementById(id)?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending || closedReason || !product || !auction) return;
    const check = checkBid({ amount, max }, product, auction);
    if (!check.ok) {
      setErrors({ [check.field]: check.error });
      focus(check.field === 'amount' ? amountId : maxId);
      return;
    }
    setErrors({});
    setAutoOutbid(null);
    setSending(true);
    const outcome = await placeBid(auctionId, productId, check.ask);
    if (outcome.ok && outcome.leading) {
      onClose();
      return;
    }
    setSending(false);
    if (outcome.ok) {
      // A leader's maximum answered at once: show it, and start again from the new minimum.
      const { reply } = outcome;
      setAutoOutbid(`${outcome.message}. The highest bid is now ${formatRupees(reply.highest_bid)}; bid at least ${formatRupees(reply.min_next_bid)} to lead.`);
      setTyped(null);
      setMax('');
      focus(amountId);
    }
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
          <div className="auc-bid-item auc-bid-item-product">
            <dt className="auc-eyebrow">Product</dt>
            <dd className="auc-bid-product">{product.name}</dd>
            <dd className="auc-id">ID: {product.id}</dd>
          </div>
          <div className="auc-bid-item auc-bid-highest auc-bid-item-highest">
            <dt className="auc-eyebrow">{unbid ? 'Starting bid' : 'Current highest bid'}</dt>
            <dd className="auc-bid-amount" aria-live="polite">{formatRupees(unbid ? minimum : highest)}</dd>
          </div>
          <div className="auc-bid-item auc-bid-item-balance">
            <dt className="auc-eyebrow">Available balance</dt>
            <dd className="auc-bid-figure">{wallet === undefined ? '—' : formatRupees(wallet.wallet_balance)}</dd>
            {wallet?.on_hold ? <dd className="auc-bid-note">{formatRupees(wallet.on_hold)} held by your leading bids</dd> : null}
          </div>
          {!closedReason && (
            <div className="auc-bid-item auc-bid-highest auc-bid-item-minimum">
              <dt className="auc-eyebrow">Minimum bid</dt>
              <dd className="auc-bid-figure" aria-live="polite">{formatRupees(minimum)}</dd>
            </div>
          )}
        </dl>
        {leading && !closedReason && (
          <p className="auc-bid-leading">
            You're the highest bidder{product.my_max === null ? '' : ` · your maximum ${formatRupees(product.my_max)}`}. Raise your maximum to stay ahead automatically.
          </p>
        )}
        {autoOutbid && !closedReason && <p className="auc-bid-outbid" role="alert">{autoOutbid}</p>}
        {closedReason ? (
          <p className="auc-bid-closed" role="alert">{closedReason}</p>
        ) : (
          <>
            <FormField
              id={amountId}
              label="Your bid (₹)"
              type="number"
              inputMode="decimal"
              min={minimum}
              step={0.01}
              placeholder={String(minimum)}
              required={max.trim() === ''}
              value={amount}
              onValueChange={(v) => {
                setTyped(v);
                setErrors((e) => ({ ...e, amount: undefined }));
              }}
              error={errors.amount}
            />
            <div className="auc-quick" role="group" aria-label="Quick bid amounts">
              {quick.map((value) => (
                <button key={value} type="button" className="btn btn-sm btn-outline auc-quick-btn" aria-pressed={amount === String(value)}
                  onClick={() => {
                    setTyped(String(value));
                    setErrors((e) => ({ ...e, amount: undefined }));
                  }}>
                  {formatRupees(value)}
                </button>
              ))}
            </div>
            <p className="auc-bid-hint auc-bid-steps" data-testid="bid-steps">{stepsText(auction)}.</p>
            <div className="field">
              <label className="field-label" htmlFor={maxId}>Maximum bid (₹, optional)</label>
              <input id={maxId} className={`input${errors.max ? ' input-invalid' : ''}`} type="number" inputMode="decimal" min={minimum} step={0.01}
                value={max}
                onChange={(e) => {
                  setMax(e.target.value);
                  setErrors((er) => ({ ...er, max: undefined }));
                }}
                aria-invalid={errors.max ? true : undefined}
                aria-describedby={errors.max ? `${maxId}-error ${maxId}-hint` : `${maxId}-hint`} />
              {errors.max && <p className="field-error" id={`${maxId}-error`}>{errors.max}</p>}
              <p className="auc-bid-hint" id={`${maxId}-hint`}>We'll bid for you up to this amount; all of it is held while you lead.</p>
              {product.reserve_met === false && (
                <p className="auc-bid-hint auc-bid-reserve" data-testid="reserve-note">
                  <Icon name="info" size={14} /> <span>This lot's reserve is not met yet: a maximum that reaches it lifts the price straight to the reserve, so the lot can sell to you.</span>
                </p>
              )}
            </div>
            <p className="auc-bid-hint">The amount is held from your wallet while your bid leads.</p>
            {auction.cancel_policy === 'strict' && <p className="auc-bid-hint" data-testid="strict-cancel">{STRICT_CANCEL_WORDS}</p>}
          </>
        )}
      </form>
    </Modal>
  );
}
