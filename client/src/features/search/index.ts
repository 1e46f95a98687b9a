// The search feature's public surface: the Search page (routed in the app) and the header's search box (placed by the shell).
export { SearchPage } from './components/SearchPage';
export { HeaderSearch } from './components/HeaderSearch';
