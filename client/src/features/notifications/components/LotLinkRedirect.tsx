import { Navigate, useParams } from 'react-router-dom';
import { browseLotPath } from '../../../config/paths';

/**
 * /auctions/:auctionId/products/:productId, where every notice links (docs/notifications.md). The client
 * has no lot page yet: the bidder lands on Browse Auctions with that auction's products open and the lot
 * brought into view.
 */
export function LotLinkRedirect() {
  const { auctionId = '', productId = '' } = useParams();
  return <Navigate to={browseLotPath(auctionId, productId)} replace />;
}
