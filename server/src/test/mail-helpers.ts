/** A real SMTP server in the test process (smtp-server), and what it received, read back (mailparser). */
import type net from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface Received { from: string; to: string[]; parsed: ParsedMail }

/**
 * Listens on a free port of 127.0.0.1 (no TLS; `opts` override the handlers); `close` stops it. Every
 * mail it accepts is parsed into `received`, in order.
 */
export async function smtpServer(opts: Partial<SMTPServerOptions> & { stall?: () => boolean } = {}) {
  const received: Received[] = [];
  const { stall, ...options } = opts;
  let stalled = 0;
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false, closeTimeout: 200,
    onData(stream, session, callback) {
      // A stalled server reads the message and never answers it: the mail is not delivered.
      if (stall?.()) {
        stalled++;
        stream.resume();
        return;
      }
      simpleParser(stream).then((parsed) => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), parsed });
        callback();
      }, callback);
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Messages read and never answered (`stall`). */
    stalled: () => stalled,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A header's value as written (mailparser groups List-* headers into an object). */
export function headerOf(parsed: ParsedMail, key: string): string | undefined {
  const line = parsed.headerLines.find((h) => h.key === key)?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

/** Waits (polling) until `received` holds a mail `match` accepts; that mail. */
export async function mailTo(received: Received[], match: (r: Received) => boolean, timeoutMs = 5000): Promise<Received> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = received.find(match);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no such mail within ${timeoutMs} ms; received: ${received.map((r) => `${r.to.join(',')}: ${r.parsed.subject}`).join(' | ') || 'none'}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The token of the first link to `page` (`/reset-password`, `/verify-email`, `/unsubscribe`) in a mail's text. */
export function linkToken(mail: Received, page: string): string {
  const m = new RegExp(`${page.replace(/[/-]/g, '\\$&')}\\?token=([^\\s&]+)`).exec(mail.parsed.text ?? '');
  if (!m) throw new Error(`no ${page} link in: ${mail.parsed.text}`);
  return decodeURIComponent(m[1]!);
}
