/** The bidder's wallet: balance, top-up, history. */
import { TOPUP_MESSAGE, ToppedUp, TopUpBody, Transactions, WalletBalance, WalletBody, errorResponses, formatRupees, toRupees } from '@auction/shared';
import type { App, AppContext } from '../context.js';
import { topUp } from '../domain/wallet.js';
import { presentTransaction } from '../presenters/bids.js';
import { transactions, walletBalance } from '../queries/wallet.js';
import { assertNamesCaller, callerOf, paise } from './input.js';

export function walletRoutes(app: App, ctx: AppContext) {
  const { db, guard, events } = ctx;
  const tags = ['wallet'];
  const security = [{ bearer: [] }];

  app.post('/wallet', {
    onRequest: guard.user,
    schema: { tags, security, summary: 'The caller’s balance (a `username` in the body must be the caller’s)', body: WalletBody, response: { 200: WalletBalance, ...errorResponses(400, 401, 403) } },
  }, async (req) => {
    const me = callerOf(req);
    assertNamesCaller(me, req.body?.username, req.body?.user_id);
    return { wallet_balance: toRupees(walletBalance(db, me.id)) };
  });

  app.post('/wallet/topup', {
    onRequest: guard.user,
    schema: { tags, security, summary: 'Add ₹10–₹1,00,000 to the wallet', body: TopUpBody, response: { 200: ToppedUp, ...errorResponses(400, 401, 403) } },
  }, async (req) => {
    const amount = paise(req.body.amount, 'amount', TOPUP_MESSAGE);
    const r = topUp({ db, userId: callerOf(req).id, amount, now: ctx.now() });
    events.publish(r.events);
    return { message: `Added ${formatRupees(toRupees(amount))} to your wallet`, wallet_balance: toRupees(r.balance), transaction: presentTransaction(r.transaction) };
  });

  app.get('/wallet/transactions', {
    onRequest: guard.user,
    schema: { tags, security, summary: 'The caller’s ledger, newest first', response: { 200: Transactions, ...errorResponses(401, 403) } },
  }, async (req) => ({ transactions: transactions(db, callerOf(req).id).map(presentTransaction) }));
}
