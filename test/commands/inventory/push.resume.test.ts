/**
 * `inventory push` stops and resumes in ways a script can rely on: resume semantics, journal
 * validation, one run per file and store, what is sent is what was checked, and no leftovers.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { misbehavingServer, sendJson } from '../../helpers/misbehaving-server.js';
import { call } from '../../helpers/service-api.js';
import { freshConfigDir, runSvc } from '../../helpers/svc.js';
import { batches, scratch, sentBatches, stock } from './push-stock.js';

/** Rate limits off: these tests are about stopping and resuming, not pacing. */
const start = emulatorPerTest({ rateLimit: false });

const journalsIn = (configDir: string) => {
  const folder = join(configDir, 'journals');
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')) : [];
};

/** A push of 100 SKUs that the write quota stops after 6 batches of 10 (exit 5); the next day has begun. */
async function stoppedPush(extra: string[] = []) {
  const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
  const emu = await start({ writeQuota: 6, clock });
  const file = stock(emu, 100, extra.includes('--map') ? 'Item,Qty' : 'sku,quantity');
  const env = envFor(emu);
  const first = await runSvc(['inventory', 'push', file.path, '--batch-size', '10', ...extra], { env });
  expect(first.code, first.stderr).toBe(5);
  // svc's own words, the reset said once and exactly (the service's message says it too).
  expect(first.stderr).toMatch(/quota is used up; it resets at /);
  expect(first.stderr).not.toContain('.;');
  clock.advance(24 * 3_600_000);
  return { emu, env, file };
}
describe('--resume a script can always pass', () => {
  it('with no journal pushes the whole file and says so (exit 0)', async () => {
    const emu = await start();
    const file = stock(emu, 30);
    const result = await runSvc(['inventory', 'push', file.path, '--resume'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/No interrupted push of .* to resume; pushing the whole file/);
    expect(file.matches()).toBe(true);
  });

  it('of a file that changed since pushes the new content whole, saying so', async () => {
    const { emu, env, file } = await stoppedPush();
    writeFileSync(file.path, `${file.text}${emu.store.allSkus()[150]},4\n`);
    const before = sentBatches(emu);
    const resumed = await runSvc(['inventory', 'push', file.path, '--batch-size', '10', '--resume'], { env });
    expect(resumed.stderr).toMatch(/changed since the interrupted push of .*; pushing the whole file/);
    // The whole new file, from its first batch, as far as the day's quota goes.
    expect(resumed.code, resumed.stderr).toBe(5);
    expect(resumed.stderr).toMatch(/stopped with 6 of 11 batches confirmed/);
    expect(sentBatches(emu) - before).toBe(6);
  });

  it('--resume --dry-run plans only the unconfirmed batches', async () => {
    const { env, file } = await stoppedPush();
    const plan = await runSvc(['inventory', 'push', file.path, '--resume', '--dry-run', '--json'], { env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ requests: 4, write_quota: 4, confirmed_batches: 6 });
  });

  it('records --map: a resume with another map (or none) is refused naming both (exit 2)', async () => {
    const { emu, env, file } = await stoppedPush(['--map', 'sku=Item,quantity=Qty']);
    const before = emu.requests(batches).length;
    const other = await runSvc(
      ['inventory', 'push', file.path, '--resume', '--map', 'quantity=Qty,sku=Item', '--yes'],
      { env },
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--map sku=Item,quantity=Qty.*--map quantity=Qty,sku=Item/);
    expect(emu.requests(batches).length).toBe(before);
    const same = await runSvc(
      ['inventory', 'push', file.path, '--resume', '--map', 'sku=Item,quantity=Qty'],
      {
        env,
      },
    );
    expect(same.code, same.stderr).toBe(0);
    expect(emu.requests(batches).length - before).toBe(4);
    expect(file.matches()).toBe(true);
  });

  for (const [damage, edit] of [
    ['batch_size 0', (j: Record<string, unknown>) => ({ ...j, batch_size: 0 })],
    ['a range beyond the file', (j: Record<string, unknown>) => ({ ...j, confirmed: [[0, 2_000_000_000]] })],
    ['null', () => null],
  ] as const) {
    it(`a journal with ${damage} is refused on --resume with the way out (exit 2), and replaced without it`, async () => {
      const { emu, env, file } = await stoppedPush();
      const [name] = journalsIn(env.SVC_CONFIG_DIR);
      const journalPath = join(env.SVC_CONFIG_DIR, 'journals', name);
      writeFileSync(journalPath, JSON.stringify(edit(JSON.parse(readFileSync(journalPath, 'utf8')))));
      const before = sentBatches(emu);
      const resumed = await runSvc(['inventory', 'push', file.path, '--resume'], { env });
      expect(resumed.code, resumed.stderr).toBe(2);
      expect(resumed.stderr).toMatch(/resume journal .* is damaged .*run without --resume/);
      expect(sentBatches(emu)).toBe(before);
      const whole = await runSvc(['inventory', 'push', file.path, '--batch-size', '10'], { env });
      expect(whole.stderr).toMatch(/resume journal .* is damaged .*; starting over/);
      expect(whole.code, whole.stderr).toBe(5);
      expect(sentBatches(emu) - before).toBe(6);
      const replaced = JSON.parse(readFileSync(journalPath, 'utf8'));
      expect(replaced).toMatchObject({ batch_size: 10, total_batches: 10 });
      // Which six batches the quota let through depends on the order concurrent requests arrive.
      const journaled = replaced.confirmed.reduce((n: number, [a, b]: [number, number]) => n + b - a + 1, 0);
      expect(journaled).toBe(6);
    });
  }
});

describe('a resumed run accounts for every row', () => {
  it('rows the interrupted run confirmed are skipped (not "not sent"), and the report has every row', async () => {
    const { env, file } = await stoppedPush();
    const report = join(scratch(), 'report.csv');
    const args = ['inventory', 'push', file.path, '--batch-size', '10', '--resume', '--report', report];
    const resumed = await runSvc(args, { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/Pushed 40 of 100 SKUs in 4 requests .*: 40 updated, 60 skipped$/m);
    expect(resumed.stderr).not.toMatch(/not sent/);
    const rows = readFileSync(report, 'utf8').trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(100);
    expect(rows.filter((row) => row.includes(',skipped,'))).toHaveLength(60);
    expect(rows.find((row) => row.includes(',skipped,'))).toMatch(/confirmed by the interrupted push/);
    expect(file.matches()).toBe(true);
  });

  it('the same in the JSON summary of a changed-only resume', async () => {
    const { emu, env, file } = await stoppedPush(['--changed-only']);
    const resumed = await runSvc(
      ['inventory', 'push', file.path, '--batch-size', '10', '--changed-only', '--resume', '--json'],
      { env },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout);
    expect(summary).toMatchObject({ total: 100, skipped: 60 });
    expect(summary.updated + summary.unchanged).toBe(40);
    expect(summary.not_sent).toBe(0);
    expect(file.matches()).toBe(true);
    expect(emu.requests({ ...batches, status: 200 })).toHaveLength(10);
  });
});

describe('journals are kept per store', () => {
  it('two keys on one service never share a journal, even when they look alike masked; none holds the key', async () => {
    // Every write is refused on the quota: each run starts its journal, then stops (exit 5).
    const server = await misbehavingServer((_req, res) =>
      sendJson(
        res,
        429,
        { error: { type: 'rate_limit_error', code: 'write_quota_exceeded', message: 'Quota used up.' } },
        { 'retry-after': '3600' },
      ),
    );
    try {
      const path = join(scratch(), 'stock.csv');
      writeFileSync(path, 'sku,quantity\nA-1,1\nA-2,2\n');
      const configDir = freshConfigDir();
      // Same prefix and last four characters: the same masked form, two different stores.
      const keys = ['svc_live_storeOne0000000001234', 'svc_live_storeTwo0000000001234'];
      for (const key of keys) {
        const result = await runSvc(['inventory', 'push', path], {
          env: { SVC_BASE_URL: server.url, SVC_API_KEY: key, SVC_CONFIG_DIR: configDir },
        });
        expect(result.code, result.stderr).toBe(5);
      }
      const names = journalsIn(configDir);
      expect(names).toHaveLength(2);
      for (const name of names) {
        const text = readFileSync(join(configDir, 'journals', name), 'utf8');
        for (const key of keys) expect(text).not.toContain(key.slice(9));
      }
    } finally {
      await server.close();
    }
  });
});

describe('one push per file and store at a time', () => {
  it('a second push while the first runs refuses naming its pid (exit 2); the first finishes', async () => {
    const emu = await start();
    const file = stock(emu, 200);
    // The first push's batches are held until the second has ended, however long a process
    // takes to start on a loaded machine; then the first finishes at full speed.
    let release = () => {};
    const secondEnded = new Promise<void>((resolve) => {
      release = resolve;
    });
    emu.faults.inject({ ...batches, kind: 'delay', delayMs: 25_000, until: secondEnded, times: 100_000 });
    const env = envFor(emu);
    let second: Awaited<ReturnType<typeof runSvc>> | undefined;
    let secondRun: Promise<unknown> | undefined;
    // Two processes: the lock names the pid that holds it.
    const first = await runSvc(['inventory', 'push', file.path, '--batch-size', '10'], {
      env,
      process: true,
      actWhen: {
        // The first batch has arrived (and is held): the first push holds its lock.
        when: () => emu.requests(batches).length >= 1,
        act: () => {
          secondRun = runSvc(['inventory', 'push', file.path, '--batch-size', '10'], {
            env,
            process: true,
          }).then((r) => {
            second = r;
            emu.faults.clear();
            release();
          });
        },
      },
    });
    await secondRun;
    expect(first.code, first.stderr).toBe(0);
    expect(second?.code, second?.stderr).toBe(2);
    expect(second?.stderr).toMatch(/another push of .* is running \(pid \d+ on /);
    expect(second?.stderr).not.toMatch(/an interrupted push .* exists/);
    expect(sentBatches(emu)).toBe(20);
    expect(file.matches()).toBe(true);
  });

  it("a killed run's lock does not hold: --resume finishes the file", async () => {
    const emu = await start();
    const file = stock(emu, 200);
    emu.faults.inject({ ...batches, kind: 'delay', delayMs: 200, times: 100_000 });
    const env = envFor(emu);
    const killed = await runSvc(['inventory', 'push', file.path, '--batch-size', '10'], {
      env,
      signalWhen: { signal: 'SIGKILL', when: () => sentBatches(emu) >= 9 },
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(readdirSync(join(env.SVC_CONFIG_DIR, 'journals')).some((n) => n.endsWith('.lock'))).toBe(true);
    const resumed = await runSvc(['inventory', 'push', file.path, '--batch-size', '10', '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/Resuming: \d+ of 20 batches/);
    expect(file.matches()).toBe(true);
    expect(readdirSync(join(env.SVC_CONFIG_DIR, 'journals'))).toEqual([]);
  });
});

describe('what is sent is what was checked', () => {
  it('a file replaced during the push: the checked rows are sent, all of them (exit 0)', async () => {
    const emu = await start();
    // Rows padded with an ignored column: some 400 KB, far more than one read of the file.
    const file = stock(emu, 200, 'sku,quantity', (i) => i % 89);
    const padded = file.text
      .split('\n')
      .map((line, i) => (line === '' ? line : `${line},${i === 0 ? 'note' : 'n'.repeat(2000)}`))
      .join('\n');
    writeFileSync(file.path, padded);
    const small = join(scratch(), 'small.csv');
    writeFileSync(small, 'sku,quantity,note\nNOT-CHECKED,1,\n');
    emu.faults.inject({ ...batches, kind: 'delay', delayMs: 100, times: 100_000 });
    const result = await runSvc(['inventory', 'push', file.path, '--batch-size', '10'], {
      env: envFor(emu),
      actWhen: { when: () => emu.requests(batches).length >= 3, act: () => copyFileSync(small, file.path) },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(sentBatches(emu)).toBe(20);
    expect(file.matches()).toBe(true);
  });
});

describe('standard input leaves nothing behind', () => {
  it('a finished `push -` leaves no spool in the temp dir', async () => {
    const emu = await start();
    const file = stock(emu, 30);
    const temp = scratch();
    const result = await runSvc(['inventory', 'push', '-'], {
      env: { ...envFor(emu), TMPDIR: temp },
      stdin: file.text,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(file.matches()).toBe(true);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('an interrupted `push -` keeps its checked copy beside the journal and names it in the resume command', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    const emu = await start({ writeQuota: 6, clock });
    const file = stock(emu, 100);
    const temp = scratch();
    const env = { ...envFor(emu), TMPDIR: temp };
    const first = await runSvc(['inventory', 'push', '-', '--batch-size', '10'], { env, stdin: file.text });
    const configDir = (env as Record<string, string>).SVC_CONFIG_DIR;
    expect(first.code, first.stderr).toBe(5);
    expect(readdirSync(temp)).toEqual([]);
    const command = /`svc inventory push (\S+) --batch-size 10 --resume`/.exec(first.stderr);
    expect(command, first.stderr).not.toBeNull();
    expect(command?.[1].startsWith(join(configDir, 'journals'))).toBe(true);
    clock.advance(24 * 3_600_000);
    const resumed = await runSvc(
      ['inventory', 'push', command?.[1] ?? '', '--batch-size', '10', '--resume'],
      {
        env,
      },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(emu.requests(batches).filter((r) => r.status === 200)).toHaveLength(10);
    expect(file.matches()).toBe(true);
    expect(readdirSync(join(configDir, 'journals'))).toEqual([]);
  });
});

describe('smaller leftovers', () => {
  it('a SKU cell of megabytes is a line error (exit 2), nothing sent', async () => {
    const emu = await start();
    const path = join(scratch(), 'huge-cell.csv');
    writeFileSync(path, `sku,quantity\n${emu.store.allSkus()[0]},1\n${'X'.repeat(3 << 20)},1\n`);
    const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
    expect(result.code, result.stderr.slice(0, 300)).toBe(2);
    expect(result.stderr).toMatch(/line 3\b/);
    expect(result.stderr.length).toBeLessThan(2000);
    expect(emu.requests(batches)).toHaveLength(0);
  });

  it('a reader that closes stderr mid-push does not turn a finished push into a failure', async () => {
    const emu = await start();
    const file = stock(emu, 200);
    const result = await runSvc(['inventory', 'push', file.path, '--batch-size', '10'], {
      env: envFor(emu),
      closeStderrEarly: true,
    });
    expect(result.code).toBe(0);
    expect(sentBatches(emu)).toBe(20);
    expect(file.matches()).toBe(true);
  });
});

describe('how the file was read survives a stop', () => {
  it('a Latin-1 `push -` with --ignore stops on the quota; the printed resume repeats both flags and finishes', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    const emu = await start({ writeQuota: 7, clock });
    const created = await call(emu, 'POST', '/products', {
      body: { title: 'Café', variants: [{ sku: 'CAFÉ-1', price: '3.00', quantity: 1 }] },
    });
    expect(created.status).toBe(201);
    const skus = emu.store
      .allSkus()
      .filter((sku) => sku !== 'CAFÉ-1')
      .slice(0, 99);
    // Excel on Windows: Windows-1252 bytes, \r\n, and a left-over column that looks like quantity.
    const rows = [...skus.map((sku, i) => `${sku},${i % 89},old`), 'CAFÉ-1,42,old'];
    const bytes = Buffer.from(`sku,quantity,Qty\r\n${rows.join('\r\n')}\r\n`, 'latin1');
    const env = { ...envFor(emu), TMPDIR: scratch() };
    const flags = ['--batch-size', '10', '--ignore', 'Qty', '--encoding', 'latin1'];
    const first = await runSvc(['inventory', 'push', '-', ...flags], { env, stdin: bytes });
    expect(first.code, first.stderr).toBe(5);
    const command = /`svc inventory push (\S+) --batch-size 10 --ignore Qty --encoding latin1 --resume`/.exec(
      first.stderr,
    );
    expect(command, first.stderr).not.toBeNull();
    clock.advance(24 * 3_600_000);
    const resumed = await runSvc(['inventory', 'push', command?.[1] ?? '', ...flags, '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/Resuming: \d+ of 10 batches/);
    expect(emu.store.inventoryBySku('CAFÉ-1')).toMatchObject({ quantity: 42 });
    expect(skus.every((sku, i) => emu.store.inventoryBySku(sku)?.quantity === i % 89)).toBe(true);
  });

  it('records --encoding: a resume with another encoding is refused naming both (exit 2)', async () => {
    const { emu, env, file } = await stoppedPush();
    const before = emu.requests(batches).length;
    const other = await runSvc(['inventory', 'push', file.path, '--resume', '--encoding', 'latin1'], { env });
    expect(other.code, other.stderr).toBe(2);
    expect(other.stderr).toMatch(/read it as utf-8, this run as latin1; resume with --encoding utf-8/);
    expect(emu.requests(batches).length).toBe(before);
    const same = await runSvc(['inventory', 'push', file.path, '--resume', '--encoding', 'UTF8'], { env });
    expect(same.code, same.stderr).toBe(0);
    expect(emu.requests(batches).length - before).toBe(4);
    expect(file.matches()).toBe(true);
  });

  it('--wait names each channel refusal by its line in the checked copy, even if the file was replaced', async () => {
    const emu = await start({ channelDelayMs: 100, channelFailureShare: 1 });
    const file = stock(emu, 150);
    const lineOf = new Map(file.skus.map((sku, i) => [sku, i + 2]));
    // The same SKUs in the opposite order: every line number would be wrong if read from it.
    const reversed = `sku,quantity\n${[...file.text.trim().split('\n').slice(1)].reverse().join('\n')}\n`;
    emu.faults.inject({ ...batches, kind: 'delay', delayMs: 100, times: 100_000 });
    const report = join(scratch(), 'report.csv');
    const result = await runSvc(
      ['inventory', 'push', file.path, '--batch-size', '10', '--wait', '--timeout', '30', '--report', report],
      {
        env: envFor(emu),
        actWhen: {
          when: () => emu.requests(batches).length >= 3,
          act: () => writeFileSync(file.path, reversed),
        },
      },
    );
    expect(result.code, result.stderr).toBe(3);
    expect(readFileSync(file.path, 'utf8')).toBe(reversed);
    const refusals = readFileSync(report, 'utf8')
      .trim()
      .split('\r\n')
      .filter((row) => /^\d+,[^,]+,failed,/.test(row))
      .map((row) => row.split(','));
    expect(refusals.length).toBeGreaterThan(10);
    for (const [line, sku] of refusals) expect(Number(line), sku).toBe(lineOf.get(sku));
  });
});
