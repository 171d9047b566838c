// What the CLI bundle gets for `import … from 'undici'` (scripts/bundle.mjs): the three names
// src/client/transport*.ts use, built as undici's own index.js builds them, without the rest
// of that index (fetch, WebSocket, cookies, caches, mocks, interceptors). Loading the whole
// index cost the first request of every command about 40 ms and 800 KB of code to compile.
'use strict';

const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const Agent = require('undici/lib/dispatcher/agent');
const ProxyAgent = require('undici/lib/dispatcher/proxy-agent');
const api = require('undici/lib/api');
const util = require('undici/lib/core/util');
const { InvalidArgumentError } = require('undici/lib/core/errors');

// As index.js does: ProxyAgent tunnels through a proxy with the dispatcher's connect().
Object.assign(Dispatcher.prototype, api);

/** undici's `request(url, options)`: its makeDispatcher(api.request), for a URL and a dispatcher. */
function request(url, opts) {
  if (!url || (typeof url !== 'string' && typeof url !== 'object')) {
    throw new InvalidArgumentError('invalid url');
  }
  if (!opts || typeof opts !== 'object' || !opts.dispatcher) {
    throw new InvalidArgumentError('svc passes every request its dispatcher');
  }
  const parsed = util.parseURL(url);
  return api.request.call(opts.dispatcher, {
    ...opts,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}

module.exports = { Agent, ProxyAgent, request };
