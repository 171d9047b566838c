/**
 * One record on stdout without a terminal reads as `gh` prints one: a `field<TAB>value` line
 * per field (nested as dot paths, lists comma-joined), so `grep` and `cut -f2` work on it;
 * lists stay tsv with a header row, and -o tsv, -o csv and --json stay as asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
afterAll(() => emu.close());

/** Every line is one field and its value. */
function pairs(stdout: string): Map<string, string> {
  const lines = stdout.trimEnd().split('\n');
  for (const line of lines) expect(line.split('\t'), line).toHaveLength(2);
  return new Map(lines.map((line) => line.split('\t') as [string, string]));
}

describe('one record piped', () => {
  it('auth status: a line per field, the quota among them', async () => {
    const result = await runSvc(['auth', 'status'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    const fields = pairs(result.stdout);
    expect(fields.get('key_source')).toBe('SVC_API_KEY');
    expect([...fields.keys()].some((field) => field.startsWith('write_quota'))).toBe(true);
    expect(result.stdout.split('\n').filter((line) => line.includes('quota')).length).toBeGreaterThan(0);
  });

  it('orders get: cut -f2 gives the values; lines flattened, comma-joined', async () => {
    const order = [...emu.store.orders.values()].find((candidate) => candidate.lines.length > 1);
    if (!order) throw new Error('no order with two lines in the seed');
    const result = await runSvc(['orders', 'get', order.id], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    const fields = pairs(result.stdout);
    expect(fields.get('id')).toBe(order.id);
    expect(fields.get('status')).toBe(order.status);
    expect(fields.get('lines.sku')).toBe(order.lines.map((line) => line.sku).join(','));
    const values = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t')[1]);
    expect(values[0]).toBe(order.id);
  });

  it('quota and doctor print field<TAB>value lines too', async () => {
    const quota = await runSvc(['quota'], { env: envFor(emu) });
    expect(quota.code, quota.stderr).toBe(0);
    expect(pairs(quota.stdout).get('spent')).toBe('0');
    const doctor = await runSvc(['doctor'], { env: envFor(emu) });
    expect(pairs(doctor.stdout).get('key')).toMatch(/^ok: /);
    expect(doctor.stderr).toMatch(/nothing failed|to look at|failed,/);
  });

  it('-o tsv, -o csv and --json stay as they were', async () => {
    const order = [...emu.store.orders.values()][0];
    const get = ['orders', 'get', order?.id ?? ''];
    const env = envFor(emu);
    const tsv = await runSvc([...get, '-o', 'tsv', '--fields', 'id,status'], { env });
    expect(tsv.stdout).toBe(`id\tstatus\n${order?.id}\t${order?.status}\n`);
    const csv = await runSvc([...get, '-o', 'csv', '--fields', 'id,status'], { env });
    expect(csv.stdout.split('\n')[0]).toBe('id,status');
    const json = await runSvc([...get, '--json'], { env });
    expect(JSON.parse(json.stdout).id).toBe(order?.id);
  });

  it('a list stays tsv with a header row', async () => {
    const result = await runSvc(['orders', 'list', '--fields', 'id,status', '--limit', '2'], {
      env: envFor(emu),
    });
    expect(result.stdout.split('\n')[0]).toBe('id\tstatus');
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(3);
  });
});
