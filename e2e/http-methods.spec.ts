import { request as http } from 'node:http';
import { expect, test } from './fixtures';
import { services } from './helpers';

// Methods at the edges of HTTP, answered like every other refusal: a status that says what happened
// and an x-request-id, never a 500 from inside Next.js (issue 28, item 10(e) and (f)).

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One raw request (Playwright's client and fetch refuse some of these methods). */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http(new URL(path, services().appUrl), { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const ID = '7f1c2a9e-0000-4000-8000-000000000001';
const allowOf = (answer: Answer) =>
  String(answer.headers.allow ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean)
    .sort();

test('TRACE is 405 with a request id, on pages, the API and the fast lane alike', async () => {
  for (const path of [
    '/',
    '/desk',
    '/sign-in',
    '/api/v1/rooms',
    `/api/v1/reservations/${ID}`,
    '/api/webhooks/stripe',
  ]) {
    const answer = await send('TRACE', path);
    expect({ path, status: answer.status }).toEqual({ path, status: 405 });
    expect({ path, requestId: typeof answer.headers['x-request-id'] }).toEqual({ path, requestId: 'string' });
    expect(allowOf(answer)).not.toContain('TRACE');
  }
});

test('OPTIONS lists only the methods an address serves', async () => {
  const cases: [string, string[]][] = [
    ['/api/v1/rooms', ['GET', 'HEAD', 'OPTIONS']],
    ['/api/v1/reservations', ['GET', 'HEAD', 'OPTIONS']],
    [`/api/v1/check-ins/${ID}/key`, ['OPTIONS', 'POST']],
    [`/api/v1/keys/${ID}/revoke`, ['OPTIONS', 'POST']],
    [`/api/v1/reservations/${ID}`, ['GET', 'HEAD', 'OPTIONS', 'PATCH']],
    ['/api/webhooks/stripe', ['OPTIONS', 'POST']],
    [`/api/webhooks/calendly/${ID}`, ['OPTIONS', 'POST']],
    ['/api/guest/abc/status', ['GET', 'HEAD', 'OPTIONS']],
  ];
  for (const [path, methods] of cases) {
    const answer = await send('OPTIONS', path);
    expect({ path, status: answer.status, allow: allowOf(answer) }).toEqual({ path, status: 204, allow: methods });
    expect({ path, requestId: typeof answer.headers['x-request-id'] }).toEqual({ path, requestId: 'string' });
  }
});

test('a server action posted from another origin is 403, not 500', async () => {
  for (const path of ['/sign-in', '/desk']) {
    const answer = await send(
      'POST',
      path,
      {
        origin: 'https://evil.example',
        'next-action': '7f'.repeat(21),
        'content-type': 'text/plain;charset=UTF-8',
        accept: 'text/x-component',
      },
      '[]',
    );
    expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    expect(JSON.parse(answer.body).error.code).toBe('forbidden');
    expect(typeof answer.headers['x-request-id']).toBe('string');
  }
});
