// The bids feature's public surface, for the app shell: the My Bids page. The caller's bids and their
// rules are shared infrastructure in lib/account (the dashboard and the notices read them too).
export { MyBidsPage } from './components/MyBidsPage';
