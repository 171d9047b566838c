/**
 * The key in use never appears in any output, even where a server (or a gateway in front of
 * it) echoes it back: in error messages, params and codes, in data fields, in every output
 * format, under --debug (stack lines included) and in `doctor --json`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../helpers/memory-io.js';
import { type MisbehavingServer, misbehavingServer, sendJson } from '../helpers/misbehaving-server.js';
import { freshConfigDir } from '../helpers/svc.js';

(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

/** The key in use: a live one, so nothing about it is a test-mode special case. */
const KEY = 'svc_live_EchoedBackK3y0123456789abcdef';
/** Another key-shaped string a server may hold in its data (someone pasted a key in a title). */
const OTHER_KEY = 'svc_test_PastedIntoATitle9876543210zz';
const NOW = '2026-01-02T03:04:05.000Z';

/** Answers as a server that repeats whatever credentials it was sent. */
function echoing(req: IncomingMessage, res: ServerResponse): void {
  const auth = String(req.headers.authorization ?? '');
  const key = auth.replace(/^Bearer\s+/i, '');
  const path = (req.url ?? '').replace(/\?.*$/, '');
  const product = {
    id: 'prod_data',
    object: 'product',
    title: `Echo of ${key}`,
    description: `the caller sent ${auth}; someone pasted ${OTHER_KEY}`,
    tags: [key],
    updated_at: NOW,
  };
  if (path === '/rest/v1/products/prod_data') sendJson(res, 200, product);
  else if (path === '/rest/v1/products') {
    sendJson(res, 200, { object: 'list', data: [product], has_more: false, next_cursor: null });
  } else if (path === '/rest/v1/products/prod_400') {
    sendJson(res, 400, {
      error: {
        type: 'invalid_request_error',
        code: `header_rejected_${key}`,
        message: `${auth} is not an accepted header value`,
        param: auth,
      },
    });
  } else {
    sendJson(res, 401, {
      error: { type: 'authentication_error', code: 'api_key_invalid', message: `Invalid API key: ${key}` },
    });
  }
}

let server: MisbehavingServer;
beforeAll(async () => {
  server = await misbehavingServer(echoing);
});
afterAll(() => server.close());

/** Runs `svc ARGS` in-process against the echoing server with KEY in SVC_API_KEY. */
async function svc(args: string[], stdoutIsTTY = false) {
  const io = memoryIO(stdoutIsTTY);
  const code = await main(['node', 'svc', ...args], {
    io,
    env: { SVC_API_KEY: KEY, SVC_BASE_URL: server.url, SVC_CONFIG_DIR: freshConfigDir(), NO_COLOR: '1' },
  });
  return { code, out: io.out(), err: io.err(), all: `${io.out()}\n${io.err()}` };
}

const FORMATS = [['-o', 'table'], ['--json'], ['-o', 'ndjson'], ['-o', 'csv'], ['-o', 'tsv'], []];

describe('a server that echoes the key', () => {
  it('a 401 whose message holds the key: in every format and under --debug', async () => {
    for (const format of [...FORMATS, ['--debug'], ['--json', '--debug']]) {
      const result = await svc(['orders', 'get', 'ord_401', ...format]);
      expect(result.code, format.join(' ')).toBe(4);
      expect(result.err, format.join(' ')).toContain('Invalid API key: svc_live_…');
      expect(result.all, format.join(' ')).not.toContain(KEY);
      expect(result.all, format.join(' ')).not.toContain(KEY.slice('svc_live_'.length));
    }
  });

  it('a 400 whose message, param and code hold `Bearer <key>`: in every format and under --debug', async () => {
    for (const format of [...FORMATS, ['--debug'], ['--json', '--debug']]) {
      const result = await svc(['products', 'get', 'prod_400', ...format]);
      expect(result.code, format.join(' ')).toBe(1);
      expect(result.all, format.join(' ')).not.toContain(KEY);
      expect(result.all, format.join(' ')).not.toContain(KEY.slice('svc_live_'.length));
    }
  });

  it('data fields holding the key or anything key-shaped: every format, detail and list, --query', async () => {
    for (const args of [
      ['products', 'get', 'prod_data'],
      ['products', 'list'],
    ]) {
      for (const format of [...FORMATS, ['--query', 'title'], ['--debug', '--json']]) {
        const query = args[1] === 'list' && format[0] === '--query' ? ['--query', '[].title'] : format;
        for (const tty of [false, true]) {
          const result = await svc([...args, ...query], tty);
          const label = `${args.join(' ')} ${query.join(' ')} tty=${tty}`;
          expect(result.code, `${label}: ${result.err}`).toBe(0);
          expect(result.out, label).toContain('Echo of svc_live_…');
          expect(result.all, label).not.toContain(KEY);
          expect(result.all, label).not.toContain(OTHER_KEY);
        }
      }
    }
  });

  it('doctor --json, the report for a support ticket, holds no key', async () => {
    for (const format of [['--json'], []]) {
      const result = await svc(['doctor', ...format]);
      expect(result.all, format.join(' ')).not.toContain(KEY);
      expect(result.all, format.join(' ')).not.toContain(KEY.slice('svc_live_'.length));
    }
  });
});
