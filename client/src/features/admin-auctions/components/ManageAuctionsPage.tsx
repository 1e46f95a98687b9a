/** /admin/auctions. Its body is built by the manage auctions issue. */
export function ManageAuctionsPage() {
  return <div className="page" />;
}
