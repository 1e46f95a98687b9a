import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonResponse, routeFetch } from '../../test/utils';
import { DemoHint } from './DemoHint';

afterEach(() => cleanup());

describe('DemoHint', () => {
  it('names the demo accounts and their password when the server is the demo’s', async () => {
    routeFetch({ 'GET /api/demo': [jsonResponse(200, { demo: { admin: 'demo_admin', bidders: ['asha', 'ravi'], password: 'demo1234' } })] });
    render(<DemoHint />);
    const hint = await screen.findByTestId('demo-hint');
    expect(hint.textContent).toContain('asha, ravi');
    expect(hint.textContent).toContain('demo_admin');
    expect(hint.textContent).toContain('Password for all: demo1234');
  });

  it('shows nothing on a server that is not a demo, or when the read fails', async () => {
    const api = routeFetch({ 'GET /api/demo': [jsonResponse(200, { demo: null })] });
    render(<DemoHint />);
    await waitFor(() => expect(api.calls('GET /api/demo')).toHaveLength(1));
    expect(screen.queryByTestId('demo-hint')).toBeNull();
    cleanup();
    routeFetch({});
    render(<DemoHint portal="admin" />);
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('demo-hint')).toBeNull();
  });
});
