import nodemailer, { type Transporter } from 'nodemailer';

/** The sender of every mail: MAIL_FROM, else a no-reply address on this host. */
export function mailFrom(): string {
  return process.env.MAIL_FROM?.trim() || 'UnlockOS <no-reply@localhost>';
}

let cached: { url: string; transport: Transporter } | null = null;

/**
 * The process's SMTP transport over SMTP_URL (`smtp://user:pass@host:port`, `smtps://…`), made once per
 * URL. Without SMTP_URL there is nowhere to send: `null` (npm start always sets one — its own mail
 * catcher when the operator gave none).
 */
export function mailTransport(): Transporter | null {
  const url = process.env.SMTP_URL?.trim();
  if (!url) return null;
  if (cached?.url !== url) {
    cached?.transport.close();
    // Short timeouts: a job that hangs on a dead server holds a worker slot; graphile retries it.
    cached = {
      url,
      transport: nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    };
  }
  return cached.transport;
}

/** What the row keeps of a failure: the SMTP answer or the error's message, never the mail. */
export function describeSendError(error: unknown): string {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  const text = e.response ?? e.message ?? String(error);
  return `${e.responseCode ?? e.code ?? 'error'}: ${text}`.replace(/\s+/g, ' ').slice(0, 500);
}
