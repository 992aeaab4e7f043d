// A child process for the cross-process issuance test: fires N concurrent issuance calls for one
// check-in through its own database client and prints the key ids it got, as JSON.
import { issueCheckInKey } from '../../lib/stays/issue-check-in-key';
import { disconnectDb } from '../../lib/db/client';

const [tenantId, checkInId, count] = process.argv.slice(2);
const calls = Array.from({ length: Number(count) }, () =>
  issueCheckInKey({
    tenantId: tenantId!,
    checkInId: checkInId!,
    actor: { type: 'system', id: null, label: `process ${process.pid}` },
  }),
);
const keys = await Promise.all(calls);
process.stdout.write(JSON.stringify(keys.map((k) => k.id)));
await disconnectDb();
