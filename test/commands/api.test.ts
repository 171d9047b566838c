/**
 * `svc api` sends what it was given: an --input body byte for byte once it parses, and -F
 * values typed as numbers only when they read back exactly as typed. Checked on the wire.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseAssignments } from '../../src/core/listings/assignments.js';
import { type CaptureServer, captureServer } from '../helpers/capture-server.js';
import { memoryIO } from '../helpers/memory-io.js';
import { ANY_KEY } from '../helpers/misbehaving-server.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';

// The bundle defines it; main() runs here from the sources.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'api');
const fixture = (name: string) => join(FIXTURES, name);

const servers: CaptureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function capture(): Promise<CaptureServer> {
  const server = await captureServer();
  servers.push(server);
  return server;
}

/** Runs `svc ARGS` in-process against `server`. */
async function svc(server: CaptureServer, args: string[]) {
  const io = memoryIO();
  const code = await main(['node', 'svc', ...args], {
    io,
    env: { NO_COLOR: '1', SVC_CONFIG_DIR: freshConfigDir(), SVC_BASE_URL: server.url, SVC_API_KEY: ANY_KEY },
  });
  return { code, out: io.out(), err: io.err() };
}

describe('svc api --input sends the bytes it was given', () => {
  for (const name of ['big-number.body', 'duplicate-keys.body', 'as-written.body']) {
    it(`${name}: sent byte for byte, as application/json`, async () => {
      const server = await capture();
      const result = await svc(server, ['api', 'POST', '/products', '--input', fixture(name)]);
      expect(result.code, result.err).toBe(0);
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request.body.equals(readFileSync(fixture(name)))).toBe(true);
      expect(request.headers['content-type']).toBe('application/json');
    });
  }

  it('a UTF-8 byte order mark is taken off (JSON text carries none); the rest goes as it is', async () => {
    const server = await capture();
    const result = await svc(server, ['api', 'PATCH', '/inventory/SKU-1', '--input', fixture('bom.body')]);
    expect(result.code, result.err).toBe(0);
    expect(server.requests[0].body.toString('latin1')).toBe('{"quantity":5}\n');
  });

  it('from standard input too', async () => {
    const server = await capture();
    const result = await runSvc(['api', 'POST', '/products', '--input', '-'], {
      env: { SVC_BASE_URL: server.url, SVC_API_KEY: ANY_KEY },
      stdin: readFileSync(fixture('big-number.body')),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests[0].body.toString('utf8')).toBe('{"a":12345678901234567890123}');
  });

  it('a body that does not parse, or is not UTF-8, exits 2 and sends nothing', async () => {
    const server = await capture();
    const bad = await svc(server, ['api', 'POST', '/products', '--input', fixture('not-json.body')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/is not valid JSON/);
    const latin1 = await svc(server, ['api', 'POST', '/products', '--input', fixture('latin1.body')]);
    expect(latin1.code).toBe(2);
    expect(latin1.err).toMatch(/not UTF-8/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('svc api -F types a value as a number only when it reads back exactly as typed', () => {
  const typed = ['a=007', 'b=12345678901234567890', 'e=-0', 'p=9.50', 'n=12', 'x=-3.25', 't=true', 'z=null'];

  it('in a JSON body: 007, 12345678901234567890, -0 and 9.50 go as strings; 12 and -3.25 as numbers', async () => {
    const server = await capture();
    const result = await svc(server, ['api', 'POST', '/things', ...typed.flatMap((field) => ['-F', field])]);
    expect(result.code, result.err).toBe(0);
    expect(server.requests[0].body.toString('utf8')).toBe(
      '{"a":"007","b":"12345678901234567890","e":"-0","p":"9.50","n":12,"x":-3.25,"t":true,"z":null}',
    );
  });

  it('in a query string: every value exactly as typed', async () => {
    const server = await capture();
    const result = await svc(server, ['api', 'GET', '/things', '-F', 'a=007', '-F', 'e=-0', '-F', 'n=12']);
    expect(result.code, result.err).toBe(0);
    expect(server.requests[0].url).toMatch(/[?&]a=007&e=-0&n=12(&|$)/);
  });

  it('-F and -f fields keep the order they were typed in across both flags, run after run', async () => {
    const server = await capture();
    const args = ['-f', 'b=x', '-F', 'a=1', '-f', 'c=y', '-F', 'd=2'];
    for (const method of ['POST', 'POST']) {
      const result = await svc(server, ['api', method, '/things', ...args]);
      expect(result.code, result.err).toBe(0);
    }
    expect(server.requests.map((request) => request.body.toString('utf8'))).toEqual([
      '{"b":"x","a":1,"c":"y","d":2}',
      '{"b":"x","a":1,"c":"y","d":2}',
    ]);
    const result = await svc(server, ['api', 'GET', '/things', ...args]);
    expect(result.code, result.err).toBe(0);
    expect(server.requests[2].url).toMatch(/\?b=x&a=1&c=y&d=2$/);
  });

  it('--override and --attribute type values the same way', () => {
    expect(parseAssignments('--attribute', typed)).toEqual({
      a: '007',
      b: '12345678901234567890',
      e: '-0',
      p: '9.50',
      n: 12,
      x: -3.25,
      t: true,
      z: null,
    });
    expect(parseAssignments('--override', ['title=12', 'weight=-0', 'price=10'])).toEqual({
      title: '12',
      weight: '-0',
      price: 10,
    });
  });
});
