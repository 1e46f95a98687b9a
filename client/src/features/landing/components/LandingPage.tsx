import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { BrandMark } from '../../../components/ui/BrandMark';
import { Icon } from '../../../components/ui/Icon';
import type { IconName } from '../../../components/ui/Icon';
import './landing.css';
import { DemoHint } from '../../../components/demo/DemoHint';

// The tagline and the three features: fixed product texts, kept word for word.
const TAGLINE = 'Professional auction platform for seamless bidding and comprehensive administrative control.';

const FEATURES: { icon: IconName; title: string; text: string }[] = [
  { icon: 'bolt', title: 'Real-time bidding', text: 'Highest bids and countdowns update live while an auction runs.' },
  { icon: 'shield', title: 'Secure transactions', text: 'Bids are paid from a prepaid wallet, and every movement is recorded.' },
  { icon: 'users', title: 'User management with role-based access', text: 'Separate portals for bidders and administrators.' },
];

export function LandingPage() {
  return (
    <div className="landing">
      <header className="landing-header">
        <div className="container landing-header-inner">
          <BrandMark inverted />
          <nav className="landing-header-nav" aria-label="Sign in">
            <Link to={paths.user.login} className="btn btn-ghost-light btn-sm">User Login</Link>
            <Link to={paths.admin.login} className="btn btn-ghost-light btn-sm">Admin Login</Link>
          </nav>
        </div>
      </header>

      <main>
        <section className="hero">
          <div className="container hero-inner">
            <p className="hero-eyebrow">Live auctions · Wallet-based bidding</p>
            <h1 className="hero-title">Bid live. Manage with confidence.</h1>
            <p className="hero-tagline">{TAGLINE}</p>
            <div className="hero-actions">
              <Link to={paths.user.register} className="btn btn-accent btn-lg">
                Register as User <Icon name="arrow-right" size={18} />
              </Link>
              <Link to={paths.user.login} className="btn btn-outline-light btn-lg">Login as User</Link>
            </div>
            <DemoHint />
          </div>
        </section>

        <section className="container features" aria-labelledby="features-title">
          <h2 id="features-title" className="visually-hidden">Features</h2>
          <ul className="feature-list">
            {FEATURES.map((f) => (
              <li key={f.title} className="feature">
                <span className="feature-icon"><Icon name={f.icon} size={22} /></span>
                <div>
                  <h3 className="feature-title">{f.title}</h3>
                  <p className="feature-text">{f.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <section className="container portals" aria-labelledby="portals-title">
          <h2 id="portals-title" className="section-title">Choose your portal</h2>
          <div className="portal-grid">
            <article className="portal-card portal-card-user" aria-labelledby="user-portal-title">
              <span className="portal-card-icon"><Icon name="user" size={26} /></span>
              <h3 id="user-portal-title">User Portal</h3>
              <p>Browse auctions, register for the ones you like, bid from your wallet and follow your bids.</p>
              <div className="portal-card-actions">
                <Link to={paths.user.login} className="btn btn-primary btn-block">Login as User</Link>
                <Link to={paths.user.register} className="btn btn-outline btn-block">Register as User</Link>
              </div>
            </article>
            <article className="portal-card portal-card-admin" aria-labelledby="admin-portal-title">
              <span className="portal-card-icon"><Icon name="shield" size={26} /></span>
              <h3 id="admin-portal-title">Admin Portal</h3>
              <p>Create and settle auctions, manage products, monitor bids and view reports.</p>
              <div className="portal-card-actions">
                <Link to={paths.admin.login} className="btn btn-dark btn-block">Login as Admin</Link>
                <Link to={paths.admin.register} className="btn btn-outline btn-block">Register as Admin</Link>
              </div>
            </article>
          </div>
        </section>
      </main>

      <footer className="landing-footer">
        <div className="container">© {new Date().getFullYear()} Auction Platform</div>
      </footer>
    </div>
  );
}
