import { useEffect } from 'react';
import { holdClock } from '../../../lib/live/clock-store';
import { useLive } from '../../../lib/live/live-store';

/** Keeps the tab's live connection open with the given token, and the shared clock ticking. */
export function LiveConnection({ token }: { token: string | null }) {
  const connect = useLive((s) => s.connect);
  const disconnect = useLive((s) => s.disconnect);
  useEffect(() => {
    if (!token) return;
    connect(token);
    return () => disconnect();
  }, [token, connect, disconnect]);
  useEffect(() => holdClock(), []);
  return null;
}

/** A small indicator, shown only while live updates are down. */
export function LiveIndicator() {
  const status = useLive((s) => s.status);
  if (status !== 'down') return null;
  return (
    <span className="live-indicator" role="status" title="Live updates are reconnecting">
      <span className="live-dot" aria-hidden="true" /> Reconnecting…
    </span>
  );
}

/**
 * Shown once a tab learns (`live:hello`) that the server speaks another live protocol than this build:
 * a new version of the app is out. Reload gets it; Dismiss hides the notice for this tab.
 */
export function NewVersionNotice() {
  const outdated = useLive((s) => s.outdated);
  const dismiss = useLive((s) => s.dismissOutdated);
  if (outdated !== 'yes') return null;
  return (
    <div className="new-version" role="alert">
      <span>A new version of the app is available. Reload to keep live updates working.</span>
      <button type="button" className="btn btn-primary btn-sm" onClick={() => window.location.reload()}>Reload</button>
      <button type="button" className="btn btn-outline btn-sm" onClick={dismiss}>Dismiss</button>
    </div>
  );
}
