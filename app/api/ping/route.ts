// The emptiest route handler: the baseline the webhook benchmark compares its throughput with.
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return new Response('{}', { headers: { 'content-type': 'application/json' } });
}
