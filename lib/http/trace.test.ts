import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { markTrace, TRACE_MARKER } from './trace.mjs';

function request(method: string, headers: [string, string][]): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.rawHeaders = headers.flat();
  req.headers = Object.fromEntries(headers.map(([k, v]) => [k.toLowerCase(), v]));
  return req;
}

describe('the web server’s handling of TRACE (scripts/web-server.mjs)', () => {
  it('hands a TRACE or TRACK on as an OPTIONS marked as one', () => {
    for (const method of ['TRACE', 'TRACK']) {
      const req = request(method, [['Host', 'localhost']]);
      markTrace(req);
      expect({ method: req.method, marker: req.headers[TRACE_MARKER] }).toEqual({ method: 'OPTIONS', marker: '1' });
      expect(req.rawHeaders).toEqual(['Host', 'localhost', TRACE_MARKER, '1']);
    }
  });

  it('drops a marker a client sent on any other request', () => {
    const req = request('OPTIONS', [
      ['Host', 'localhost'],
      ['X-UnlockOS-Trace', '1'],
    ]);
    markTrace(req);
    expect(req.method).toBe('OPTIONS');
    expect(req.headers[TRACE_MARKER]).toBeUndefined();
    expect(req.rawHeaders).toEqual(['Host', 'localhost']);
  });
});
