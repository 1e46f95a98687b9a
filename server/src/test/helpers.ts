/** Test factories: an app on a fresh database, and accounts made through the real HTTP routes. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp, type BuildOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { App } from '../context.js';

export const TEST_SECRET = 'test-secret-that-is-at-least-32-characters-long';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), databaseUrl: ':memory:', logLevel: 'silent', jwtSecret: TEST_SECRET, rateLimit: false, ...overrides };
}

export async function makeApp(overrides: Partial<Config> = {}, options: BuildOptions = {}): Promise<App> {
  const app = await buildApp(testConfig(overrides), options);
  await app.ready();
  return app;
}

/** A fresh folder for a file database; removed by the caller's `cleanup`. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-test-'));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

let seq = 0;
export const uniqueName = (prefix: string) => `${prefix}${process.pid}_${++seq}`;

export async function call(app: App, method: InjectOptions['method'], url: string, body?: unknown, token?: string): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
}

/** Registers and signs in a bidder; returns the token and the user. */
export async function signUpUser(app: App, username = uniqueName('user'), password = 'secret1') {
  const reg = await call(app, 'POST', '/api/register', { name: `Name ${username}`, username, password, mobile_number: '9876543210' });
  expect(reg.statusCode).toBe(201);
  const login = await call(app, 'POST', '/api/login', { username, password });
  expect(login.statusCode).toBe(200);
  const { token, user } = login.json<{ token: string; user: { id: number; username: string } }>();
  return { token, user, username, password };
}

export async function signUpAdmin(app: App, username = uniqueName('admin'), password = 'secret1') {
  const reg = await call(app, 'POST', '/api/admin/register', { name: `Admin ${username}`, username, password, mobile_number: '9876543210', role: 'admin' });
  expect(reg.statusCode).toBe(201);
  const login = await call(app, 'POST', '/api/admin/login', { username, password, role: 'admin' });
  expect(login.statusCode).toBe(200);
  const { token, admin } = login.json<{ token: string; admin: { id: number; username: string; is_owner: boolean } }>();
  return { token, admin, username, password };
}

/** Asserts the DESIGN §3 error shape and returns the body. */
export function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ error: string; message: string; code: string; field?: string }>();
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  expect(body.message).toBe(body.error);
  return body;
}
