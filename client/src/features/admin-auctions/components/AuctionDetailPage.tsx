/** /admin/auctions/:auctionId (empty sidebar). Its body is built by the auction detail issue. */
export function AuctionDetailPage() {
  return <div className="page" />;
}
