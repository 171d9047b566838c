import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const PAYLOAD_FILE = join(import.meta.dirname, '..', 'fixtures', 'webhooks', 'delivery.json');
const PAYLOAD = readFileSync(PAYLOAD_FILE, 'utf8');
const SECRET = 'whsec_e2e_0123456789abcdef0123456789abcdef';

/** A header made with the contract's formula, independently of the CLI. */
function header(body: string, secret = SECRET, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

describe('svc webhooks list/create/update/delete', () => {
  it('create without --events subscribes to everything and prints the secret once, saying so', async () => {
    const result = await runSvc(['webhooks', 'create', '--url', 'https://example.com/hooks'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(0);
    const [stored] = [...emu.store.webhookEndpoints.values()];
    expect(stored.enabled_events).toEqual(['*']);
    expect(result.stdout).toContain(stored.secret);
    expect(result.stdout.split(stored.secret)).toHaveLength(2);
    expect(result.stderr).toMatch(/will not be shown again/);

    const listed = await runSvc(['webhooks', 'list', '--json'], { env: envFor(emu) });
    expect(listed.code).toBe(0);
    const endpoints = JSON.parse(listed.stdout);
    expect(endpoints.map((e: { id: string }) => e.id)).toEqual([stored.id]);
    expect(listed.stdout).not.toContain('whsec_');
  });

  it('create with --fields that leave out the secret refuses before creating anything (exit 2)', async () => {
    const result = await runSvc(
      ['webhooks', 'create', '--url', 'https://example.com/hooks', '--fields', 'id,url', '-o', 'csv'],
      { env: envFor(emu) },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /leaves out secret, which the service shows only now; add secret to --fields/,
    );
    expect(emu.store.webhookEndpoints.size).toBe(0);
    const kept = await runSvc(
      ['webhooks', 'create', '--url', 'https://example.com/hooks', '--fields', 'id,secret', '-o', 'csv'],
      { env: envFor(emu) },
    );
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain([...emu.store.webhookEndpoints.values()][0]?.secret);
  });

  it('create --events a,b with --json carries the secret; update changes it; delete --yes removes it', async () => {
    const created = await runSvc(
      [
        'webhooks',
        'create',
        '--url',
        'http://127.0.0.1:9/hooks',
        '--events',
        'order.created, order.status_changed',
        '--json',
      ],
      { env: envFor(emu) },
    );
    expect(created.code, created.stderr).toBe(0);
    const endpoint = JSON.parse(created.stdout);
    expect(endpoint.enabled_events).toEqual(['order.created', 'order.status_changed']);
    expect(endpoint.secret).toBe(emu.store.webhookEndpoints.get(endpoint.id)?.secret);

    const disabled = await runSvc(['webhooks', 'update', endpoint.id, '--disable', '--events', '*'], {
      env: envFor(emu),
    });
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(emu.store.webhookEndpoints.get(endpoint.id)).toMatchObject({
      status: 'disabled',
      enabled_events: ['*'],
    });

    const enabled = await runSvc(['webhooks', 'update', endpoint.id, '--enable'], { env: envFor(emu) });
    expect(enabled.code).toBe(0);
    expect(emu.store.webhookEndpoints.get(endpoint.id)?.status).toBe('enabled');

    const deleted = await runSvc(['webhooks', 'delete', endpoint.id, '--yes'], { env: envFor(emu) });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(emu.store.webhookEndpoints.has(endpoint.id)).toBe(false);
  });

  it('delete without a terminal refuses without --yes (exit 2) and deletes nothing', async () => {
    const id = (
      await fetch(`${emu.url}/rest/v1/webhook_endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.live}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/h', enabled_events: ['*'] }),
      }).then((r) => r.json() as Promise<{ id: string }>)
    ).id;
    const result = await runSvc(['webhooks', 'delete', id], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--yes/);
    expect(emu.store.webhookEndpoints.has(id)).toBe(true);
    expect(emu.requests({ method: 'DELETE' })).toHaveLength(0);
  });

  it.each([
    [['webhooks', 'create', '--url', 'http://example.com/hooks'], /https/],
    [['webhooks', 'create', '--url', 'not a url'], /not a URL/],
    [['webhooks', 'create', '--url', 'https://example.com', '--events', ' , '], /--events/],
    [['webhooks', 'update', 'we_1'], /nothing to change/],
    [['webhooks', 'update', 'we_1', '--enable', '--disable'], /not both/],
    [['webhooks', 'update', '1', '--enable'], /"1" is not a webhook endpoint id .*svc webhooks list/],
    [['webhooks', 'delete', 'ord_1', '--yes'], /"ord_1" is not a webhook endpoint id .*svc webhooks list/],
  ])('refuses bad input before sending: %j', async (args, message) => {
    const result = await runSvc(args, { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(emu.requests({ path: /webhook_endpoints/ })).toHaveLength(0);
  });
});

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
