-- version: 3
-- apply_lot_batch(p): the last round trip of a lot batch (server/src/db/postgres/lot-batch.ts), in the
-- caller's transaction. Writes the batch's change set (each part only when the batch has one), in the
-- order the store's own `apply` writes one: the bids that were there (their final state), the new bids
-- (with the ids lot_context gave), automatic raises, the wallets (by the sum of their moves) and their
-- ledger rows, the lot, its auction's end, then the notices (replacing first, then inserting or
-- skipping by dedupe key; then each user written to keeps p->'kept' notices, those just written last
-- to go, then the final outcomes p->'finals'). A notice replaced in place is a new notice: it waits to
-- be mailed again (mailed_at null). Each wallet's balance must come out as `expect` says, else it
-- raises and nothing is written. Returns the notices written with their users' unread counts.
-- History: 1 in drizzle/postgres/0013_lot_batch.sql; 2 in 0017_notice_replace_remails.sql (a replaced
-- notice is mailed again: mailed_at = NULL); 3 with bids.held (what a lead holds, docs/money.md#all-in-prices).

CREATE OR REPLACE FUNCTION apply_lot_batch(p jsonb) RETURNS json
LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_balance bigint;
  v_user integer;
  v_total bigint;
  v_rows jsonb := '[]';
  v_part jsonb;
  v_ids integer[];
  v_unread jsonb := '{}';
  v_left bigint;
  v_kept integer := (p->>'kept')::integer;
  v_finals text[];
  v_row record;
BEGIN
  -- Row by row, each by its key: a join with the JSON would let the planner scan the whole table.
  IF p ? 'bids' THEN
    FOR v_row IN SELECT * FROM jsonb_to_recordset(p->'bids') AS j(id integer, status text, set_reason boolean, reason text, amount bigint, set_max boolean, max_amount bigint, held bigint, updated_at bigint)
    LOOP
      UPDATE bids b SET
        status = v_row.status,
        reason = CASE WHEN v_row.set_reason THEN v_row.reason ELSE b.reason END,
        amount = coalesce(v_row.amount, b.amount),
        max_amount = CASE WHEN v_row.set_max THEN v_row.max_amount ELSE b.max_amount END,
        held = coalesce(v_row.held, b.held),
        updated_at = v_row.updated_at
      WHERE b.id = v_row.id;
    END LOOP;
  END IF;

  IF p ? 'newBids' THEN
    INSERT INTO bids (id, user_id, product_id, auction_id, amount, placed_amount, max_amount, held, buy_now, status, reason, extended_from, extended_to, created_at, updated_at)
    SELECT x.id, x.user_id, x.product_id, x.auction_id, x.amount, x.placed_amount, x.max_amount, x.held, x.buy_now, x.status, x.reason, x.extended_from, x.extended_to, x.created_at, x.updated_at
    FROM jsonb_to_recordset(p->'newBids') AS x(id integer, user_id integer, product_id text, auction_id text, amount bigint, placed_amount bigint, max_amount bigint, held bigint,
      buy_now boolean, status text, reason text, extended_from bigint, extended_to bigint, created_at bigint, updated_at bigint)
    ORDER BY x.id;
  END IF;

  IF p ? 'autoBids' THEN
    INSERT INTO auto_bids (bid_id, product_id, amount, created_at)
    SELECT x.bid_id, x.product_id, x.amount, x.created_at
    FROM jsonb_to_recordset(p->'autoBids') AS x(bid_id integer, product_id text, amount bigint, created_at bigint, ord integer)
    ORDER BY x.ord;
  END IF;

  -- The batch computed each balance from the locked wallet: anything else is a fault, and nothing is written.
  IF p ? 'wallets' THEN
    FOR v_row IN SELECT * FROM jsonb_to_recordset(p->'wallets') AS j(id integer, delta bigint, expect bigint)
    LOOP
      UPDATE users u SET wallet_balance = u.wallet_balance + v_row.delta WHERE u.id = v_row.id RETURNING u.wallet_balance INTO v_balance;
      IF v_balance IS DISTINCT FROM v_row.expect THEN
        RAISE EXCEPTION 'lot batch: wallet % holds %, the batch computed %', v_row.id, v_balance, v_row.expect;
      END IF;
    END LOOP;
  END IF;

  IF p ? 'ledger' THEN
    INSERT INTO wallet_transactions (id, user_id, type, amount, bid_id, product_id, notes, created_at)
    SELECT x.id, x.user_id, x.type, x.amount, x.bid_id, x.product_id, x.notes, x.created_at
    FROM jsonb_to_recordset(p->'ledger') AS x(id integer, user_id integer, type text, amount bigint, bid_id integer, product_id text, notes text, created_at bigint)
    ORDER BY x.id;
  END IF;

  IF p ? 'product' THEN
    UPDATE products SET
      status = p->'product'->>'status', bid_count = (p->'product'->>'bid_count')::integer, version = (p->'product'->>'version')::integer,
      sold_price = (p->'product'->>'sold_price')::bigint, winner_id = (p->'product'->>'winner_id')::integer, updated_at = (p->'product'->>'updated_at')::bigint
    WHERE id = p->'product'->>'id';
  END IF;

  IF p ? 'auction' THEN
    UPDATE auctions SET valid_until = (p->'auction'->>'valid_until')::bigint, updated_at = (p->'auction'->>'updated_at')::bigint
    WHERE id = p->'auction'->>'id';
  END IF;

  IF p ? 'replace' OR p ? 'skip' THEN
    WITH ins AS (
      INSERT INTO notifications (user_id, kind, title, body, link, dedupe, created_at)
      SELECT x.user_id, x.kind, x.title, x.body, x.link, x.dedupe, x.created_at
      FROM jsonb_to_recordset(p->'replace') AS x(user_id integer, kind text, title text, body text, link text, dedupe text, created_at bigint, ord integer)
      ORDER BY x.ord
      ON CONFLICT (user_id, dedupe) WHERE dedupe IS NOT NULL DO UPDATE SET
        kind = excluded.kind, title = excluded.title, body = excluded.body, link = excluded.link, read_at = NULL, created_at = excluded.created_at, mailed_at = NULL
      RETURNING *
    )
    SELECT coalesce(jsonb_agg(to_jsonb(ins)), '[]') INTO v_part FROM ins;
    v_rows := v_rows || v_part;
    WITH ins AS (
      INSERT INTO notifications (user_id, kind, title, body, link, dedupe, created_at)
      SELECT x.user_id, x.kind, x.title, x.body, x.link, x.dedupe, x.created_at
      FROM jsonb_to_recordset(p->'skip') AS x(user_id integer, kind text, title text, body text, link text, dedupe text, created_at bigint, ord integer)
      ORDER BY x.ord
      ON CONFLICT DO NOTHING
      RETURNING *
    )
    SELECT coalesce(jsonb_agg(to_jsonb(ins)), '[]') INTO v_part FROM ins;
    v_rows := v_rows || v_part;

    v_finals := ARRAY(SELECT jsonb_array_elements_text(p->'finals'));
    v_ids := ARRAY(SELECT (e->>'id')::integer FROM jsonb_array_elements(v_rows) e);
    FOR v_user IN SELECT DISTINCT (e->>'user_id')::integer AS id FROM jsonb_array_elements(v_rows) e ORDER BY 1
    LOOP
      -- Two counts from indexes alone (notifications_user_idx and the partial notifications_unread_idx).
      v_total := (SELECT count(*) FROM notifications n WHERE n.user_id = v_user);
      v_left := (SELECT count(*) FROM notifications n WHERE n.user_id = v_user AND n.read_at IS NULL);
      IF v_total > v_kept THEN
        WITH gone AS (
          DELETE FROM notifications WHERE id IN (
            SELECT n.id FROM notifications n WHERE n.user_id = v_user
            ORDER BY CASE WHEN n.id = ANY (v_ids) THEN 2 WHEN n.kind = ANY (v_finals) THEN 1 ELSE 0 END, n.id
            LIMIT v_total - v_kept)
          RETURNING read_at
        )
        SELECT v_left - count(*) FILTER (WHERE gone.read_at IS NULL) INTO v_left FROM gone;
      END IF;
      v_unread := v_unread || jsonb_build_object(v_user::text, v_left);
    END LOOP;
  END IF;

  RETURN json_build_object('notices', v_rows, 'unread', v_unread);
END
$$;
