/** What `npm start` and the demo say when they listen, or cannot. */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { listeningLine, listenProblem, openableUrl, probePort } from './listen.js';

const bound = (address: string, port = 3000): net.AddressInfo => ({ address, port, family: address.includes(':') ? 'IPv6' : 'IPv4' });

describe('the URL printed once listening', () => {
  it('names localhost when bound to every interface, and says so', () => {
    expect(openableUrl('0.0.0.0', bound('0.0.0.0'))).toEqual({ url: 'http://localhost:3000', allInterfaces: true });
    expect(openableUrl('::', bound('::', 4000))).toEqual({ url: 'http://localhost:4000', allInterfaces: true });
    expect(listeningLine('0.0.0.0', bound('0.0.0.0'))).toBe('Auction platform at http://localhost:3000 (reachable on all network interfaces, port 3000)');
  });

  it('an address as bound (IPv6 in brackets; the real port when PORT=0), a host name as written', () => {
    expect(listeningLine('127.0.0.1', bound('127.0.0.1', 51234))).toBe('Auction platform at http://127.0.0.1:51234');
    expect(openableUrl('::1', bound('::1')).url).toBe('http://[::1]:3000');
    expect(openableUrl('localhost', bound('::1')).url).toBe('http://localhost:3000');
  });
});

describe('a port that cannot be used', () => {
  const hint = (p: number) => `run with --port ${p}`;
  it('one line for a taken port, a forbidden one and a HOST that is not here; null otherwise', () => {
    expect(listenProblem(Object.assign(new Error('x'), { code: 'EADDRINUSE' }), '0.0.0.0', 3000, hint)).toBe('Port 3000 is in use: stop what uses it or run with --port 3001');
    expect(listenProblem(Object.assign(new Error('x'), { code: 'EACCES' }), '0.0.0.0', 80, hint)).toMatch(/^Port 80 is not allowed .*run with --port 3000$/);
    expect(listenProblem(Object.assign(new Error('x'), { code: 'EADDRNOTAVAIL' }), '10.9.9.9', 3000, hint)).toMatch(/^HOST=10\.9\.9\.9 is not an address of this machine/);
    expect(listenProblem(new Error('other'), '0.0.0.0', 3000, hint)).toBeNull();
    expect(listenProblem('text', '0.0.0.0', 3000, hint)).toBeNull();
  });

  it('probePort rejects with EADDRINUSE while something listens there, and resolves once it is free', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    await expect(probePort('127.0.0.1', port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await new Promise((resolve) => holder.close(resolve));
    await expect(probePort('127.0.0.1', port)).resolves.toBeUndefined();
  });
});
