// The admin products feature's public surface: the admin dashboard reuses the product form.
export { ManageProductsPage } from './components/ManageProductsPage';
export { ProductFormModal } from './components/ProductFormModal';
// The admin's unassigned products and an auction's products as resources (the auction form reads them too).
export { auctionProducts as adminAuctionProducts, productsChanged, unassignedProducts } from './api/products-api';
