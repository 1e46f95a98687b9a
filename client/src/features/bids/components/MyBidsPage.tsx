/** /user/bids. Its body is built by the my bids issue. */
export function MyBidsPage() {
  return <div className="page" />;
}
