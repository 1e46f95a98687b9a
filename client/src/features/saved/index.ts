// The saved feature's public surface: the star (the app hands it to the lot rows and the lot page), the Saved page, and the list query.
export { SaveStar, saveStarLabel } from './components/SaveStar';
export { SavedPage } from './components/SavedPage';
export { savedLots, setSaved, toggleSaved, useSavedLots } from './store/saved-store';
export type { SaveableLot } from './store/saved-store';
