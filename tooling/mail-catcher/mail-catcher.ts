import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

import type { CaughtMessage } from '../../lib/messages/store-caught-mail';

export type { CaughtMessage };

/** What the catcher does with a mail: resolve (accepted) or throw (refused with `responseCode`, default 550). */
export type MailSink = (mail: CaughtMessage) => Promise<void>;

export type MailCatcher = { port: number; close: () => Promise<void> };

const MAX_BYTES = 5 * 1024 * 1024;

/**
 * A small SMTP server (smtp-server, mailparser) on loopback: `npm start` runs one when no SMTP_URL is
 * given (scripts/mail-catcher.ts), and the tests run one in-process to count what was sent. With
 * `auth`, only that user and password may deliver (AUTH PLAIN/LOGIN over loopback, no TLS).
 */
export function startMailCatcher(options: {
  port?: number;
  host?: string;
  auth?: { user: string; pass: string };
  onMail: MailSink;
}): Promise<MailCatcher> {
  const settings: SMTPServerOptions = {
    secure: false,
    // Loopback only: STARTTLS with a self-signed certificate would only make clients refuse it.
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    size: MAX_BYTES,
    logger: false,
    banner: 'UnlockOS mail catcher',
    onAuth(auth, _session, callback) {
      const ok = options.auth && auth.username === options.auth.user && auth.password === options.auth.pass;
      if (ok) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      simpleParser(stream)
        .then(async (parsed) => {
          if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
            throw Object.assign(new Error('Message too big'), { responseCode: 552 });
          }
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          await options.onMail({ parsed, envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) }, size });
          callback();
        })
        .catch((error: unknown) => {
          const e = error instanceof Error ? error : new Error(String(error));
          callback(Object.assign(e, { responseCode: (e as { responseCode?: number }).responseCode ?? 550 }));
        });
    },
  };
  const server = new SMTPServer(settings);
  server.on('error', () => {});
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      const address = server.server.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      resolve({ port, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
