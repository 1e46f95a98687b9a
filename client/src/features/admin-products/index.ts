// The admin products feature's public surface: the app's dashboard route takes its product form.
export { ManageProductsPage } from './components/ManageProductsPage';
export { ProductFormModal } from './components/ProductFormModal';
