/** `svc webhooks verify`: a delivery checked offline against its secret (no service needed). */
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

const PAYLOAD_FILE = join(import.meta.dirname, '..', '..', 'fixtures', 'webhooks', 'delivery.json');
const PAYLOAD = readFileSync(PAYLOAD_FILE, 'utf8');
const SECRET = 'whsec_e2e_0123456789abcdef0123456789abcdef';

/** A header made with the contract's formula, independently of the CLI. */
function header(body: string, secret = SECRET, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

describe('svc webhooks verify', () => {
  const env = { SVC_WEBHOOK_SECRET: SECRET };

  it('exits 0 for an authentic delivery', async () => {
    const result = await runSvc(
      ['webhooks', 'verify', '--signature', header(PAYLOAD), '--payload', PAYLOAD_FILE],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^authentic/);
  });

  it('reads the payload from standard input and the secret from --secret-file', async () => {
    const dir = tempDir('svc-secret-');
    writeFileSync(join(dir, 'secret'), `${SECRET}\n`);
    const result = await runSvc(
      [
        'webhooks',
        'verify',
        '--signature',
        header(PAYLOAD),
        '--payload',
        '-',
        '--secret-file',
        join(dir, 'secret'),
      ],
      { stdin: PAYLOAD, env: { SVC_WEBHOOK_SECRET: undefined } },
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it.each([
    [
      'a tampered body',
      () => header(PAYLOAD.replace('ord_fixture1', 'ord_fixture2')),
      /no v1 signature matches/,
    ],
    ['a wrong secret', () => header(PAYLOAD, 'whsec_someone_else'), /no v1 signature matches/],
    [
      'a stale timestamp',
      () => header(PAYLOAD, SECRET, Math.floor(Date.now() / 1000) - 600),
      /outside the tolerance of 300 s/,
    ],
    ['a malformed header', () => 'sha256=deadbeef', /malformed/],
  ])('exits 1 for %s, with the reason', async (_label, makeHeader, reason) => {
    const result = await runSvc(
      ['webhooks', 'verify', '--signature', makeHeader(), '--payload', PAYLOAD_FILE],
      { env },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not authentic/);
    expect(result.stderr).toMatch(reason);
  });

  it('--tolerance widens the window', async () => {
    const old = header(PAYLOAD, SECRET, Math.floor(Date.now() / 1000) - 600);
    const result = await runSvc(
      ['webhooks', 'verify', '--signature', old, '--payload', PAYLOAD_FILE, '--tolerance', '900'],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it('--json prints the verdict on stdout', async () => {
    const bad = await runSvc(
      ['webhooks', 'verify', '--signature', header(PAYLOAD, 'whsec_x'), '--payload', PAYLOAD_FILE, '--json'],
      { env },
    );
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ authentic: false, reason: 'no_matching_signature' });
  });

  it('exits 2 without a secret, or with an unreadable payload', async () => {
    const noSecret = await runSvc([
      'webhooks',
      'verify',
      '--signature',
      header(PAYLOAD),
      '--payload',
      PAYLOAD_FILE,
    ]);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toMatch(/SVC_WEBHOOK_SECRET/);
    const noFile = await runSvc(
      ['webhooks', 'verify', '--signature', header(PAYLOAD), '--payload', '/nonexistent/x'],
      {
        env,
      },
    );
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/cannot read --payload/);
  });
});
