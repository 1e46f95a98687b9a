/** /user/wallet. Its body is built by the wallet issue. */
export function WalletPage() {
  return <div className="page" />;
}
