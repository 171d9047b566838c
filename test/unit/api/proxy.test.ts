/** HTTP_PROXY and NO_PROXY, through a real CONNECT proxy on port 0. */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { type ScriptServer, scriptServer } from './script-server.js';

/** A proxy that tunnels CONNECT and forwards absolute-URI requests, counting both. */
async function startProxy(): Promise<{ url: string; used: string[]; server: Server }> {
  const used: string[] = [];
  const server = createServer((req, res) => {
    used.push(`forward ${req.url}`);
    const upstream = httpRequest(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, client, head) => {
    used.push(`connect ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
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
    const started = await startProxy();
    proxy = started.server;
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    process.env.HTTP_PROXY = started.url;
    client = new ApiClient({ baseUrl: target.url, apiKey: 'svc_test_proxy0001' });
    await client.request({ method: 'GET', path: '/status', auth: false });
    expect(started.used).toHaveLength(1);
    expect(target.seen).toHaveLength(1);
    await client.close();

    process.env.NO_PROXY = '127.0.0.1';
    client = new ApiClient({ baseUrl: target.url, apiKey: 'svc_test_proxy0001' });
    await client.request({ method: 'GET', path: '/status', auth: false });
    expect(started.used).toHaveLength(1);
    expect(target.seen).toHaveLength(2);
  });
});
