// The saved feature's public surface: the star every lot shows, the Saved page, and the list resource.
export { SaveStar, saveStarLabel } from './components/SaveStar';
export { SavedPage } from './components/SavedPage';
export { savedLots, setSaved, toggleSaved, useSavedLots } from './store/saved-store';
export type { SaveableLot } from './store/saved-store';
