-- version: 1
-- lot_context_more(p_product, p_auction, p_users, p_ids): more commands for a lot batch whose transaction
-- already holds the lot (lot_context): those that queued while it waited for the lot's lock join it
-- instead of waiting for a batch of their own. The wallets of p_users are locked in ascending id order,
-- skipping any another transaction holds (waiting for one out of order could deadlock; a skipped
-- caller's command waits for the next batch). Returns, as lot_context does for its callers, the wallets
-- locked, which of those users are registered and which have cancelled a bid on the lot, and p_ids new
-- bid ids and 2 × p_ids ledger ids.
-- History: 1 as drizzle/postgres/0014_lot_context_more.sql created it.

CREATE OR REPLACE FUNCTION lot_context_more(p_product text, p_auction text, p_users integer[], p_ids integer) RETURNS json
LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_users integer[];
BEGIN
  SELECT coalesce(array_agg(l.id), '{}') INTO v_users FROM (
    SELECT u.id FROM users u WHERE u.id = ANY (p_users) ORDER BY u.id FOR NO KEY UPDATE SKIP LOCKED) l;
  RETURN json_build_object(
    'wallets', (SELECT coalesce(json_agg(x ORDER BY x.id), '[]') FROM (
      SELECT u.id, u.username, u.status, u.wallet_balance AS balance FROM users u WHERE u.id = ANY (v_users)) x),
    'registered', (SELECT coalesce(json_agg(r.user_id), '[]') FROM registrations r
      WHERE r.auction_id = p_auction AND r.user_id = ANY (v_users)),
    'cancelled', (SELECT coalesce(json_agg(DISTINCT c.user_id), '[]') FROM bids c
      WHERE c.product_id = p_product AND c.auction_id = p_auction AND c.status = 'rolledback' AND c.user_id = ANY (v_users)),
    'bidIds', (SELECT coalesce(json_agg(nextval('bids_id_seq')), '[]') FROM generate_series(1, p_ids)),
    'ledgerIds', (SELECT coalesce(json_agg(nextval('wallet_transactions_id_seq')), '[]') FROM generate_series(1, 2 * p_ids))
  );
END
$$;
