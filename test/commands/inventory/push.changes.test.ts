/**
 * `inventory push --changed-only`, `--backup` and the zeroing guard.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManualClock, type RunningEmulator } from '../../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';
import { batches, scratch, sentBatches } from './push-stock.js';
import { bumpQuantities, mismatches, snapshot, storeRows, writeRows } from './stock-rows.js';

/** Rate limits off: these tests are about stopping and resuming, not pacing. */
const start = emulatorPerTest({ rateLimit: false });

const productPages = (emu: RunningEmulator) => emu.requests({ method: 'GET', path: '/products' });

describe('inventory push --changed-only', () => {
  it('a 2,000-SKU file with 37 changes sends exactly 1 batch; the store ends equal to the file', async () => {
    const emu = await start({ products: 560 });
    const rows = storeRows(emu, 2000);
    bumpQuantities(rows, 500, 30);
    for (let i = 1500; i < 1507; i++) rows[i].price = (Number(rows[i].price) + 1).toFixed(2);
    const path = writeRows(rows);
    const report = join(scratch(), 'report.csv');
    const result = await runSvc(['inventory', 'push', path, '--changed-only', '--report', report, '--json'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(sentBatches(emu)).toBe(1);
    expect(emu.writeQuotaUsed()).toBe(1);
    const [sent] = emu.requests(batches);
    expect(sent).toBeDefined();
    expect(mismatches(emu, rows)).toEqual([]);
    expect(result.stderr).toMatch(
      /37 of 2,000 rows differ from the store \(1,963 unchanged\): 1 request instead of 20, 19 units of daily write quota saved/,
    );
    expect(JSON.parse(result.stdout)).toMatchObject({
      total: 2000,
      updated: 37,
      unchanged: 1963,
      requests: 1,
    });
    const lines = readFileSync(report, 'utf8').trim().split('\r\n');
    expect(lines).toHaveLength(2001);
  });

  it('--dry-run reads the store and plans only the changed rows; nothing is sent', async () => {
    const emu = await start();
    const rows = storeRows(emu, 150);
    bumpQuantities(rows, 0, 12);
    const result = await runSvc(
      ['inventory', 'push', writeRows(rows), '--changed-only', '--dry-run', '--json'],
      {
        env: envFor(emu),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      rows: 150,
      rows_to_send: 12,
      requests: 1,
      write_quota: 1,
    });
    expect(emu.requests({ method: 'POST' })).toEqual([]);
  });

  it('unknown SKUs fail without a request (exit 3), as a full push reports them', async () => {
    const emu = await start();
    const rows = storeRows(emu, 20);
    bumpQuantities(rows, 0, 2);
    rows.push({ sku: 'NOT-IN-STORE', quantity: 1, price: '1.00' });
    const result = await runSvc(['inventory', 'push', writeRows(rows), '--changed-only'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/line 22: NOT-IN-STORE: sku_not_found/);
    const sent = emu.requests(batches);
    expect(sent).toHaveLength(1);
    expect(mismatches(emu, rows.slice(0, 20))).toEqual([]);
  });

  it('with --wait follows the one operation of the changed rows', async () => {
    const emu = await start({ channelDelayMs: 50 });
    const rows = storeRows(emu, 120);
    bumpQuantities(rows, 7, 3);
    const result = await runSvc(['inventory', 'push', writeRows(rows), '--changed-only', '--wait'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(sentBatches(emu)).toBe(1);
    expect(result.stderr).toMatch(/The operation succeeded on the channels/);
  });

  it('a resume after a quota stop sends the rest of the same selection, never one made again', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    const emu = await start({ writeQuota: 2, clock, products: 120 });
    const rows = storeRows(emu, 400);
    bumpQuantities(rows, 100, 37);
    const path = writeRows(rows);
    const backup = join(scratch(), 'before.csv');
    const env = envFor(emu);
    const args = ['inventory', 'push', path, '--changed-only', '--batch-size', '10', '--backup', backup];
    const first = await runSvc(args, { env });
    expect(first.code, first.stderr).toBe(5);
    expect(sentBatches(emu)).toBe(2);
    expect(first.stderr).toContain('--changed-only --batch-size 10 --backup');
    expect(first.stderr).toMatch(/stopped with 2 of 4 batches confirmed; `svc inventory push .* --resume`/);
    const backupText = readFileSync(backup, 'utf8');
    expect(backupText.trim().split('\r\n')).toHaveLength(1 + 37);
    const journalDir = join(env.SVC_CONFIG_DIR, 'journals');
    expect(readdirSync(journalDir).filter((name) => name.endsWith('.selection.json'))).toHaveLength(1);

    // Without --changed-only the resume would send other rows: refused, nothing sent.
    const whole = await runSvc(['inventory', 'push', path, '--batch-size', '10', '--resume'], { env });
    expect(whole.code).toBe(2);
    expect(whole.stderr).toMatch(
      /sent only the rows that differed \(--changed-only\); resume with --changed-only/,
    );

    clock.advance(24 * 3_600_000);
    const pagesBefore = productPages(emu).length;
    const second = await runSvc([...args, '--resume'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/Resuming: 2 of 4 batches \(of 10\) of the 37 rows that differed/);
    // The selection came from the journal: no second read of a store the first run changed.
    expect(productPages(emu).length).toBe(pagesBefore);
    expect(sentBatches(emu)).toBe(4);
    expect(mismatches(emu, rows)).toEqual([]);
    // The first run's undo file stands.
    expect(readFileSync(backup, 'utf8')).toBe(backupText);
    expect(readdirSync(journalDir).filter((name) => name.endsWith('.json'))).toEqual([]);
  });
  it('compares and sends what was checked: a file replaced during the read changes nothing', async () => {
    const emu = await start();
    const rows = storeRows(emu, 60);
    bumpQuantities(rows, 0, 5);
    const path = writeRows(rows);
    const other = rows.map((row) => ({ ...row, quantity: row.quantity + 40 }));
    // The read's first page is held a moment, so the file is replaced while it runs.
    emu.faults.inject({ method: 'GET', path: '/products', kind: 'delay', delayMs: 500 });
    const result = await runSvc(['inventory', 'push', path, '--changed-only', '--json'], {
      env: envFor(emu),
      actWhen: {
        when: () => productPages(emu).length >= 1,
        act: () => writeFileSync(path, readFileSync(writeRows(other, 'other.csv'))),
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/5 of 60 rows differ from the store/);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 60, updated: 5, unchanged: 55 });
    expect(mismatches(emu, rows)).toEqual([]);
  });

  it('SIGTERM mid-push journals the selection; the printed resume sends the rest of the same rows', async () => {
    const emu = await start({ products: 120 });
    const rows = storeRows(emu, 400);
    bumpQuantities(rows, 50, 200);
    const path = writeRows(rows);
    // Every write is held 300 ms, well within the 2 s grace, so in-flight ones land.
    emu.faults.inject({ ...batches, kind: 'delay', delayMs: 300, times: 100_000 });
    const env = envFor(emu);
    const args = ['inventory', 'push', path, '--changed-only', '--batch-size', '10'];
    const first = await runSvc(args, {
      env,
      signalWhen: { signal: 'SIGTERM', when: () => emu.requests(batches).length >= 5 },
    });
    expect(first.code, first.stderr).toBe(143);
    const confirmed = sentBatches(emu);
    expect(confirmed).toBeGreaterThan(0);
    expect(confirmed).toBeLessThan(20);
    expect(first.stderr).toContain(`stopped with ${confirmed} of 20 batches confirmed`);
    emu.faults.clear();
    const second = await runSvc([...args, '--resume'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(sentBatches(emu)).toBe(20);
    expect(mismatches(emu, rows)).toEqual([]);
  });
});

describe('inventory push --backup', () => {
  it('the backup holds the values before the push; pushing it back restores every value', async () => {
    const emu = await start();
    const before = snapshot(emu);
    const rows = storeRows(emu, 200);
    bumpQuantities(rows, 0, 25);
    for (let i = 100; i < 110; i++) rows[i].price = '77.70';
    const path = writeRows(rows);
    const backup = join(scratch(), 'undo.csv');
    const env = envFor(emu);
    const push = await runSvc(['inventory', 'push', path, '--backup', backup], { env });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toMatch(/35 of 200 rows differ from the store .*; all 200 are sent in 2 requests/);
    expect(mismatches(emu, rows)).toEqual([]);
    expect(readFileSync(backup, 'utf8').split('\r\n')[0]).toBe('sku,quantity,price');

    const undo = await runSvc(['inventory', 'push', backup, '--changed-only'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(snapshot(emu)).toEqual(before);
  });

  it('a push that changes nothing does not offer an undo that cannot run', async () => {
    const emu = await start();
    const path = writeRows(storeRows(emu, 20));
    const backup = join(scratch(), 'undo.csv');
    const push = await runSvc(['inventory', 'push', path, '--changed-only', '--backup', backup], {
      env: envFor(emu),
    });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain(
      `this push changes no SKU, so there is nothing to undo; ${backup} holds only the header`,
    );
    expect(push.stderr).not.toMatch(/undoes it/);
    expect(readFileSync(backup, 'utf8')).toBe('sku,quantity,price\r\n');
  });

  it('a resume will not take a new backup of a store the first run changed (exit 2)', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    const emu = await start({ writeQuota: 2, clock });
    const rows = storeRows(emu, 30);
    bumpQuantities(rows, 0, 30);
    const path = writeRows(rows);
    const env = envFor(emu);
    const first = await runSvc(['inventory', 'push', path, '--changed-only', '--batch-size', '10'], { env });
    expect(first.code).toBe(5);
    clock.advance(24 * 3_600_000);
    const backup = join(scratch(), 'late.csv');
    const args = ['inventory', 'push', path, '--changed-only', '--batch-size', '10', '--resume'];
    const refused = await runSvc([...args, '--backup', backup], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/took no backup, and the store already holds part of it/);
    expect(existsSync(backup)).toBe(false);
    const resumed = await runSvc(args, { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(mismatches(emu, rows)).toEqual([]);
  });
});

describe('the zeroing guard', () => {
  it('exact with --changed-only: refuses without a terminal naming the count (exit 2, nothing sent); --allow-zeroing goes on', async () => {
    const emu = await start();
    const rows = storeRows(emu, 100).map((row) => ({ ...row, quantity: row.quantity + 1 }));
    for (const row of rows) emu.store.setInventory(row.sku, { quantity: row.quantity });
    const file = rows.map((row, i) => ({ ...row, quantity: i < 30 ? 0 : row.quantity }));
    const path = writeRows(file);
    const env = envFor(emu);
    const refused = await runSvc(['inventory', 'push', path, '--changed-only'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /would set 30 of 100 SKUs \(30%\) to quantity 0, more than 20%; nothing was sent.*--allow-zeroing/,
    );
    expect(emu.requests({ method: 'POST' })).toEqual([]);
    // --yes answers confirmations, not this.
    const yes = await runSvc(['inventory', 'push', path, '--changed-only', '--yes'], { env });
    expect(yes.code).toBe(2);

    const allowed = await runSvc(['inventory', 'push', path, '--changed-only', '--allow-zeroing'], { env });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toMatch(/going on \(--allow-zeroing\)/);
    expect(mismatches(emu, file)).toEqual([]);
  });

  it('counted from the live read, a small file zeroing most of its in-stock SKUs stops too', async () => {
    const emu = await start();
    const rows = storeRows(emu, 32).map((row) => ({ ...row, quantity: row.quantity + 1 }));
    for (const row of rows) emu.store.setInventory(row.sku, { quantity: row.quantity });
    const path = writeRows(rows.map((row, i) => ({ ...row, quantity: i < 20 ? 0 : row.quantity })));
    const refused = await runSvc(['inventory', 'push', path, '--changed-only'], { env: envFor(emu) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/would set 20 of 32 SKUs \(63%\) to quantity 0/);
    expect(emu.requests({ method: 'POST' })).toEqual([]);
  });

  it('judged on the file without a read: more than 20% of at least 50 rows at 0 stops a full push', async () => {
    const emu = await start();
    const positive = storeRows(emu, 60).map((row) => ({ ...row, quantity: row.quantity + 1 }));
    const zeroFirst = (count: number) =>
      positive.map((row, i) => ({ ...row, quantity: i < count ? 0 : row.quantity }));
    const rows = zeroFirst(13);
    const env = envFor(emu);
    const refused = await runSvc(['inventory', 'push', writeRows(rows)], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/13 of 60 rows of the file \(22%\) set quantity 0/);
    expect(emu.requests({ method: 'POST' })).toEqual([]);
    // A smaller share, or a small file, passes.
    expect((await runSvc(['inventory', 'push', writeRows(zeroFirst(12))], { env })).code).toBe(0);
    const small = rows.slice(0, 49).map((row) => ({ ...row, quantity: 0 }));
    expect((await runSvc(['inventory', 'push', writeRows(small)], { env })).code).toBe(0);
  });
});
