import { randomUUID } from 'node:crypto';
import http from 'node:http';

/**
 * The lock-vendor simulator: an HTTP server that speaks the vendor protocol. For now it answers
 * every call with success; fault injection and the call log arrive with the keys issue.
 */
export function createSimulator(): http.Server {
  return http.createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    request.resume();
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://simulator');
      if (url.pathname === '/health') return send(200, { ok: true });
      if (url.pathname === '/oauth2/token') return send(200, { access_token: randomUUID(), expires_in: 7_776_000 });
      if (url.pathname.startsWith('/v3/')) return send(200, { errcode: 0, errmsg: 'none', keyboardPwdId: randomUUID() });
      return send(404, { errcode: 404, errmsg: 'not found' });
    });
  });
}
