import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { EmptyState } from '../components/ui/EmptyState';
import { Icon } from '../components/ui/Icon';
import { PageLoadError } from './portal-loader';
import './page-load.css';

interface BoundaryProps { pathname: string; children: ReactNode }
interface BoundaryState { error: unknown; pathname: string }

/**
 * Catches what a page throws while rendering, chiefly a portal chunk that did not arrive (after a deploy
 * the old index.html asks for a file that is gone: 404), so the tab shows why and a Reload instead of a
 * blank page. The reload fetches the new index.html and its chunks. No automatic reload: a chunk that
 * keeps failing (offline) would reload in a loop. Another page (Back to home) clears the message.
 */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (props.pathname === state.pathname) return null;
    return { pathname: props.pathname, error: null };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Page failed to render', error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return <PageLoadFailed chunk={this.state.error instanceof PageLoadError} />;
  }
}

export function PageLoadBoundary({ children }: { children: ReactNode }) {
  return <Boundary pathname={useLocation().pathname}>{children}</Boundary>;
}

function PageLoadFailed({ chunk }: { chunk: boolean }) {
  return (
    <div className="spinner-page page-load-failed" role="alert">
      <EmptyState icon="alert" title={chunk ? 'This page could not be loaded' : 'Something went wrong on this page'}>
        <p>
          {chunk
            ? 'The app may have been updated since this tab was opened, or the connection dropped. Reload to get the latest version.'
            : 'Reloading the page usually helps.'}
        </p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          <Icon name="refresh" size={16} />
          Reload
        </button>
      </EmptyState>
    </div>
  );
}
