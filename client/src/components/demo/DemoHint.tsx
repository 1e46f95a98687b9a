/**
 * How to sign in to `npm run demo`: shown on the landing and sign-in pages only when the server says it
 * is the demo's (`GET /api/demo`); anything else (a real server, a failed read) shows nothing.
 */
import { useEffect, useState } from 'react';
import type { DemoBody } from '@auction/shared';
import { api } from '../../lib/api-client';
import { Icon } from '../ui/Icon';

type DemoAccounts = NonNullable<DemoBody['demo']>;

function useDemoAccounts(): DemoAccounts | null {
  const [demo, setDemo] = useState<DemoAccounts | null>(null);
  useEffect(() => {
    const ask = new AbortController();
    api.get<DemoBody>('/demo', { as: 'none', signal: ask.signal }).then(
      (body) => setDemo(body && typeof body === 'object' && body.demo ? body.demo : null),
      () => undefined,
    );
    return () => ask.abort();
  }, []);
  return demo;
}

/** `portal`: which accounts to name first (the admin's on the admin sign-in page). */
export function DemoHint({ portal = 'user' }: { portal?: 'user' | 'admin' }) {
  const demo = useDemoAccounts();
  if (!demo) return null;
  const bidders = demo.bidders.join(', ');
  return (
    <aside className="demo-hint" aria-label="Demo accounts" data-testid="demo-hint">
      <Icon name="info" size={18} />
      <div>
        <strong>This is a demo.</strong>{' '}
        {portal === 'admin'
          ? <>Sign in as <code>{demo.admin}</code>, or as a bidder on the user login: <code>{bidders}</code>.</>
          : <>Sign in as a bidder: <code>{bidders}</code> (funded and registered), or as admin <code>{demo.admin}</code> on the admin login.</>}
        {' '}Password for all: <code>{demo.password}</code>
      </div>
    </aside>
  );
}
