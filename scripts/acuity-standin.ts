// A local stand-in for Acuity Scheduling's API (`npm run acuity-standin`), for trying the Acuity booking
// source without an Acuity account. It listens on ACUITY_STANDIN_PORT (4343) and accepts one account,
// ACUITY_STANDIN_ACCOUNT (`<user id>:<API key>`, made up and printed when not given): set that value as the
// tenant's `acuity` secret and run the app with ACUITY_API_URL at the printed address. Then
//   curl -u <user id>:<API key> -H 'content-type: application/json' <address>/_standin/notify \
//     -d '{"action":"appointment.scheduled","webhookUrl":"http://127.0.0.1:3000/api/webhooks/acuity/<tenant id>",
//          "appointment":{"id":1,"datetime":"2026-12-24T15:00:00+0900","duration":1200,"appointmentTypeID":5151}}'
// stores the appointment and delivers Acuity's signed notification of it.
import { randomBytes, randomInt } from 'node:crypto';
import { startAcuityStandin } from '../tooling/testing/acuity-standin';

const account =
  process.env.ACUITY_STANDIN_ACCOUNT ?? `${randomInt(100_000, 999_999)}:${randomBytes(16).toString('hex')}`;
const [userId, apiKey] = [account.slice(0, account.indexOf(':')), account.slice(account.indexOf(':') + 1)];
const standin = await startAcuityStandin({ port: Number(process.env.ACUITY_STANDIN_PORT ?? 4343) });
standin.addAccount(userId, apiKey);
process.stdout.write(`Acuity stand-in listening on ${standin.url}\n`);
if (!process.env.ACUITY_STANDIN_ACCOUNT) {
  process.stdout.write(
    `Set the tenant's acuity secret to ${account} and run the app with ACUITY_API_URL=${standin.url}\n`,
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void standin.close().then(() => process.exit(0));
  });
