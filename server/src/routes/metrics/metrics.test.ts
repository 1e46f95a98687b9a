/**
 * `GET /metrics` (docs/deploy.md#monitoring) on both stores: who may read it, and that each series
 * DESIGN lists moves with what it counts — bids by result and code, the request histogram by route,
 * live sockets and frames per transport, the clock keeper, the mail outbox and its failures, the
 * PostgreSQL pool and Redis' relay lag where they exist. A cluster's merge is e2e/cluster.test.ts's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import type { MailTransport } from '../../mail/transport.js';
import { MailSendError } from '../../mail/transport.js';
import { bid, call, createAuction, expectError, makeApp, makeClock, richBidder, signUpAdmin, uniqueName } from '../../test/helpers.js';
import { connect, connectWs, eventually, listen } from '../../test/live-helpers.js';
import { redisAvailable, TEST_REDIS_URL } from '../../db/testing.js';

const TOKEN = 'metrics-token-0123456789';
let app: App;
afterEach(async () => { await app?.close(); });

/** The samples of a text exposition, by `name{labels}` exactly as written (labels in the order given). */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

async function scrape(headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return samples(res.body);
}
const metric = async (key: string) => (await scrape()).get(key);

describe('who may read /metrics', () => {
  it('answers a caller on this machine, and refuses one relayed by a proxy or from elsewhere with the error shape', async () => {
    app = await makeApp();
    await scrape();
    expectError(await app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } }), 403, 'FORBIDDEN');
    const far = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expectError(far, 403, 'FORBIDDEN');
    expect(far.json<{ message: string }>().message).toMatch(/METRICS_TOKEN/);
    // Not an API route nor a page: never the client's index.html.
    expect(far.headers['content-type']).toMatch(/json/);
  });

  it('answers a bearer of METRICS_TOKEN from anywhere; a wrong token is refused', async () => {
    app = await makeApp({ metricsToken: TOKEN });
    const from = { remoteAddress: '203.0.113.9' };
    const ok = await app.inject({ method: 'GET', url: '/metrics', ...from, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('process_resident_memory_bytes');
    expectError(await app.inject({ method: 'GET', url: '/metrics', ...from, headers: { authorization: `Bearer ${TOKEN}x` } }), 403, 'FORBIDDEN');
    expectError(await app.inject({ method: 'GET', url: '/metrics', ...from, headers: { authorization: TOKEN } }), 403, 'FORBIDDEN');
  });
});

