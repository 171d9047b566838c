/**
 * Reads that span nouns against one store of 300 orders: channels and a product as the API has
 * them, tsv when piped, --fields in json and csv, status and health with no key. A command's own
 * reads are in its file under test/commands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { crawl as apiCrawl } from '../helpers/service-api.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 300 });
});
afterAll(() => emu.close());

const crawl = (path: string) => apiCrawl(emu, path);

describe('read commands', () => {
  it('channels list, get, policies and products get agree with the API', async () => {
    const accounts = JSON.parse((await runSvc(['channels', 'list', '--json'], { env: envFor(emu) })).stdout);
    expect(accounts.length).toBeGreaterThanOrEqual(2);
    const kinds = accounts.map((a: { channel: string }) => a.channel);
    expect(new Set(kinds).size).toBeLessThan(kinds.length); // two accounts share a kind
    const account = JSON.parse(
      (await runSvc(['channels', 'get', accounts[0].id, '--json'], { env: envFor(emu) })).stdout,
    );
    expect(account.id).toBe(accounts[0].id);
    expect(account).toHaveProperty('sync');
    const policies = await runSvc(['channels', 'policies', accounts[0].id, '--json'], { env: envFor(emu) });
    expect(policies.code).toBe(0);
    expect(Array.isArray(JSON.parse(policies.stdout))).toBe(true);
    const [product] = await crawl('/products');
    const got = JSON.parse(
      (await runSvc(['products', 'get', String(product.id), '--json'], { env: envFor(emu) })).stdout,
    );
    expect(got.id).toBe(product.id);
  });

  it('tsv when piped, with a header and one line per item', async () => {
    const result = await runSvc(['operations', 'list', '--limit', '5'], { env: envFor(emu) });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0].split('\t')).toContain('status');
    expect(lines).toHaveLength(6);
  });

  it('--fields keeps only the named fields in json and the columns in csv', async () => {
    const json = await runSvc(['orders', 'list', '--limit', '2', '--json', '--fields', 'id,buyer.country'], {
      env: envFor(emu),
    });
    for (const order of JSON.parse(json.stdout)) expect(Object.keys(order).sort()).toEqual(['buyer', 'id']);
    const csv = await runSvc(['events', 'list', '--limit', '2', '-o', 'csv', '--fields', 'id,type'], {
      env: envFor(emu),
    });
    expect(csv.stdout.split('\n')[0]).toBe('id,type');
  });

  it('status and health need no key', async () => {
    const env = { SVC_BASE_URL: emu.url, SVC_API_KEY: undefined };
    const status = await runSvc(['status', '--json'], { env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).state).toBe('operational');
    const health = await runSvc(['health', '--json'], { env });
    expect(JSON.parse(health.stdout).status).toBe('ok');
  });
});
