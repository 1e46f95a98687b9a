/** The bidder's wallet: balance, top-up, history. */
import { TOPUP_MESSAGE, TRANSACTIONS_PAGE_DEFAULT, ToppedUp, TopUpBody, Transactions, TransactionsQuery, WalletBalance, WalletBody, errorResponses, formatRupees, toRupees, WHOLE_LIST_MAX } from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import { topUp } from '../../domain/bidding.js';
import { unwrap } from '../../errors.js';
import { presentTransaction } from '../../presenters/bids.js';
import { assertNamesCaller, beforeId, callerOf, pageLimit, paise } from '../input.js';

export function walletRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['wallet'];
  const security = [{ bearer: [] }];

  app.post('/wallet', {
    onRequest: guard.user,
    schema: { tags, security, summary: 'The caller’s balance and what their leading bids hold (a `username` in the body must be the caller’s)', body: WalletBody, response: { 200: WalletBalance, ...errorResponses(400, 401, 403) } },
  }, async (req) => {
    const me = callerOf(req);
    assertNamesCaller(me, req.body?.username, req.body?.user_id);
    const w = await reads.wallet(me.id);
    return { wallet_balance: toRupees(w.balance), on_hold: toRupees(w.onHold) };
  });

  app.post('/wallet/topup', {
    onRequest: guard.user,
    config: ctx.userLimit('topup'),
    schema: { tags, security, summary: 'Add ₹10–₹1,00,000 to the wallet', body: TopUpBody, response: { 200: ToppedUp, ...errorResponses(400, 401, 403, 429) } },
  }, async (req) => {
    const amount = paise(req.body.amount, 'amount', TOPUP_MESSAGE);
    const userId = callerOf(req).id;
    const r = unwrap(await commands.run((tx) => topUp(tx, { userId, amount }, ctx.now())));
    return { message: `Added ${formatRupees(toRupees(amount))} to your wallet`, wallet_balance: toRupees(r.balance), transaction: presentTransaction(r.transaction) };
  });

  app.get('/wallet/transactions', {
    onRequest: guard.user,
    schema: {
      tags, security,
      summary: 'The caller’s ledger, newest first, with the whole ledger’s totals',
      description: `Without \`limit\` and \`before\`, the whole ledger (the newest ${WHOLE_LIST_MAX} rows at most, then \`next_before\`), as the spec’s clients expect; with either, a page (\`before\`: older than this id, the \`next_before\` of the page before; \`limit\`: 1–100, default ${TRANSACTIONS_PAGE_DEFAULT}).`,
      querystring: TransactionsQuery,
      response: { 200: Transactions, ...errorResponses(400, 401, 403) },
    },
  }, async (req) => {
    const me = callerOf(req).id;
    const whole = req.query.limit === undefined && req.query.before === undefined;
    const limit = whole ? WHOLE_LIST_MAX : pageLimit(req.query.limit, TRANSACTIONS_PAGE_DEFAULT);
    const [rows, totals] = await Promise.all([reads.transactions(me, { before: beforeId(req.query.before), limit: limit + 1 }), reads.ledgerTotals(me)]);
    const page = rows.slice(0, limit);
    return {
      transactions: page.map(presentTransaction),
      next_before: rows.length > limit ? String(page.at(-1)!.id) : null,
      totals: { topup: toRupees(totals.topup), bid: toRupees(totals.bid), refund: toRupees(totals.refund), count: totals.count, spent: toRupees(totals.spent) },
    };
  });
}