describe('the series', () => {
  it('has every series an operator alerts on, with the process\'s own (memory, event-loop lag)', async () => {
    app = await makeApp();
    const body = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    for (const name of [
      'http_request_duration_seconds', 'auction_bids_total', 'auction_bid_command_duration_seconds', 'auction_live_sockets',
      'auction_live_frames_sent_total', 'auction_live_frame_bytes_sent_total', 'auction_live_slow_drops_total',
      'auction_pg_pool_waiting', 'auction_relay_lag_seconds', 'auction_scheduler_leader', 'auction_mail_outbox_backlog',
      'auction_mail_outbox_oldest_seconds', 'auction_mail_sends_total', 'nodejs_eventloop_lag_p99_seconds', 'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes', 'auction_metrics_processes',
    ]) expect(body, name).toContain(`# TYPE ${name} `);
    expect(samples(body).get('auction_metrics_processes')).toBe(1);
  });

  it('counts bids accepted and refused by code, times the bid command, and files requests under their route and status', async () => {
    const clock = makeClock();
    app = await makeApp({}, { now: clock.now });
    const admin = await signUpAdmin(app);
    const { auctionId, productIds } = await createAuction(app, admin.token, { now: clock.t });
    const alice = await richBidder(app, 10_000, [auctionId]);
    const bob = await richBidder(app, 10_000, [auctionId]);
    const stranger = await richBidder(app, 10_000);
    expect((await bid(app, alice.token, productIds[0]!, 100)).statusCode).toBe(201);
    expect((await bid(app, bob.token, productIds[0]!, 200)).statusCode).toBe(201);
    // Not above the highest bid, and not registered for the auction: two refusals with their codes.
    const low = await bid(app, alice.token, productIds[0]!, 150);
    const unregistered = await bid(app, stranger.token, productIds[0]!, 5_000);
    const lowCode = low.json<{ code: string }>().code;
    const strangerCode = unregistered.json<{ code: string }>().code;
    expect(low.statusCode).toBeGreaterThanOrEqual(400);
    expect(unregistered.statusCode).toBeGreaterThanOrEqual(400);
    // No token at all: refused before the handler, counted all the same.
    expect((await call(app, 'POST', '/api/bid', { product_id: productIds[0], bid_amount: 300 })).statusCode).toBe(401);

    const m = await scrape();
    expect(m.get('auction_bids_total{result="accepted",code=""}')).toBe(2);
    expect(m.get(`auction_bids_total{result="refused",code="${lowCode}"}`)).toBe(lowCode === strangerCode ? 2 : 1);
    expect(m.get(`auction_bids_total{result="refused",code="${strangerCode}"}`)).toBeGreaterThanOrEqual(1);
    expect(m.get('auction_bids_total{result="refused",code="UNAUTHENTICATED"}')).toBe(1);
    // The command ran for the four that reached it (the unauthenticated one never did).
    expect(m.get('auction_bid_command_duration_seconds_count')).toBe(4);
    expect(m.get('http_request_duration_seconds_count{method="POST",route="/api/bid",status="201"}')).toBe(2);
    expect(m.get('http_request_duration_seconds_count{method="POST",route="/api/bid",status="401"}')).toBe(1);
    // A path with no route is one series, whatever the path.
    await call(app, 'GET', `/api/${uniqueName('nothing')}`);
    await call(app, 'GET', `/api/${uniqueName('nothing')}`);
    expect(await metric('http_request_duration_seconds_count{method="GET",route="<unmatched>",status="404"}')).toBe(2);
    // A route's pattern, not its URL.
    await call(app, 'GET', `/api/auctions/${auctionId}`);
    expect([...(await scrape()).keys()].some((k) => k.includes(auctionId))).toBe(false);
  });

  it('counts live sockets per transport and the frames and bytes written to them', async () => {
    const clock = makeClock();
    app = await makeApp({}, { now: clock.now });
    const base = await listen(app);
    const admin = await signUpAdmin(app);
    const { auctionId, productIds } = await createAuction(app, admin.token, { now: clock.t });
    const alice = await richBidder(app, 10_000, [auctionId]);
    const sio = await connect(base, alice.token);
    const ws = await connectWs(base, alice.token);
    try {
      await sio.watch(auctionId);
      ws.send({ type: 'watch', auction_id: auctionId });
      await eventually(async () => {
        const m = await scrape();
        expect(m.get('auction_live_sockets{transport="socketio"}')).toBe(1);
        expect(m.get('auction_live_sockets{transport="websocket"}')).toBe(1);
      });
      const before = await scrape();
      expect((await bid(app, alice.token, productIds[0]!, 100)).statusCode).toBe(201);
      await eventually(() => expect(sio.roomEvents('bid:placed')).toHaveLength(1));
      await eventually(() => expect(ws.frames().flatMap((f) => f.events).some((e) => e.event === 'bid:placed')).toBe(true));
      const after = await scrape();
      for (const transport of ['socketio', 'websocket']) {
        const frames = after.get(`auction_live_frames_sent_total{transport="${transport}"}`)! - (before.get(`auction_live_frames_sent_total{transport="${transport}"}`) ?? 0);
        const bytes = after.get(`auction_live_frame_bytes_sent_total{transport="${transport}"}`)! - (before.get(`auction_live_frame_bytes_sent_total{transport="${transport}"}`) ?? 0);
        expect(frames, transport).toBeGreaterThanOrEqual(1);
        expect(bytes, transport).toBeGreaterThan(frames * 50);
      }
      expect(after.get('auction_live_slow_drops_total{transport="socketio"}')).toBe(0);
    } finally {
      sio.close();
      ws.close();
    }
    await eventually(async () => expect(await metric('auction_live_sockets{transport="websocket"}')).toBe(0));
  });

  it('shows the clock keeper, the outbox backlog with its oldest mail, and failed sends', async () => {
    const clock = makeClock();
    let attempts = 0;
    const refusing: MailTransport = {
      kind: 'smtp',
      send: async () => {
        attempts++;
        throw new MailSendError('451 try again later', false);
      },
      close: () => undefined,
    };
    app = await makeApp({}, { now: clock.now, mail: { transport: refusing, pollMs: 20, retryDelaysMs: [3_600_000] } });
    await app.ready();
    await eventually(async () => expect(await metric('auction_scheduler_leader')).toBe(1));
    expect(await metric('auction_mail_outbox_backlog')).toBe(0);
    expect(await metric('auction_mail_outbox_oldest_seconds')).toBe(0);
    const reg = await call(app, 'POST', '/api/register', { name: 'Mailed', username: uniqueName('m'), password: 'secret1', mobile_number: '9876543210', role: 'user', email: `${uniqueName('m').toLowerCase()}@example.com` });
    expect(reg.statusCode, reg.body).toBe(201);
    await eventually(() => expect(attempts).toBe(1));
    clock.advance(90_000);
    await eventually(async () => {
      const m = await scrape();
      expect(m.get('auction_mail_sends_total{result="retry"}')).toBe(1);
      expect(m.get('auction_mail_sends_total{result="sent"}')).toBe(0);
      expect(m.get('auction_mail_outbox_backlog')).toBe(1);
      expect(m.get('auction_mail_outbox_oldest_seconds')).toBe(90);
    });
  });

  it('shows the PostgreSQL pool on PostgreSQL, and nothing of it on SQLite', async () => {
    app = await makeApp();
    const m = await scrape();
    if (app.ctx.store.kind === 'postgres') {
      expect(m.get('auction_pg_pool_waiting')).toBe(0);
      expect(m.get('auction_pg_pool_connections{state="in_use"}')! + m.get('auction_pg_pool_connections{state="free"}')!).toBe(app.ctx.config.pgPool);
    } else {
      expect(m.get('auction_pg_pool_waiting')).toBe(0);
      expect(m.has('auction_pg_pool_connections{state="free"}')).toBe(false);
    }
  });

  it.runIf(redisAvailable)('times each live message\'s way through Redis (the relay lag)', async () => {
    const clock = makeClock();
    app = await makeApp({ redisUrl: TEST_REDIS_URL, liveFrameMs: 10 }, { now: clock.now });
    const admin = await signUpAdmin(app);
    const { auctionId, productIds } = await createAuction(app, admin.token, { now: clock.t });
    const alice = await richBidder(app, 10_000, [auctionId]);
    const before = (await metric('auction_relay_lag_seconds_count'))!;
    for (const amount of [100, 200, 300]) expect((await bid(app, alice.token, productIds[0]!, amount)).statusCode).toBe(201);
    await eventually(async () => {
      const m = await scrape();
      expect(m.get('auction_relay_lag_seconds_count')! - before).toBeGreaterThanOrEqual(3);
      // Every message came back within the largest bucket on a machine at rest.
      expect(m.get('auction_relay_lag_seconds_bucket{le="1"}')).toBe(m.get('auction_relay_lag_seconds_count'));
    });
  });
});
