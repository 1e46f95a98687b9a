/** The admin forms' rules (with the server's own words, CATALOGUE_MESSAGES), and the datetime-local conversions. */
import { CATALOGUE_MESSAGES, type AdminAuction, type AuctionStatus } from '@auction/shared';
import { DEFAULT_DURATION_DAYS } from '../../../lib/admin-settings';

export interface AuctionDraft {
  id: string;
  name: string;
  /** A datetime-local value (`2026-11-24T07:45`), the admin's own wall clock. */
  validUntil: string;
  productIds: string[];
}

const blank = (s: string) => s.trim().length === 0;

/** The server's sentence when a create form is incomplete, otherwise null. */
export function checkCreateAuction(d: AuctionDraft): string | null {
  if (blank(d.id) || blank(d.name) || blank(d.validUntil) || Number.isNaN(Date.parse(d.validUntil)) || d.productIds.length === 0) {
    return CATALOGUE_MESSAGES.auctionCreate;
  }
  return null;
}

export function checkEditAuction(d: Pick<AuctionDraft, 'name' | 'validUntil'>): string | null {
  if (blank(d.name) || blank(d.validUntil) || Number.isNaN(Date.parse(d.validUntil))) return CATALOGUE_MESSAGES.auctionEdit;
  return null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as a datetime-local value in the browser's time zone. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A datetime-local value as an ISO instant. The browser reads it in the admin's own zone, so the
 * server (which would read an offset-less value in its TIMEZONE) gets the instant the admin meant.
 */
export function fromLocalInput(local: string): string {
  return new Date(local).toISOString();
}

/** `DEFAULT_DURATION_DAYS` from `now`, on the minute, as a datetime-local value (the create form's default). */
export function defaultValidUntil(now: number = Date.now()): string {
  return toLocalInput(new Date(now + DEFAULT_DURATION_DAYS * 86_400_000).toISOString());
}

/** What the admin sees: settled sticks; otherwise ended once the end has passed by the server's clock. */
export function auctionStatus(a: Pick<AdminAuction, 'status' | 'valid_until'>, now: number): AuctionStatus {
  if (a.status === 'settled') return 'settled';
  if (a.status === 'ended' || Date.parse(a.valid_until) <= now) return 'ended';
  return 'active';
}
