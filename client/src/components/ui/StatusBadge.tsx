/**
 * Every status badge of the app: one label and one colour per status of a bid, an auction, a product,
 * a user and a ledger row (docs/money.md#bid-statuses for bids). Screens show statuses only through
 * `StatusBadge` (or `statusBadge` where they need the words, as the CSV exports do).
 */
import { AMBER_BADGE_SECONDS } from '@auction/shared';
import { Badge, type Tone } from './Badge';

export interface BadgeLook {
  label: string;
  tone: Tone;
}

const BADGES = {
  bid: {
    success: { label: 'Active', tone: 'success' },
    outbid: { label: 'Outbid', tone: 'neutral' },
    failed: { label: 'Failed', tone: 'danger' },
    rolledback: { label: 'Cancelled', tone: 'warning' },
    won: { label: 'Won', tone: 'info' },
    // Led at the close but below the lot's secret reserve: refunded, not sold.
    unsold: { label: 'Reserve not met', tone: 'neutral' },
  },
  auction: {
    active: { label: 'Active', tone: 'success' },
    // Still open, ending within AMBER_BADGE_SECONDS (bidders' screens).
    closing: { label: 'Active', tone: 'warning' },
    ended: { label: 'Ended', tone: 'danger' },
    settled: { label: 'Settled', tone: 'info' },
  },
  product: {
    available: { label: 'Available', tone: 'success' },
    sold: { label: 'Sold', tone: 'info' },
    unassigned: { label: 'Unassigned', tone: 'neutral' },
  },
  user: {
    active: { label: 'Active', tone: 'success' },
    inactive: { label: 'Inactive', tone: 'danger' },
  },
  transaction: {
    topup: { label: 'Top-up', tone: 'success' },
    bid: { label: 'Bid', tone: 'info' },
    refund: { label: 'Refund', tone: 'neutral' },
  },
  // A ledger row's meaning to the bidder (docs/money.md#ledger-kinds).
  ledger: {
    topup: { label: 'Top-up', tone: 'success' },
    hold: { label: 'On hold', tone: 'warning' },
    release: { label: 'Released', tone: 'neutral' },
    payment: { label: 'Payment', tone: 'info' },
    unused_refund: { label: 'Refund', tone: 'neutral' },
  },
} as const satisfies Record<string, Record<string, BadgeLook>>;

export type StatusKind = keyof typeof BADGES;
export type StatusOf<K extends StatusKind> = keyof (typeof BADGES)[K] & string;

/**
 * What a status this client does not know reads as: a bid as failed, an auction as ended, a product as
 * available, a user as inactive, a ledger row as a bid (as the wallet's sums count it).
 */
const UNKNOWN: { [K in StatusKind]: StatusOf<K> } = { bid: 'failed', auction: 'ended', product: 'available', user: 'inactive', transaction: 'bid', ledger: 'hold' };

/** The label and colour of a status of `kind`. */
export function statusBadge<K extends StatusKind>(kind: K, status: string): BadgeLook {
  const looks: Record<string, BadgeLook> = BADGES[kind];
  return Object.hasOwn(looks, status) ? looks[status]! : looks[UNKNOWN[kind]]!;
}

/** An auction by the time it has left: ended at 0, closing under AMBER_BADGE_SECONDS, otherwise active. */
export function auctionTimeStatus(secondsLeft: number): StatusOf<'auction'> {
  if (secondsLeft <= 0) return 'ended';
  return secondsLeft < AMBER_BADGE_SECONDS ? 'closing' : 'active';
}

export function StatusBadge({ kind, status }: { kind: StatusKind; status: string }) {
  const { label, tone } = statusBadge(kind, status);
  return <Badge tone={tone}>{label}</Badge>;
}
