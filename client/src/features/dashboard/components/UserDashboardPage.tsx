import { useSession } from '../../auth';

/** /user/dashboard. Stats, recent auctions and transactions arrive with the dashboard issue. */
export function UserDashboardPage() {
  const name = useSession((s) => s.user?.name);
  return (
    <div className="page">
      <section className="welcome">
        <h2 className="welcome-title">Welcome, {name}</h2>
      </section>
    </div>
  );
}
