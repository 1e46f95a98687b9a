import { describe, expect, it } from 'vitest';
import { afterSignIn, returnPath } from './return-to';

describe('coming back after signing in', () => {
  it('returns to the page of the same portal, query included', () => {
    expect(returnPath({ from: '/auctions/A-1/products/P-1?ref=share' }, 'user')).toBe('/auctions/A-1/products/P-1?ref=share');
    expect(returnPath({ from: '/user/auctions?tab=ending' }, 'user')).toBe('/user/auctions?tab=ending');
    expect(returnPath({ from: '/admin/products?status=sold' }, 'admin')).toBe('/admin/products?status=sold');
  });

  it('never follows another site, another portal, or the sign-in pages themselves', () => {
    for (const from of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'user/auctions', '/user/login', '/user/register', '/', '/admin/products']) {
      expect(returnPath({ from }, 'user'), from).toBeNull();
    }
    expect(returnPath({ from: '/user/wallet' }, 'admin')).toBeNull();
    expect(returnPath(null, 'user')).toBeNull();
    expect(returnPath({ from: 42 }, 'user')).toBeNull();
    expect(afterSignIn(undefined, 'user')).toBe('/user/dashboard');
    expect(afterSignIn({ from: '//evil.example' }, 'admin')).toBe('/admin/dashboard');
  });

  it('never returns to a forgot-password page or a page an email link opened', () => {
    for (const from of ['/user/forgot-password', '/reset-password?token=abc', '/verify-email?token=abc', '/unsubscribe?token=abc']) {
      expect(returnPath({ from }, 'user'), from).toBeNull();
    }
    expect(returnPath({ from: '/admin/forgot-password' }, 'admin')).toBeNull();
    expect(returnPath({ from: '/user/account' }, 'user')).toBe('/user/account');
  });
});
