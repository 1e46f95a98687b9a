/**
 * A bidder who forgot their password, in a real Chromium against the production server and a real SMTP
 * server in this test process (docs/email.md): from the sign-in page's "Forgot password?" to the mailed
 * link, a new password, and signing in with it; the old session and the used link no longer work.
 * Screenshots at 1280 and 375 px, each checked with axe-core.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { shot, step, useE2E } from './browser.js';
import { api } from './server.js';
import { linkToken, mailTo, smtpServer } from '../server/src/test/mail-helpers.js';

const smtp = await smtpServer();
afterAll(() => smtp.close());
const e2e = useE2E({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Auctions <auctions@e2e.example>' } });

describe('password reset by email', () => {
  it('from Forgot password? on the sign-in page to signing in with the new password', async () => {
    const { page, seed } = e2e;
    const baseUrl = e2e.server.url;
    const me = await seed.user({ name: 'Meera Nair' });
    const email = 'meera.nair@example.com';

    await step('the bidder has a confirmed address', async () => {
      expect((await api(baseUrl, 'PUT', '/me/email', { email, password: me.password }, me.token)).status).toBe(202);
      const mail = await mailTo(smtp.received, (r) => r.to.includes(email));
      expect((await api(baseUrl, 'POST', '/email/verify', { token: linkToken(mail, '/verify-email') })).status).toBe(204);
    });

    await step('Forgot password? → the address → the same answer for anyone', async () => {
      await page.goto('/user/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL((url) => url.pathname === '/user/forgot-password');
      await page.getByLabel('Username or email').fill(email);
      await shot(page, 'forgot-password');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByRole('status').getByText(/If an account matches/).waitFor();
      await shot(page, 'forgot-password-sent');
    });

    const mail = await mailTo(smtp.received, (r) => r.to.includes(email) && /Reset/.test(r.parsed.subject ?? ''), 10_000);
    const token = linkToken(mail, '/reset-password');
    const link = new URL(/https?:\/\/\S*\/reset-password\?\S+/.exec(mail.parsed.text ?? '')![0]);

    await step('the mailed link → a new password → changed', async () => {
      await page.goto(`${link.pathname}${link.search}`);
      await page.getByLabel('New password').fill('fresh-pass-42');
      await page.getByLabel('Confirm password').fill('fresh-pass-42');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Your password has been changed.').waitFor();
      await shot(page, 'reset-password-done');
    });

    await step('the old session is over, the old password refused', async () => {
      expect((await api(baseUrl, 'GET', '/me', undefined, me.token)).status).toBe(401);
      expect((await api(baseUrl, 'POST', '/login', { username: me.username, password: me.password })).status).toBe(400);
    });

    await step('signs in with the new password', async () => {
      await page.getByRole('link', { name: /^Sign in/ }).first().click();
      await page.waitForURL((url) => url.pathname === '/user/login');
      await page.getByLabel('Username').fill(me.username);
      await page.getByLabel('Password').fill('fresh-pass-42');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/user/dashboard');
      await page.getByRole('button', { name: 'Logout' }).waitFor();
    });

    await step('the used link is refused, with a way to ask for a new one', async () => {
      expect((await api(baseUrl, 'POST', '/password/reset', { token, password: 'another-pass-1' })).body.code).toBe('TOKEN_INVALID');
      await page.goto(`${link.pathname}${link.search}`);
      await page.getByLabel('New password').fill('another-pass-1');
      await page.getByLabel('Confirm password').fill('another-pass-1');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText(/expired or was already used/).waitFor();
      await shot(page, 'reset-password-used');
    });
  });
});
