import { useSession } from '../../auth';

/** /admin/dashboard. Stat and action cards arrive with the admin dashboard issue. */
export function AdminDashboardPage() {
  const name = useSession((s) => s.admin?.name);
  return (
    <div className="page">
      <section className="welcome">
        <h2 className="welcome-title">Welcome, {name || 'Admin'}</h2>
      </section>
    </div>
  );
}
