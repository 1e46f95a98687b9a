/** /user/auctions (accepts ?registered=1). Its body is built by the browse auctions issue. */
export function BrowseAuctionsPage() {
  return <div className="page" />;
}
