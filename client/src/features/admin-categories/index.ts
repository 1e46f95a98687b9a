// The admin categories feature's public surface: the app's router shows its page.
export { CategoriesPage } from './components/CategoriesPage';
