/**
 * HTTP_PROXY and NO_PROXY, through a real CONNECT proxy on port 0. The "remote" host is
 * `store.invalid`, which cannot resolve: the proxy sends whatever it is asked for to 127.0.0.1.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/client.js';
import { type ScriptServer, scriptServer } from './script-server.js';

/** A proxy that tunnels CONNECT and forwards absolute-URI requests to loopback, counting both. */
async function startProxy(): Promise<{ url: string; used: string[]; server: Server }> {
  const used: string[] = [];
  const server = createServer((req, res) => {
    used.push(`forward ${req.url}`);
    const target = new URL(req.url ?? '');
    target.hostname = '127.0.0.1';
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, client, head) => {
    used.push(`connect ${req.url}`);
    const port = (req.url ?? '').split(':').pop();
    const upstream = connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, used, server };
}

const saved = { ...process.env };
let target: ScriptServer | undefined;
let proxy: Server | undefined;
let client: ApiClient | undefined;

afterEach(async () => {
  for (const name of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await client?.close();
  await target?.close();
  proxy?.closeAllConnections();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
});

describe('proxy', () => {
  it('goes through HTTP_PROXY, and around it for a host in NO_PROXY', async () => {
    target = await scriptServer(() => ({ status: 200, json: { ok: true } }));
    const remote = target.url.replace('127.0.0.1', 'store.invalid');
    const started = await startProxy();
    proxy = started.server;
    for (const name of ['NO_PROXY', 'no_proxy', 'http_proxy']) delete process.env[name];
    process.env.HTTP_PROXY = started.url;
    client = new ApiClient({ baseUrl: remote, apiKey: 'svc_test_proxy0001', maxRetries: 0 });
    await client.request({ method: 'GET', path: '/status', auth: false });
    expect(started.used).toHaveLength(1);
    expect(target.seen).toHaveLength(1);
    await client.close();

    // Exempt: straight to store.invalid, which does not resolve; the proxy sees nothing.
    process.env.NO_PROXY = 'example.org, .invalid';
    client = new ApiClient({ baseUrl: remote, apiKey: 'svc_test_proxy0001', maxRetries: 0 });
    await expect(client.request({ method: 'GET', path: '/status', auth: false })).rejects.toThrow(
      /store\.invalid/,
    );
    expect(started.used).toHaveLength(1);
  });

  it('never sends a request to a loopback address through the proxy, NO_PROXY or not', async () => {
    target = await scriptServer(() => ({ status: 200, json: { ok: true } }));
    const started = await startProxy();
    proxy = started.server;
    for (const name of ['NO_PROXY', 'no_proxy', 'http_proxy']) delete process.env[name];
    process.env.HTTP_PROXY = started.url;
    client = new ApiClient({ baseUrl: target.url, apiKey: 'svc_test_proxy0001' });
    await client.request({ method: 'GET', path: '/products' });
    expect(started.used).toEqual([]);
    expect(target.seen[0]?.headers.authorization).toBe('Bearer svc_test_proxy0001');
  });

  it('refuses to send a key over plain http to anything but loopback, before any request', async () => {
    const started = await startProxy();
    proxy = started.server;
    process.env.HTTP_PROXY = started.url;
    for (const baseUrl of ['http://store.invalid', 'http://127.store.invalid:8080', 'http://[::2]:80']) {
      client = new ApiClient({ baseUrl, apiKey: 'svc_test_proxy0001' });
      await expect(client.request({ method: 'GET', path: '/products' })).rejects.toThrow(/plain http/);
      await client.close();
    }
    expect(started.used).toEqual([]);
  });
});
