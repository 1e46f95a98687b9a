// The house profile feature's public surface: the app's router shows its page.
export { HousePage } from './components/HousePage';
