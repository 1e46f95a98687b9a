import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults (README, Configuration)', () => {
    expect(loadConfig({})).toEqual({
      port: 3000, host: '0.0.0.0', databaseUrl: './data/auction.db', jwtSecret: undefined, tokenTtl: '12h',
      adminSignup: 'open', autoSettle: true, corsOrigin: undefined, timeZone: 'Asia/Kolkata', logLevel: 'info',
      logFormat: 'json', rateLimit: true, liveFrameMs: 30, trustProxy: false, pgPool: 10, pgStatementTimeoutMs: 5000, redisUrl: undefined, drainMs: 0,
      softCloseS: 120, maxExtensionS: 3600, premiumGstPct: 18, premiumSac: '996111', platformCommissionPct: 0, mediaMaxMb: 8, mediaConcurrency: 1, mediaQueue: 4,
      requestTimeoutS: 20, minBodyRateKbS: 16, keepAliveTimeoutS: 10, maxConnectionsPerIp: 4096, capLoopback: false, maxConnections: null,
      passwordHashCost: 14, publicUrl: 'http://localhost:3000', smtpUrl: undefined, mailFrom: 'Live Auctions <no-reply@localhost>',
      metricsToken: undefined,
    });
  });

  it('reads METRICS_TOKEN, and refuses one too short to be a secret', () => {
    expect(loadConfig({ METRICS_TOKEN: ' 0123456789abcdef ' }).metricsToken).toBe('0123456789abcdef');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
  });

  it('reads the mail settings, and links follow PORT when PUBLIC_URL is unset', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    const c = loadConfig({ PUBLIC_URL: 'https://auctions.example.com/', SMTP_URL: 'smtp://u:p%40ss@mail.example.com:587', MAIL_FROM: 'Auctions <auctions@example.com>' });
    expect(c).toMatchObject({ publicUrl: 'https://auctions.example.com', smtpUrl: 'smtp://u:p%40ss@mail.example.com:587', mailFrom: 'Auctions <auctions@example.com>' });
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/auctions' }).publicUrl).toBe('https://example.com/auctions');
  });

  it('never echoes an SMTP password in its message', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail.example.com' })).not.toThrow(/hunter2/);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080', HOST: '127.0.0.1', DATABASE_URL: ':memory:', JWT_SECRET: 'x'.repeat(32), TOKEN_TTL: '30m',
      ADMIN_SIGNUP: 'closed', AUTO_SETTLE: 'false', CORS_ORIGIN: 'https://a.example', TIMEZONE: 'UTC', LOG_LEVEL: 'warn',
      LOG_FORMAT: 'pretty', RATE_LIMIT: 'off', LIVE_FRAME_MS: '0', TRUST_PROXY: 'true', PG_POOL: '25',
      REDIS_URL: 'redis://cache.internal:6379', DRAIN_MS: '5000', SOFT_CLOSE_S: '60', MAX_EXTENSION_S: '600',
      MEDIA_MAX_MB: '2', MEDIA_CONCURRENCY: '3', MEDIA_QUEUE: '0',
      REQUEST_TIMEOUT_S: '5', MIN_BODY_RATE_KB_S: '64', KEEP_ALIVE_TIMEOUT_S: '75', MAX_CONNECTIONS_PER_IP: '0', MAX_CONNECTIONS: '5000',
      MAX_CONNECTIONS_PER_IP_LOOPBACK: 'on', PASSWORD_HASH_COST: '16',
    });
    expect(c.passwordHashCost).toBe(16);
    expect(c).toMatchObject({ softCloseS: 60, maxExtensionS: 600, mediaMaxMb: 2, mediaConcurrency: 3, mediaQueue: 0 });
    expect(c).toMatchObject({ requestTimeoutS: 5, minBodyRateKbS: 64, keepAliveTimeoutS: 75, maxConnectionsPerIp: 0, capLoopback: true, maxConnections: 5000 });
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: ':memory:', tokenTtl: '30m', adminSignup: 'closed', autoSettle: false, corsOrigin: 'https://a.example', timeZone: 'UTC', logLevel: 'warn', logFormat: 'pretty', rateLimit: false, liveFrameMs: 0, trustProxy: true, pgPool: 25, redisUrl: 'redis://cache.internal:6379', drainMs: 5000 });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ SOFT_CLOSE_S: '3601' }, /SOFT_CLOSE_S/],
    [{ MAX_EXTENSION_S: '-1' }, /MAX_EXTENSION_S/],
    [{ MEDIA_MAX_MB: '0' }, /MEDIA_MAX_MB/],
    [{ MEDIA_MAX_MB: '1.5' }, /MEDIA_MAX_MB/],
    [{ MEDIA_MAX_MB: '65' }, /MEDIA_MAX_MB/],
    [{ MEDIA_CONCURRENCY: '0' }, /MEDIA_CONCURRENCY/],
    [{ MEDIA_QUEUE: '-1' }, /MEDIA_QUEUE/],
    [{ REQUEST_TIMEOUT_S: '0' }, /REQUEST_TIMEOUT_S/],
    [{ MIN_BODY_RATE_KB_S: '0' }, /MIN_BODY_RATE_KB_S/],
    [{ KEEP_ALIVE_TIMEOUT_S: '0' }, /KEEP_ALIVE_TIMEOUT_S/],
    [{ MAX_CONNECTIONS_PER_IP: '-1' }, /MAX_CONNECTIONS_PER_IP/],
    [{ MAX_CONNECTIONS_PER_IP_LOOPBACK: 'maybe' }, /MAX_CONNECTIONS_PER_IP_LOOPBACK/],
    [{ MAX_CONNECTIONS: '0' }, /MAX_CONNECTIONS/],
    [{ TOKEN_TTL: 'forever' }, /TOKEN_TTL/],
    [{ ADMIN_SIGNUP: 'maybe' }, /ADMIN_SIGNUP/],
    [{ TIMEZONE: 'Mars/Olympus' }, /TIMEZONE/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET/],
    [{ RATE_LIMIT: 'sometimes' }, /RATE_LIMIT/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
    [{ DRAIN_MS: '-1' }, /DRAIN_MS/],
    [{ LIVE_FRAME_MS: '-5' }, /LIVE_FRAME_MS/],
    [{ PG_POOL: '0' }, /PG_POOL/],
    [{ PASSWORD_HASH_COST: '9' }, /PASSWORD_HASH_COST/],
    [{ PASSWORD_HASH_COST: '21' }, /PASSWORD_HASH_COST/],
    [{ LOG_FORMAT: 'fancy' }, /LOG_FORMAT/],
    [{ SMTP_URL: 'mail.example.com:587' }, /SMTP_URL/],
    [{ SMTP_URL: 'http://mail.example.com' }, /SMTP_URL/],
    [{ PUBLIC_URL: 'auctions.example.com' }, /PUBLIC_URL/],
    [{ PUBLIC_URL: 'https://example.com/?a=1' }, /PUBLIC_URL/],
    [{ MAIL_FROM: 'nobody' }, /MAIL_FROM/],
  ])('refuses %j with a message naming the variable', (env, re) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(re);
  });
});
