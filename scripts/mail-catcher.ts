// The local mail catcher (`npm start` without SMTP_URL): an SMTP server on loopback that files each
// mail the workers send under its message's tenant in the database (caught_mail), for the manager's
// mailbox. Its port and login come from the launcher (MAIL_CATCHER_PORT, _USER, _PASSWORD), new on
// every start; nothing else may deliver to it.
import { logger } from '../lib/log/logger';
import { startMailCatcher } from '../tooling/mail-catcher/mail-catcher';
import { storeCaughtMail } from '../lib/messages/store-caught-mail';

const user = process.env.MAIL_CATCHER_USER;
const pass = process.env.MAIL_CATCHER_PASSWORD;
if (!user || !pass || !process.env.APP_DATABASE_URL) {
  process.stderr.write(
    'MAIL_CATCHER_USER, MAIL_CATCHER_PASSWORD and APP_DATABASE_URL must be set (npm start sets them)\n',
  );
  process.exit(2);
}

const catcher = await startMailCatcher({
  port: Number(process.env.MAIL_CATCHER_PORT ?? 0),
  auth: { user, pass },
  onMail: async (mail) => {
    await storeCaughtMail(mail);
    logger.info({ bytes: mail.size }, 'mail caught');
  },
});
process.stdout.write(`mail catcher listening on smtp://127.0.0.1:${catcher.port}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void catcher.close().then(() => process.exit(0));
  });
