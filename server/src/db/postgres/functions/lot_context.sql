-- version: 2
-- lot_context(p_product, p_users, p_ids): the first round trip of a lot batch (server/src/db/postgres/lot-batch.ts).
-- Locks the lot, then reads what deciding its bids needs: its auction, its leading bid, the wallets of
-- p_users and of the leader (locked in ascending id order, after the lot, as every command takes them),
-- which of p_users are registered and which have cancelled a bid on the lot, and p_ids new bid ids and
-- 2 × p_ids new ledger ids. Null when there is no live product with this id. Runs in the caller's
-- transaction; each statement takes a fresh snapshot (READ COMMITTED), so what is read after a lock
-- includes whatever committed while it was awaited. One plan per statement for the session
-- (force_generic_plan): planned anew per call, its one JSON query cost ~100 us more a batch.
-- History: 1 as drizzle/postgres/0013_lot_batch.sql created it; 2 reads the all-in terms (the auction's
-- premium and its GST, the lot's GST) and what the leader holds (docs/money.md#all-in-prices).

CREATE OR REPLACE FUNCTION lot_context(p_product text, p_users integer[], p_ids integer) RETURNS json
LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_auction text;
  v_leader integer;
  v_users integer[];
BEGIN
  SELECT p.auction_id INTO v_auction FROM products p WHERE p.id = p_product AND p.deleted_at IS NULL FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  SELECT b.user_id INTO v_leader FROM bids b WHERE b.product_id = p_product AND b.status = 'success';
  v_users := CASE WHEN v_leader IS NULL THEN p_users ELSE p_users || v_leader END;
  PERFORM 1 FROM users u WHERE u.id = ANY (v_users) ORDER BY u.id FOR NO KEY UPDATE;
  RETURN json_build_object(
    'product', (SELECT row_to_json(x) FROM (
      SELECT p.id, p.name, p.description, p.created_by AS "createdBy", p.auction_id AS "auctionId", p.status, p.bid_count AS "bidCount",
        p.version, p.starting_price AS "startingPrice", p.reserve_price AS "reservePrice", p.buy_now_price AS "buyNowPrice", p.gst_pct AS "gstPct",
        p.sold_price AS "soldPrice", p.winner_id AS "winnerId", p.category_id AS "categoryId", p.lot_number AS "lotNumber",
        p.created_at AS "createdAt", p.updated_at AS "updatedAt", p.deleted_at AS "deletedAt"
      FROM products p WHERE p.id = p_product) x),
    'auction', (SELECT row_to_json(x) FROM (
      SELECT a.id, a.name, a.valid_until AS "validUntil", a.original_valid_until AS "originalValidUntil", a.increment_rule AS "incrementRule",
        a.increment_amount AS "incrementAmount", a.increment_tiers AS "incrementTiers", a.cancel_policy AS "cancelPolicy",
        a.soft_close_s AS "softCloseS", a.max_extension_s AS "maxExtensionS", a.buyer_premium_bp AS "buyerPremiumBp", a.premium_gst_pct AS "premiumGstPct", a.created_by AS "createdBy", a.created_at AS "createdAt",
        a.updated_at AS "updatedAt", a.settled_at AS "settledAt", a.deleted_at AS "deletedAt"
      FROM auctions a WHERE a.id = v_auction) x),
    'leader', (SELECT row_to_json(x) FROM (
      SELECT b.id, b.user_id AS "userId", b.product_id AS "productId", b.auction_id AS "auctionId", b.amount, b.max_amount AS "maxAmount", b.held,
        b.buy_now AS "buyNow", b.extended_from AS "extendedFrom", b.extended_to AS "extendedTo", b.status, b.reason,
        b.created_at AS "createdAt", b.updated_at AS "updatedAt"
      FROM bids b WHERE b.product_id = p_product AND b.status = 'success') x),
    'wallets', (SELECT coalesce(json_agg(x ORDER BY x.id), '[]') FROM (
      SELECT u.id, u.username, u.status, u.wallet_balance AS balance FROM users u WHERE u.id = ANY (v_users)) x),
    'registered', (SELECT coalesce(json_agg(r.user_id), '[]') FROM registrations r
      WHERE r.auction_id = v_auction AND r.user_id = ANY (v_users)),
    'cancelled', (SELECT coalesce(json_agg(DISTINCT c.user_id), '[]') FROM bids c
      WHERE c.product_id = p_product AND c.auction_id = v_auction AND c.status = 'rolledback' AND c.user_id = ANY (v_users)),
    'bidIds', (SELECT coalesce(json_agg(nextval('bids_id_seq')), '[]') FROM generate_series(1, p_ids)),
    'ledgerIds', (SELECT coalesce(json_agg(nextval('wallet_transactions_id_seq')), '[]') FROM generate_series(1, 2 * p_ids))
  );
END
$$;
