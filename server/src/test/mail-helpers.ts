/** A real SMTP server in the test process (smtp-server), and what it received, read back (mailparser). */
import type net from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface Received { from: string; to: string[]; parsed: ParsedMail }

/**
 * Listens on a free port of 127.0.0.1 (no TLS; `opts` override the handlers); `close` stops it. Every
 * mail it accepts is parsed into `received`, in order.
 */
export async function smtpServer(opts: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((parsed) => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), parsed });
        callback();
      }, callback);
    },
    ...opts,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A header's value as written (mailparser groups List-* headers into an object). */
export function headerOf(parsed: ParsedMail, key: string): string | undefined {
  const line = parsed.headerLines.find((h) => h.key === key)?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}
