/** `svc webhooks create` (and the endpoint's life after it: list, update, delete), in-process against the emulator. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

describe('svc webhooks create', () => {
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

  it.each([
    [['webhooks', 'create', '--url', 'http://example.com/hooks'], /https/],
    [['webhooks', 'create', '--url', 'not a url'], /not a URL/],
    [['webhooks', 'create', '--url', 'https://example.com', '--events', ' , '], /--events/],
  ])('refuses bad input before sending: %j', async (args, message) => {
    const result = await runSvc(args, { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(emu.requests({ path: /webhook_endpoints/ })).toHaveLength(0);
  });
});
