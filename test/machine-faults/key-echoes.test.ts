/**
 * Masking catches the key however a server echoes it: upper-cased, spaced out, base64-encoded
 * (alone or as a Basic credential), in data and in errors, in every format and under --debug.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { misbehavingServer, sendJson } from '../helpers/misbehaving-server.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const KEY = 'svc_live_EncodedEch0Key0123456789abcd';
const scratch = () => tempDir('svc-key-echoes-');

/** The key's forms a careless server repeats. */
function forms(key: string): string[] {
  return [
    key.toUpperCase(),
    [...key].join(' '),
    Buffer.from(key).toString('base64'),
    Buffer.from(`api:${key}`).toString('base64'),
    Buffer.from(key).toString('base64url'),
  ];
}

function echoing(req: IncomingMessage, res: ServerResponse): void {
  const key = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  const echoes = forms(key);
  if ((req.url ?? '').startsWith('/rest/v1/products/prod_echo')) {
    sendJson(res, 200, { id: 'prod_echo', object: 'product', title: echoes.join(' | '), tags: echoes });
  } else {
    sendJson(res, 401, {
      error: {
        type: 'authentication_error',
        code: 'api_key_invalid',
        message: `refused ${echoes.join(', ')}`,
      },
    });
  }
}

describe('a server that echoes the key encoded', () => {
  it('never shows it: data and errors, every format, --debug', async () => {
    const server = await misbehavingServer(echoing);
    try {
      const env = { SVC_API_KEY: KEY, SVC_BASE_URL: server.url, SVC_CONFIG_DIR: scratch() };
      for (const args of [
        ['products', 'get', 'prod_echo'],
        ['orders', 'get', 'ord_nope'],
      ]) {
        for (const format of [[], ['--json'], ['-o', 'csv'], ['--debug', '--json']]) {
          const result = await runSvc([...args, ...format], { env });
          const shown = result.stdout + result.stderr;
          for (const form of forms(KEY)) expect(shown, `${args} ${format}`).not.toContain(form);
          expect(shown.replace(/\s+/g, '').toLowerCase()).not.toContain(KEY.slice(-12).toLowerCase());
        }
      }
    } finally {
      await server.close();
    }
  });
});
