// Preloaded into every web process (`node --require`, WEB_NODE_FLAGS in tooling/config/web-process.ts).
//
// A route handler gets a Web Request without its socket, and Next.js keeps a client-supplied
// X-Forwarded-For (it only fills it in when absent), so the application cannot tell the client's
// address from what the client claims. This preload runs where the socket is still known: on every
// request an http(s) server emits, it computes the client address from the socket and, with
// TRUST_PROXY=<n>, from the n proxy hops of X-Forwarded-For it is told to believe, and writes it to
// the private header below, replacing any copy the client sent. The application reads only that
// header (lib/http/client-address.ts).
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload: `node --require` loads it before any module system of the app */

const http = require('node:http');
const https = require('node:https');
const net = require('node:net');

const HEADER = 'x-unlockos-client-address';
const MARKER = Symbol.for('unlockos.client-address-preload');

/** An address as written by a socket or a proxy (`::ffff:1.2.3.4`, `1.2.3.4:5678`, `[::1]:80`), normalised; null when not an IP. */
function normaliseAddress(value) {
  if (typeof value !== 'string') return null;
  let address = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1];
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(address);
  if (withPort) address = withPort[1];
  if (/^::ffff:/i.test(address) && net.isIPv4(address.slice(7))) address = address.slice(7);
  return net.isIP(address) ? address.toLowerCase() : null;
}

/**
 * The client's address, as Express's "trust proxy = n hops": the chain is X-Forwarded-For's
 * entries followed by the socket's address; the client is the entry n hops left of the socket
 * (the leftmost when the chain is shorter). With n = 0 it is the socket's, whatever the headers say.
 * An entry that is not an IP address is not believed: the socket's address stands instead.
 */
function clientAddressFrom({ socketAddress, forwardedFor, trustedHops }) {
  const socket = normaliseAddress(socketAddress);
  const hops = Number.isInteger(trustedHops) && trustedHops > 0 ? trustedHops : 0;
  if (hops === 0) return socket;
  const header = Array.isArray(forwardedFor)
    ? forwardedFor.join(',')
    : typeof forwardedFor === 'string'
      ? forwardedFor
      : '';
  const chain = [
    ...header
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    socketAddress,
  ];
  const chosen = chain[Math.max(0, chain.length - 1 - hops)];
  return normaliseAddress(chosen) ?? socket;
}

/** TRUST_PROXY: a whole number of hops (0 when unset); anything else is refused loudly and trusts none. */
function trustedHopsFrom(value) {
  if (value === undefined || value.trim() === '') return 0;
  if (/^\d{1,2}$/.test(value.trim())) return Number(value.trim());
  process.emitWarning(
    `TRUST_PROXY must be a number of proxy hops (0-99); "${value}" is ignored and no X-Forwarded-For hop is believed`,
  );
  return 0;
}

/** Writes the client address header on `req`, removing any copy the client sent (also from rawHeaders). */
function stampRequest(req, trustedHops) {
  const address = clientAddressFrom({
    socketAddress: req.socket && req.socket.remoteAddress,
    forwardedFor: req.headers['x-forwarded-for'],
    trustedHops,
  });
  delete req.headers[HEADER];
  const raw = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() !== HEADER) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  if (address) {
    req.headers[HEADER] = address;
    raw.push(HEADER, address);
  }
  req.rawHeaders = raw;
}

const STAMPED_EVENTS = new Set(['request', 'checkContinue', 'checkExpectation', 'upgrade']);

function install(trustedHops) {
  if (globalThis[MARKER]) return;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = function emitWithClientAddress(event, req, ...rest) {
      if (STAMPED_EVENTS.has(event) && req && req.headers) stampRequest(req, trustedHops);
      return emit.call(this, event, req, ...rest);
    };
  }
  // Tells lib/http/client-address.ts that the header can be believed in this process.
  globalThis[MARKER] = true;
}

// Installed only when preloaded (`--require`, also through NODE_OPTIONS); a test that requires this
// file for its functions leaves its own process alone.
if (module.parent && module.parent.id === 'internal/preload') install(trustedHopsFrom(process.env.TRUST_PROXY));

module.exports = { HEADER, clientAddressFrom, normaliseAddress, trustedHopsFrom };
