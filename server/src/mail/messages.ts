/**
 * What the server mails, written once here: each mail has a plain-text part and an HTML part saying the
 * same, and every link is absolute (PUBLIC_URL). Notice emails carry the notice's own words (rupees
 * already formatted as on the site), a link to the lot page, and a one-click unsubscribe (RFC 8058).
 */
import { RESET_LINK_MINUTES, UNDO_LINK_DAYS, VERIFY_LINK_HOURS, type NotificationKind } from '@auction/shared';
import type { MailDraft } from '../db/index.js';

/** What each kind of notice email is about, for the footer ("you get these because …") and the settings. */
export const NOTICE_KIND_LABELS: Record<NotificationKind, string> = {
  outbid: 'being outbid',
  won: 'lots you win',
  lost: 'lots you bid on that sold to someone else',
  reinstated: 'leading again after a higher bid was cancelled',
  ending_soon: 'auctions you follow ending soon',
  extended: 'auctions you follow being extended',
  unsold: 'lots whose reserve your bid did not meet',
  bought_now: 'lots you follow bought at their buy-now price',
};

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** One HTML mail: a heading, paragraphs, a button and a small footer; inline styles only (mail clients drop the rest). */
function html(parts: { heading: string; paragraphs: string[]; button?: { label: string; href: string }; footer?: string[] }): string {
  const p = (text: string) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(text)}</p>`;
  const button = parts.button
    ? `<p style="margin:20px 0"><a href="${escapeHtml(parts.button.href)}" style="background:#4f46e5;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(parts.button.label)}</a></p>`
      + `<p style="margin:0 0 12px;font-size:13px;color:#555">Or open this address: <a href="${escapeHtml(parts.button.href)}">${escapeHtml(parts.button.href)}</a></p>`
    : '';
  const footer = parts.footer?.length
    ? `<hr style="border:none;border-top:1px solid #ddd;margin:24px 0 12px"><div style="font-size:12px;color:#666">${parts.footer.join('<br>')}</div>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:16px">`
    + `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(parts.heading)}</h1>${parts.paragraphs.map(p).join('')}${button}${footer}</body></html>`;
}

/**
 * A mail whose point is one link: its paragraphs, the link (a bare line in the text part, a button in the
 * HTML one), then what to do if it was not asked for.
 */
function linkMail(m: { kind: MailDraft['kind']; to: string; subject: string; lines: string[]; link: string; button: string; after: string }): MailDraft {
  return {
    kind: m.kind, to: m.to, subject: m.subject,
    text: `${m.lines.join('\n\n')}\n\n${m.link}\n\n${m.after}\n`,
    html: html({ heading: m.subject, paragraphs: m.lines, button: { label: m.button, href: m.link }, footer: [escapeHtml(m.after)] }),
  };
}

/** The account a mail is about, as its paragraphs name it. */
const accountOf = (a: { admin: boolean; username: string }) => (a.admin ? `admin account “${a.username}”` : `account “${a.username}”`);

/**
 * The link that confirms an address. It goes to an address nobody has confirmed yet, so it carries no
 * text the account's holder chose (their name): the platform's own words only.
 */
export function verifyEmailMail(a: { to: string; link: string }): MailDraft {
  const lines = [
    'Hello,',
    `Please confirm that ${a.to} is your email address by opening this link within ${VERIFY_LINK_HOURS} hours:`,
  ];
  const after = 'Once it is confirmed, this address can reset your password and receive the notices you choose. If you did not give this address, ignore this mail.';
  return linkMail({ kind: 'verify_email', to: a.to, subject: 'Confirm your email address', lines, link: a.link, button: 'Confirm this address', after });
}

/** The link that sets a new password. */
export function resetPasswordMail(a: { to: string; name: string; username: string; admin: boolean; link: string }): MailDraft {
  const account = accountOf(a);
  const lines = [
    `Hello ${a.name},`,
    `Someone asked to reset the password of your ${account}. To choose a new password, open this link within ${RESET_LINK_MINUTES} minutes; it works once:`,
  ];
  const after = 'If you did not ask, ignore this mail: your password stays as it is.';
  return linkMail({ kind: 'password_reset', to: a.to, subject: 'Reset your password', lines, link: a.link, button: 'Choose a new password', after });
}

/**
 * An address as the mail to the address it replaced shows it: enough for its owner to recognise it, not
 * enough to write to (`mallory@evil.example` → `m***@e***.example`).
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***${domain.slice(dot)}`;
}

/**
 * To the confirmed address an account just left: which address replaced it (masked), and the link that
 * puts it back and signs the account out everywhere, for the owner whose session someone else used.
 */
export function emailChangedMail(a: { to: string; name: string; username: string; admin: boolean; newEmail: string; link: string }): MailDraft {
  const account = accountOf(a);
  const lines = [
    `Hello ${a.name},`,
    `The email address of your ${account} was changed from this address to ${maskEmail(a.newEmail)}. Password reset links and notices now go there.`,
    `If you did not change it, open this link within ${UNDO_LINK_DAYS} days: it puts this address back, sets a new password you choose (whoever changed the address knew the old one) and signs your account out everywhere.`,
  ];
  const after = 'If you changed it yourself, you need do nothing.';
  return linkMail({ kind: 'undo_email', to: a.to, subject: 'Your email address was changed', lines, link: a.link, button: 'This was not me: put my address back', after });
}

/**
 * To the confirmed address an account just removed: the link that puts it back, with a new password,
 * and signs the account out everywhere, for the owner whose session someone else used.
 */
export function emailRemovedMail(a: { to: string; name: string; username: string; admin: boolean; link: string }): MailDraft {
  const account = accountOf(a);
  const lines = [
    `Hello ${a.name},`,
    `This is to tell you that the email address was removed from your ${account}. Password reset links and notices no longer go to this address.`,
    `If you did not remove it, open this link within ${UNDO_LINK_DAYS} days: it puts this address back, sets a new password you choose (whoever removed the address knew the old one) and signs your account out everywhere.`,
  ];
  const after = 'If you removed it yourself, you need do nothing.';
  return linkMail({ kind: 'undo_email', to: a.to, subject: 'Your email address was removed', lines, link: a.link, button: 'This was not me: put my address back', after });
}

/** A notice as an email, with its unsubscribe links (the page, and RFC 8058's one-click POST). */
export function noticeMail(a: {
  to: string; userId: number; kind: NotificationKind; title: string; body: string;
  lotUrl: string; unsubscribeUrl: string; oneClickUrl: string; settingsUrl: string; topic?: string;
}): MailDraft {
  const why = `You get this email because emails about ${NOTICE_KIND_LABELS[a.kind]} are on.`;
  const text = `${a.title}\n\n${a.body}\n\nSee the lot: ${a.lotUrl}\n\n--\n${why}\nStop these emails: ${a.unsubscribeUrl}\nChoose which emails you get: ${a.settingsUrl}\n`;
  return {
    kind: a.kind, to: a.to, subject: a.title, text,
    html: html({
      heading: a.title, paragraphs: [a.body], button: { label: 'See the lot', href: a.lotUrl },
      footer: [
        escapeHtml(why),
        `<a href="${escapeHtml(a.unsubscribeUrl)}">Stop these emails</a> · <a href="${escapeHtml(a.settingsUrl)}">Choose which emails you get</a>`,
      ],
    }),
    headers: { 'List-Unsubscribe': `<${a.oneClickUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    userId: a.userId,
    ...(a.topic ? { topic: a.topic } : {}),
  };
}
