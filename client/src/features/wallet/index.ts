// The wallet feature's public surface: the dashboard reuses the store and the numbers from here.
export { walletBalance, walletLedger, walletBalanceOf, setWalletBalance, useWalletView, useTopUp, loadMoreTransactions } from './store/wallet-store';
export type { WalletView, WalletFigures, TopUpState, ActionResult } from './store/wallet-store';
export {
  walletStats, balanceFromLedger, totalsOf, describeTransaction, transactionDescription, transactionTypeLabel, transactionBadge, ledgerKind, ledgerWords, signedAmount, signedAmountText, isCredit,
  validateTopUp,
} from '../../lib/account/wallet-model';
export type { Ledger, TransactionText, WalletStats } from '../../lib/account/wallet-model';
export { WalletPage } from './components/WalletPage';
