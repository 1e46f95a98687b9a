// The admin products feature's public surface: the admin dashboard reuses the product form.
export { ManageProductsPage } from './components/ManageProductsPage';
export { ProductFormModal } from './components/ProductFormModal';
