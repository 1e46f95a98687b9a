// The wallet feature's public surface, for the app shell: the wallet page. The balance, the ledger and
// their rules are shared infrastructure in lib/account (the dashboard and the bid flow use them too).
export { WalletPage } from './components/WalletPage';
