/** /admin/products. Its body is built by the manage products issue. */
export function ManageProductsPage() {
  return <div className="page" />;
}
