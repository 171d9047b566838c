/**
 * The daily write quota in sight: svc counts the units of write requests the service accepted
 * on a key, per UTC day, for every svc process of the machine (docs/guide.md, The daily write quota in sight), and
 * shows the count in `svc quota`, `auth status`, `doctor` and each live bulk plan.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest } from '../helpers/emulator.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest({ products: 30, channelDelayMs: 0 });

/** A stock file of `count` seeded SKUs from `offset` on, each set to a new quantity. */
function stockFile(emu: RunningEmulator, offset: number, count: number): string {
  const skus = emu.store.allSkus().slice(offset, offset + count);
  const path = join(tempDir('svc-quota-'), 'stock.csv');
  writeFileSync(path, `sku,quantity\n${skus.map((sku, i) => `${sku},${500 + offset + i}`).join('\n')}\n`);
  return path;
}

function envOf(emu: RunningEmulator, configDir: string, key: 'live' | 'test' = 'live') {
  return { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys[key], SVC_CONFIG_DIR: configDir };
}

/** `svc quota --json`, parsed. */
async function quota(env: Record<string, string>): Promise<Record<string, unknown>> {
  const result = await runSvc(['quota', '--json'], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

const today = () => new Date().toISOString().slice(0, 10);

describe('svc quota', () => {
  it('after two pushes from two processes on one config dir, shows their sum: what the service counted', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const results = await Promise.all(
      [stockFile(emu, 0, 5), stockFile(emu, 5, 7)].map((path) =>
        runSvc(['inventory', 'push', path, '--batch-size', '2'], {
          env: envOf(emu, configDir),
          process: true,
        }),
      ),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(emu.writeQuotaUsed()).toBe(3 + 4);
    const shown = await quota(envOf(emu, configDir));
    expect(shown).toMatchObject({ spent: 7, day: today(), counted_by: 'svc', counted_on: 'this machine' });
    expect(String(shown.resets_at)).toMatch(/T00:00:00\.000Z$/);
    const text = await runSvc(['quota', '-o', 'table'], { env: envOf(emu, configDir) });
    expect(text.stdout).toMatch(
      /svc has spent 7 units of daily write quota today \(\d{4}-\d\d-\d\d UTC\) on this key/,
    );
    expect(text.stdout).toContain('counted by svc on this machine');
  });

  it("the count lives in the user's state dir under a hash, never the key", async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const stateHome = freshConfigDir();
    const env = { ...envOf(emu, configDir), XDG_STATE_HOME: stateHome };
    const push = await runSvc(['inventory', 'push', stockFile(emu, 0, 3)], { env });
    expect(push.code, push.stderr).toBe(0);
    const dir = join(stateHome, 'svc', 'quota');
    const quotaFile = readdirSync(dir).find((name) => name.endsWith('.quota.json'));
    expect(quotaFile).toMatch(/^[0-9a-f]{32}\.quota\.json$/);
    const content = readFileSync(join(dir, quotaFile as string), 'utf8');
    expect(content).not.toContain(emu.keys.live);
    expect(JSON.parse(content)).toMatchObject({ day: today(), spent: 1 });
  });

  it("two config dirs on one machine and key: the second's plan counts the first's spending", async () => {
    const emu = await start();
    const stateHome = freshConfigDir();
    const first = { ...envOf(emu, freshConfigDir()), XDG_STATE_HOME: stateHome };
    const second = { ...envOf(emu, freshConfigDir()), XDG_STATE_HOME: stateHome };
    // Before anything is spent, the plan says what it cannot see.
    const empty = await runSvc(['inventory', 'push', stockFile(emu, 0, 2), '--dry-run'], { env: second });
    expect(empty.code, empty.stderr).toBe(0);
    expect(`${empty.stdout}${empty.stderr}`).toContain(
      'svc has counted 0 on this machine today; other machines are not counted without SVC_PACING_URL',
    );
    const push = await runSvc(['inventory', 'push', stockFile(emu, 0, 150)], { env: first });
    expect(push.code, push.stderr).toBe(0);
    expect(await quota(second)).toMatchObject({ spent: 2, this_machine: 2 });
    const plan = await runSvc(['inventory', 'push', stockFile(emu, 0, 2), '--dry-run'], { env: second });
    expect(`${plan.stdout}${plan.stderr}`).toContain('svc has spent 2 today on this key');
  });

  it('a dry run, a refused request, a test key and an idempotent replay spend nothing', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const env = envOf(emu, configDir);
    const dry = await runSvc(['inventory', 'push', stockFile(emu, 0, 4), '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    // Refused by the service: an unknown SKU.
    const refused = await runSvc(['inventory', 'set', 'NO-SUCH-SKU', '--quantity', '1'], { env });
    expect(refused.code).not.toBe(0);
    const test = await runSvc(['inventory', 'push', stockFile(emu, 4, 4)], {
      env: envOf(emu, configDir, 'test'),
    });
    expect(test.code, test.stderr).toBe(0);
    // The same write twice under one Idempotency-Key: the second answer is a replay.
    const sku = emu.store.allSkus()[10];
    const body = JSON.stringify({ items: [{ sku, quantity: 77 }] });
    for (let i = 0; i < 2; i += 1) {
      const sent = await runSvc(
        ['api', 'POST', '/inventory/batch', '-H', 'Idempotency-Key: once', '--input', '-'],
        {
          env,
          stdin: body,
        },
      );
      expect(sent.code, sent.stderr).toBe(0);
    }
    expect(emu.requests({ method: 'POST', path: '/inventory/batch' }).filter((r) => r.replayed)).toHaveLength(
      1,
    );
    expect(emu.writeQuotaUsed()).toBe(1);
    expect((await quota(env)).spent).toBe(1);
    expect((await quota(envOf(emu, configDir, 'test'))).spent).toBe(0);
  });

  it('a write the quota refused spends nothing', async () => {
    const emu = await start({ writeQuota: 2 });
    const env = envOf(emu, freshConfigDir());
    const push = await runSvc(['inventory', 'push', stockFile(emu, 0, 4), '--batch-size', '1'], { env });
    expect(push.code).toBe(5);
    expect(emu.requests({ status: 429 }).length).toBeGreaterThan(0);
    expect((await quota(env)).spent).toBe(2);
  });

  it('each live bulk plan says what svc has spent today on the key', async () => {
    const emu = await start();
    const env = envOf(emu, freshConfigDir());
    const first = await runSvc(['inventory', 'push', stockFile(emu, 0, 6), '--batch-size', '2'], { env });
    expect(first.code, first.stderr).toBe(0);
    const second = await runSvc(['inventory', 'push', stockFile(emu, 6, 2)], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('(1 unit of daily write quota; svc has spent 3 today on this key)');
  });

  it('auth status and doctor show the count', async () => {
    const emu = await start();
    const env = envOf(emu, freshConfigDir());
    const push = await runSvc(['inventory', 'push', stockFile(emu, 0, 4), '--batch-size', '2'], { env });
    expect(push.code, push.stderr).toBe(0);
    const status = await runSvc(['auth', 'status', '-o', 'table'], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(
      /^write quota {2}2 units spent today by svc on this key \(counted on this machine\)/m,
    );
    const json = JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout);
    expect(json.write_quota).toMatchObject({ spent: 2, counted_by: 'svc', counted_on: 'this machine' });
    const doctor = JSON.parse((await runSvc(['doctor', '--json'], { env })).stdout);
    const line = doctor.checks.find((check: { name: string }) => check.name === 'write quota');
    expect(line).toMatchObject({ status: 'ok' });
    expect(line.detail).toContain('svc has spent 2 units of daily write quota today on this key');
  });
});
