/**
 * `inventory push` stops and resumes in ways a script can rely on: resume semantics, journal
 * validation, one run per file and store, what is sent is what was checked, and no leftovers.
 * It reads the files operators have: headers in their own words and languages read as the
 * fields they name, number formats from spreadsheets refused with the fix, and a file Excel
 * saved in its Western code page read as such; and at scale, a report of a long push that holds
 * every row in input order, written from outcomes streamed as they settle. Then the push itself:
 * faults, bad files, the quota and --resume, --wait on the channels, --changed-only, --backup,
 * the zeroing guard, files that are not what they seem, and the question asked at a terminal.
 */
import {
  copyFileSync,
  createReadStream,
  existsSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock, type RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { KEYS, plainText, runAtKeyboard } from '../../helpers/keyboard.js';
import { misbehavingServer, sendJson } from '../../helpers/misbehaving-server.js';
import { freshConfigDir, runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { bumpQuantities, mismatches, snapshot, storeRows, writeRows } from './stock-rows.js';

/** Rate limits off: these tests are about stopping and resuming, not pacing. */
const start = emulatorPerTest({ rateLimit: false });

const scratch = () => tempDir('svc-resume-');
const batches = { method: 'POST', path: '/inventory/batch' } as const;
const sentBatches = (emu: RunningEmulator) => emu.requests({ ...batches, status: 200 }).length;

/** `count` seeded SKUs set to `quantity(i)`, as a CSV with the given header names. */
function stock(
  emu: RunningEmulator,
  count: number,
  header = 'sku,quantity',
  quantity = (i: number) => i % 89,
) {
  const skus = emu.store.allSkus().slice(0, count);
  expect(skus).toHaveLength(count);
  const path = join(scratch(), 'stock.csv');
  const text = `${header}\n${skus.map((sku, i) => `${sku},${quantity(i)}`).join('\n')}\n`;
  writeFileSync(path, text);
  const matches = () => skus.every((sku, i) => emu.store.inventoryBySku(sku)?.quantity === quantity(i));
  return { path, text, skus, matches };
}

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
        when: () => emu.requests(batches).length >= 2,
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
    const created = await fetch(`${emu.url}/rest/v1/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.live}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Café', variants: [{ sku: 'CAFÉ-1', price: '3.00', quantity: 1 }] }),
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

describe('inventory push with the files operators have', () => {
  let shared: RunningEmulator;
  beforeAll(async () => {
    shared = await emulator({ rateLimit: false, orders: 5, products: 10 });
  });
  beforeEach(() => shared.reset());
  afterAll(() => shared.close());

  /** Writes `content` (text or raw bytes) to a fresh file and returns its path. */
  const file = (name: string, content: string | Buffer): string => {
    const path = join(tempDir('svc-push-'), name);
    writeFileSync(path, content);
    return path;
  };
  const posted = () => shared.requests(batches);
  const push = (path: string, ...more: string[]) =>
    runSvc(['inventory', 'push', path, ...more], { env: envFor(shared) });

  describe('inventory push: headers it knows, it reads', () => {
    it('Item SKU, Qty and Preis are read as sku, quantity and price, with a notice', async () => {
      const [a, b] = shared.store.allSkus();
      const result = await push(file('stock.csv', `Item SKU,Qty,Preis\n${a},5,9.99\n${b},7,4.50\n`));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        'Columns: sku from "Item SKU", quantity from "Qty", price from "Preis".',
      );
      expect(shared.store.inventoryBySku(a)).toMatchObject({ quantity: 5, price: '9.99' });
    });

    it('Bestand and Quantité too; two candidates for one field is an error naming both and the --map', async () => {
      const [a] = shared.store.allSkus();
      const german = await push(file('de.csv', `SKU;Bestand\n${a};3\n`), '--dry-run');
      expect(german.code, german.stderr).toBe(0);
      expect(german.stderr).toContain('quantity from "Bestand"');
      const french = await push(file('fr.csv', `SKU;Quantité;Prix\n${a};3;2,50\n`), '--dry-run');
      expect(french.code, french.stderr).toBe(0);
      expect(french.stderr).toContain('quantity from "Quantité", price from "Prix"');
      const two = await push(file('two.csv', `SKU,Qty,Stock\n${a},1,2\n`));
      expect(two.code).toBe(2);
      expect(two.stderr).toContain('both "Qty" and "Stock" could be read as quantity');
      expect(two.stderr).toContain('--map quantity=Qty');
      expect(posted()).toEqual([]);
    });

    it('no column read as sku: the error quotes the header and the --map to write', async () => {
      const [a] = shared.store.allSkus();
      const result = await push(file('own.csv', `Artikel,Menge\n${a},3\n`));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('no column is read as sku; the header has "Artikel", "Menge"');
      expect(result.stderr).toContain('--map sku=Artikel');
    });
  });

  describe('inventory push: a file Excel saved in its own code page', () => {
    it('Windows-1252 with ö in an ignored column and in the title column is read, with a notice naming --encoding', async () => {
      const [a, b] = shared.store.allSkus();
      const path = file(
        'excel.csv',
        Buffer.concat([
          Buffer.from(`sku;title;quantity;Bemerkung\r\n${a};M`),
          Buffer.from([0xfc]), // ü
          Buffer.from(`sli;4;sch`),
          Buffer.from([0xf6]), // ö
          Buffer.from(`n\r\n${b};K`),
          Buffer.from([0xf6]),
          Buffer.from(`rbchen;6;\r\n`),
        ]),
      );
      const result = await push(path);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('is not UTF-8 but reads as Windows-1252');
      expect(result.stderr).toContain('--encoding');
      expect(shared.store.inventoryBySku(a)?.quantity).toBe(4);
      expect(shared.store.inventoryBySku(b)?.quantity).toBe(6);
    });

    it('UTF-16 with or without a byte order mark is refused by name', async () => {
      const [a] = shared.store.allSkus();
      const text = `sku,quantity\n${a},1\n`;
      const withBom = await push(
        file('bom.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])),
      );
      expect(withBom.code).toBe(2);
      expect(withBom.stderr).toContain('UTF-16');
      const bare = await push(file('bare.csv', Buffer.from(text, 'utf16le')));
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain('is UTF-16 text');
      expect(posted()).toEqual([]);
    });
  });

  describe('inventory push: number formats from Google Sheets and Excel are named, with the fix', () => {
    it('$28.37, 28,37 €, 1,200 and 1.234,56 are refused, each message saying what to do', async () => {
      const [a, b, c] = shared.store.allSkus();
      const comma = await push(
        file('sheets.csv', `sku,price,quantity\n${a},$28.37,1\n${b},"1,200",2\n${c},5,"1,200"\n`),
      );
      expect(comma.code).toBe(2);
      expect(comma.stderr).toContain(
        'line 2: price "$28.37" holds a currency sign: remove the currency sign (format the column as Number)',
      );
      expect(comma.stderr).toContain(
        'line 3: price "1,200" looks like a thousands separator: remove the thousands separator (1200)',
      );
      expect(comma.stderr).toContain(
        'line 4: quantity "1,200" is not a whole number from 0 to 2147483647: remove the thousands separator (1200)',
      );
      const semicolon = await push(file('excel.csv', `sku;price\n${a};28,37 €\n${b};1.234,56\n`));
      expect(semicolon.code).toBe(2);
      expect(semicolon.stderr).toContain(
        'line 2: price "28,37 €" holds a currency sign: remove the currency sign (format the column as Number)',
      );
      expect(semicolon.stderr).toContain(
        'line 3: price "1.234,56" holds a thousands separator: remove the thousands separator (1234,56, which this file\'s decimal comma reads as 1234.56)',
      );
      const plain = await push(file('plain.csv', `sku,price\n${a},"1.234,56"\n`));
      expect(plain.stderr).toContain('remove the thousands separator and run again with --decimal-comma');
      expect(posted()).toEqual([]);
    });
  });

  describe('inventory push: bytes svc cannot decode in a column it ignores', () => {
    it('never stop a run; in a column it reads they stop it naming the line', async () => {
      const [a, b] = shared.store.allSkus();
      // 0x81 is neither UTF-8 nor Windows-1252: the file is read as UTF-8.
      const ignored = file(
        'note.csv',
        Buffer.concat([
          Buffer.from(`sku,quantity,Note\n${a},8,x`),
          Buffer.from([0x81]),
          Buffer.from(`\n${b},9,\n`),
        ]),
      );
      const read = await push(ignored);
      expect(read.code, read.stderr).toBe(0);
      expect(shared.store.inventoryBySku(a)?.quantity).toBe(8);
      const used = file(
        'sku.csv',
        Buffer.concat([Buffer.from(`sku,quantity\n${a}`), Buffer.from([0x81]), Buffer.from(',3\n')]),
      );
      const refused = await push(used);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('line 2: not UTF-8 text (byte 0x81)');
    });
  });
});

/**
 * No channel delay: the long push is about the report, not the wait for channels. 200 batches
 * settle out of order as a longer run's do; bench/scale.mjs checks the report at a million rows.
 */
const startQuiet = emulatorPerTest({ rateLimit: false, channelDelayMs: 0 });

describe('inventory push --report at 20,000 rows', () => {
  it('holds every row once, in input order, the store’s SKUs updated and the others failed', async () => {
    const emu = await startQuiet();
    const known = emu.store.allSkus().slice(0, 50);
    const rows = 20_000;
    const dir = tempDir('svc-push-scale-');
    const skuOf = (index: number) => (index < known.length ? known[index] : `NOPE-${index}`);
    const lines = ['sku,quantity'];
    for (let index = 0; index < rows; index++) lines.push(`${skuOf(index)},${1000 + (index % 7)}`);
    const file = join(dir, 'stock.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const report = join(dir, 'report.csv');
    const result = await runSvc(['inventory', 'push', file, '--report', report, '--json'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      total: rows,
      updated: known.length,
      failed: rows - known.length,
    });
    let index = -1;
    let outOfOrder = 0;
    for await (const text of createInterface({
      input: createReadStream(report),
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      if (index === -1) expect(text).toBe('line,key,status,code,message');
      else {
        const [line, key, status] = text.split(',');
        const expected = index < known.length ? 'updated' : 'failed';
        if (line !== String(index + 2) || key !== skuOf(index) || status !== expected) outOfOrder++;
      }
      index++;
    }
    expect(index).toBe(rows);
    expect(outOfOrder).toBe(0);
  }, 180_000);
});

/** Rate limits on, as a live store has them: the pushes below retry through faults and pacing. */
const startPaced = emulatorPerTest();

interface StockRow {
  sku: string;
  quantity: number;
  price: string;
}

/** A CSV setting every one of `count` seeded SKUs to new values, and the rows it holds. */
function stockFile(emu: RunningEmulator, count: number, bump = 7): { path: string; rows: StockRow[] } {
  const skus = emu.store.allSkus().slice(0, count);
  expect(skus.length).toBe(count);
  const rows = skus.map((sku, i) => ({
    sku,
    quantity: (i * 13 + bump) % 500,
    price: `${(i % 90) + 1}.${bump % 10}5`,
  }));
  const path = join(tempDir('svc-push-'), 'stock.csv');
  writeFileSync(
    path,
    `sku,quantity,price\n${rows.map((r) => `${r.sku},${r.quantity},${r.price}`).join('\n')}\n`,
  );
  return { path, rows };
}

function expectStoreMatches(emu: RunningEmulator, rows: StockRow[]): void {
  const mismatched = rows.filter((row) => {
    const item = emu.store.inventoryBySku(row.sku);
    return item?.quantity !== row.quantity || item?.price !== row.price;
  });
  expect(mismatched).toEqual([]);
}

const batchRequests = (emu: RunningEmulator) => emu.requests({ method: 'POST', path: '/inventory/batch' });

describe('inventory push', () => {
  it('sets exactly what the file says under injected faults, reusing each batch key across retries', async () => {
    const emu = await startPaced({ products: 80 });
    const { path, rows } = stockFile(emu, 250);
    for (const kind of [
      'internal_error',
      'service_unavailable',
      'rate_limited',
      'drop_before',
      'drop_after',
    ] as const) {
      emu.faults.inject({ method: 'POST', path: '/inventory/batch', kind, retryAfter: 1 });
    }
    const result = await runSvc(['inventory', 'push', path, '--json'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expectStoreMatches(emu, rows);
    const requests = batchRequests(emu);
    expect(requests.length).toBe(3 + 5);
    const keys = new Set(requests.map((r) => r.idempotencyKey));
    expect(keys.size).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 250, failed: 0 });
  });

  it('a bad file sends zero requests and lists each bad line (exit 2)', async () => {
    const emu = await startPaced();
    const path = join(tempDir('svc-bad-'), 'bad.csv');
    writeFileSync(path, 'sku,quantity,price\nA,1,1.00\nB,-3,1.00\nA,2,\nC,,\n');
    const before = emu.requests().length;
    const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/line 3: quantity "-3"/);
    expect(result.stderr).toMatch(/line 4: duplicate SKU A \(first on line 2\)/);
    expect(result.stderr).toMatch(/line 5: neither quantity nor price/);
    expect(emu.requests().length).toBe(before);
  });

  it('export then push of the export changes nothing', async () => {
    const emu = await startPaced();
    const exported = await runSvc(['inventory', 'export'], { env: envFor(emu) });
    expect(exported.code).toBe(0);
    expect(exported.stdout.split('\n')[0]).toBe('sku,quantity,price');
    const path = join(tempDir('svc-exp-'), 'export.csv');
    writeFileSync(path, exported.stdout);
    const result = await runSvc(['inventory', 'push', path, '--json'], { env: envFor(emu) });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.total).toBe(emu.store.allSkus().length);
    expect(summary.unchanged).toBe(summary.total);
  });

  it('reports unknown SKUs per item, in the report file, and exits 3', async () => {
    const emu = await startPaced();
    const sku = emu.store.allSkus()[0];
    const dir = tempDir('svc-rep-');
    writeFileSync(join(dir, 'in.csv'), `sku;quantity\n${sku};5\nNOT-A-SKU;1\n`);
    const result = await runSvc(
      ['inventory', 'push', join(dir, 'in.csv'), '--report', join(dir, 'out.csv')],
      {
        env: envFor(emu),
      },
    );
    expect(result.code).toBe(3);
    const report = readFileSync(join(dir, 'out.csv'), 'utf8').trim().split('\r\n');
    expect(report[0]).toBe('line,key,status,code,message');
    expect(report).toContainEqual(expect.stringMatching(/^3,NOT-A-SKU,failed,sku_not_found,/));
    expect(report).toContain(`2,${sku},updated,,`);
  });

  it('with a test key the results are simulated and nothing changes', async () => {
    const emu = await startPaced();
    const { path, rows } = stockFile(emu, 10);
    const before = rows.map((r) => emu.store.inventoryBySku(r.sku));
    const result = await runSvc(['inventory', 'push', path], { env: envFor(emu, 'test') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/simulated/);
    expect(rows.map((r) => emu.store.inventoryBySku(r.sku))).toEqual(before);
  });

  it('--dry-run needs no network and sends nothing', async () => {
    const emu = await startPaced();
    const { path } = stockFile(emu, 30);
    const result = await runSvc(['inventory', 'push', path, '--dry-run', '--batch-size', '10'], {
      env: { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_KEY: emu.keys.live },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/3/);
  });

  it('stops on the daily write quota with exit 5, then --resume sends only unconfirmed batches', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    const emu = await startPaced({ writeQuota: 6, rateLimit: false, clock });
    const { path, rows } = stockFile(emu, 100);
    const env = { ...envFor(emu), SVC_CONFIG_DIR: freshConfigDir() };
    const first = await runSvc(['inventory', 'push', path, '--batch-size', '10'], { env });
    expect(first.code).toBe(5);
    expect(first.stderr).toMatch(/write_quota_exceeded|quota/);
    expect(first.stderr).toMatch(/--resume/);
    const sentFirst = batchRequests(emu).filter((r) => r.status === 200).length;
    expect(sentFirst).toBe(6);
    clock.advance(24 * 3_600_000);
    const second = await runSvc(['inventory', 'push', path, '--batch-size', '10', '--resume'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(batchRequests(emu).filter((r) => r.status === 200).length).toBe(10);
    expectStoreMatches(emu, rows);
    expect(readdirSync(join(env.SVC_CONFIG_DIR, 'journals'))).toEqual([]);
  });
});

describe('inventory push --wait', () => {
  it('follows the operations to the channels and succeeds when they all took the change', async () => {
    const emu = await startPaced({ channelDelayMs: 200 });
    const { path } = stockFile(emu, 150);
    const result = await runSvc(['inventory', 'push', path, '--wait', '--timeout', '20'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/operations succeeded/);
    expect(emu.requests({ method: 'GET', path: /^\/operations/ }).length).toBeGreaterThan(0);
  });

  it('names channel failures per SKU (exit 3)', async () => {
    const emu = await startPaced({ channelDelayMs: 100, channelFailureShare: 1 });
    const { path } = stockFile(emu, 150);
    const result = await runSvc(['inventory', 'push', path, '--wait', '--timeout', '20'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/channels refused \d+ updates? of \d+ SKUs?/);
    expect(result.stderr).toMatch(/channel_error/);
  });

  it('--report holds one row per SKU, a refused one failed with the channel code, and --json lists every refusal', async () => {
    const emu = await startPaced({ channelDelayMs: 100, channelFailureShare: 1 });
    const { path, rows: stock } = stockFile(emu, 150);
    const pushed = new Set(stock.map((row) => row.sku));
    const dir = tempDir('svc-wait-report-');
    const report = join(dir, 'report.csv');
    const since = new Date(Date.now() - 60_000).toISOString();
    const result = await runSvc(
      ['inventory', 'push', path, '--wait', '--timeout', '20', '--report', report, '--json'],
      { env: envFor(emu) },
    );
    expect(result.code, result.stderr).toBe(3);
    // What the service itself recorded: every failed channel result of this push's operations.
    const operations = await fetch(`${emu.url}/rest/v1/operations?limit=100&created_after=${since}`, {
      headers: { authorization: `Bearer ${emu.keys.live}` },
    }).then(
      (res) =>
        res.json() as Promise<{
          data: Array<{ results?: Array<{ sku: string; status: string; error?: { code: string } }> }>;
        }>,
    );
    const refused = operations.data.flatMap((op) =>
      (op.results ?? []).filter((r) => r.status === 'failed' && pushed.has(r.sku)),
    );
    expect(refused.length).toBeGreaterThan(10);
    const refusedSkus = new Set(refused.map((r) => r.sku));
    const rows = readFileSync(report, 'utf8').trim().split('\r\n').slice(1);
    // One row per SKU of the file, in its order: its final state.
    expect(rows.map((row) => row.split(',')[1])).toEqual(stock.map((row) => row.sku));
    const failedRows = rows.filter((row) => /^\d+,[^,]+,failed,channel_error,/.test(row));
    expect(failedRows.map((row) => row.split(',')[1]).sort()).toEqual([...refusedSkus].sort());
    expect(rows.filter((row) => /^\d+,[^,]+,updated,/.test(row))).toHaveLength(150 - refusedSkus.size);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ total: 150, updated: 150 - refusedSkus.size, failed: refusedSkus.size });
    expect(summary.channel_failures).toHaveLength(refused.length);
    expect(summary.channel_failures.map((f: { key: string }) => f.key).sort()).toEqual(
      refused.map((r) => r.sku).sort(),
    );
    // A SKU refused on two channels is two refusals of one SKU: both counts, never more SKUs than pushed.
    expect(result.stderr).toContain(
      `the channels refused ${refused.length} updates of ${refusedSkus.size} SKUs; every one is in ${report}`,
    );
  });

  it('exits 8 when operations are still pending at the timeout', async () => {
    const emu = await startPaced({ channelDelayMs: 60_000 });
    const { path } = stockFile(emu, 150);
    const result = await runSvc(['inventory', 'push', path, '--wait', '--timeout', '1'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(8);
    expect(result.stderr).toMatch(/still pending/);
  });
});

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

describe('inventory push: files that are not what they seem', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ rateLimit: false });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  /** Writes `content` (text or raw bytes) to a fresh file and returns its path. */
  const file = (name: string, content: string | Buffer): string => {
    const path = join(tempDir('svc-inv-input-'), name);
    writeFileSync(path, content);
    return path;
  };
  const batches = () => emu.requests({ method: 'POST', path: '/inventory/batch' });
  const skus = (count: number) => emu.store.allSkus().slice(0, count);

  describe('inventory push: columns are accounted for', () => {
    it('SKU;Stock Count;Price exits 2 naming --map quantity=…, and sends nothing', async () => {
      const [a, b] = skus(2);
      // Qty, Stock, Bestand are read as quantity (test/commands/inventory/push.test.ts); this is not one of them.
      const path = file('stock.csv', `SKU;Stock Count;Price\n${a};5;9.99\n${b};7;4.50\n`);
      const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('the column "Stock Count" looks like quantity');
      expect(result.stderr).toContain("--map quantity='Stock Count'");
      expect(result.stderr).toContain("--ignore 'Stock Count'");
      expect(batches()).toEqual([]);
    });

    it('with --map the quantities are set; with --ignore only the prices, and the plan names both', async () => {
      const [a, b] = skus(2);
      const path = file('stock.csv', `SKU;Qty;Price;Note\n${a};5;9.99;x\n${b};7;4.50;y\n`);
      const before = emu.store.inventoryBySku(a)?.quantity;
      const ignored = await runSvc(['inventory', 'push', path, '--ignore', 'qty'], { env: envFor(emu) });
      expect(ignored.code, ignored.stderr).toBe(0);
      expect(ignored.stderr).toContain('Columns: sku, price; ignoring "Qty", "Note".');
      expect(emu.store.inventoryBySku(a)).toMatchObject({ quantity: before, price: '9.99' });
      const mapped = await runSvc(['inventory', 'push', path, '--map', 'quantity=Qty'], { env: envFor(emu) });
      expect(mapped.code, mapped.stderr).toBe(0);
      expect(mapped.stderr).toContain('quantity from "Qty"');
      expect(emu.store.inventoryBySku(a)).toMatchObject({ quantity: 5, price: '9.99' });
      expect(emu.store.inventoryBySku(b)).toMatchObject({ quantity: 7, price: '4.50' });
    });

    it('a header named twice exits 2 naming both columns', async () => {
      const [a] = skus(1);
      const path = file('stock.csv', `sku,quantity,Quantity\n${a},5,6\n`);
      const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('the column "Quantity" appears twice (columns 2 and 3)');
      expect(batches()).toEqual([]);
    });

    it('--map naming a column the header does not have exits 2 instead of leaving that field out', async () => {
      const [a] = skus(1);
      const path = file('stock.csv', `sku,stock_level,price\n${a},5,1.00\n`);
      const result = await runSvc(['inventory', 'push', path, '--map', 'quantity=stock'], {
        env: envFor(emu),
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('no "stock" column (--map quantity=stock)');
    });
  });

  describe('inventory push: --map says one thing once', () => {
    it('a field mapped twice, or one column mapped to two fields, exits 2 and sends nothing', async () => {
      const [a] = skus(1);
      const path = file('stock.csv', `sku,Qty,Stock\n${a},5,6\n`);
      const env = envFor(emu);
      const twice = await runSvc(['inventory', 'push', path, '--map', 'quantity=Qty,quantity=Stock'], {
        env,
      });
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain('--map names quantity twice ("qty" and "stock")');
      const both = await runSvc(
        ['inventory', 'push', path, '--map', 'quantity=Qty,price=Qty', '--ignore', 'Stock'],
        {
          env,
        },
      );
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('the column "Qty" would be read as both quantity and price');
      expect(batches()).toEqual([]);
    });
  });

  describe('inventory push: text that is not what it seems', () => {
    it('a Latin-1 file is read as Windows-1252 with a notice; --encoding utf-8 refuses it naming the line', async () => {
      const create = await fetch(`${emu.url}/rest/v1/products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.live}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Café', variants: [{ sku: 'CAFÉ-1', price: '3.00', quantity: 1 }] }),
      });
      expect(create.status).toBe(201);
      const latin1 = Buffer.concat([
        Buffer.from('sku,quantity\r\n'),
        Buffer.from([0x43, 0x41, 0x46, 0xc9, 0x2d, 0x31]),
        Buffer.from(',5\r\n'),
      ]);
      const path = file('excel.csv', latin1);
      const refused = await runSvc(['inventory', 'push', path, '--encoding', 'utf-8'], { env: envFor(emu) });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('line 2: not UTF-8 text (byte 0xC9)');
      expect(refused.stderr).toContain('--encoding latin1');
      expect(batches()).toEqual([]);
      const read = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
      expect(read.code, read.stderr).toBe(0);
      expect(read.stderr).toContain('reads as Windows-1252');
      expect(emu.store.inventoryBySku('CAFÉ-1')).toMatchObject({ quantity: 5 });
    });

    it('SKUs with edge spaces, a zero-width space, a NUL or a BOM inside exit 2, each line named', async () => {
      const [a, b, c, d, e] = skus(5);
      const rows = [` ${a} ,1`, `${b}\u200B,2`, `${c}\u0000,3`, `${d}\uFEFF,4`, `${e},5`, `${e} ,6`];
      const path = file('stock.csv', `sku,quantity\n${rows.join('\n')}\n`);
      const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`line 2: SKU " ${a} " has spaces at its start or end`);
      expect(result.stderr).toContain(
        `line 3: SKU "${b}\\u{200B}" holds an invisible or control character (U+200B zero-width space)`,
      );
      expect(result.stderr).toContain('line 4: SKU');
      expect(result.stderr).toContain('(U+0000 NUL)');
      expect(result.stderr).toContain('line 5: SKU');
      expect(result.stderr).toContain('(U+FEFF byte order mark)');
      expect(result.stderr).toContain(`line 7: SKU "${e} " has spaces`);
      expect(result.stderr).not.toMatch(/line 6:/);
      expect(batches()).toEqual([]);
    });

    it('any mix of line endings reads as the lines a person sees, and sets exactly those values', async () => {
      const [a, b, c, d] = skus(4);
      const path = file('mixed.csv', `sku,quantity\r\n${a},5\n${b},6\r${c},7\r\n${d},8`);
      const result = await runSvc(['inventory', 'push', path, '--json'], { env: envFor(emu) });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ total: 4, failed: 0 });
      expect([a, b, c, d].map((sku) => emu.store.inventoryBySku(sku)?.quantity)).toEqual([5, 6, 7, 8]);
    });
  });

  describe('inventory push: a failed check reports every bad line', () => {
    it('5,000 bad lines: 50 on stderr, all 5,000 in --report and in the JSON error, nothing sent', async () => {
      const rows = Array.from({ length: 5000 }, (_, i) => `BAD-${i},x`).join('\n');
      const path = file('bad.csv', `sku,quantity\n${rows}\n`);
      const report = join(tempDir('svc-inv-report-'), 'report.csv');
      const result = await runSvc(['inventory', 'push', path, '--report', report, '--json'], {
        env: envFor(emu),
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('… and 4950 more');
      expect(result.stderr).toContain(`every bad line is in ${report}`);
      const lines = readFileSync(report, 'utf8').trim().split('\r\n');
      expect(lines[0]).toBe('line,key,status,code,message');
      expect(lines).toHaveLength(5001);
      expect(lines[1]).toMatch(/^2,BAD-0,invalid,invalid_quantity,"quantity ""x"" is not a whole number/);
      expect(lines[5000]).toMatch(/^5001,BAD-4999,invalid,/);
      const error = JSON.parse(result.stderr.trimEnd().split('\n').at(-1) ?? '').error;
      expect(error.problems).toHaveLength(5000);
      expect(error.problems[4999]).toMatchObject({ line: 5001, key: 'BAD-4999', code: 'invalid_quantity' });
      expect(batches()).toEqual([]);
    });
  });
});

describe('inventory push asked at a terminal', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ rateLimit: false });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  it('reads the store first and shows the largest changes above the question; --yes neither asks nor reads', async () => {
    const skus = emu.store.allSkus().slice(0, 3);
    const path = join(tempDir('svc-guided-'), 'stock.csv');
    writeFileSync(path, `sku,quantity\n${skus.map((sku, index) => `${sku},${9000 + index}`).join('\n')}\n`);
    const env = envFor(emu);
    const asked = await runAtKeyboard(['inventory', 'push', path], {
      env,
      keys: [{ when: /\(y\/N\)/, keys: `y${KEYS.enter}` }],
    });
    expect(asked.code, plainText(asked.screen)).toBe(0);
    const screen = plainText(asked.screen);
    expect(screen).toContain('All 3 changes, zeroings first:');
    expect(screen.indexOf(skus[2])).toBeLessThan(screen.indexOf(skus[0], screen.indexOf('All 3 changes')));
    expect(screen.indexOf('All 3 changes')).toBeLessThan(screen.indexOf('Push 3 SKUs in 1 request'));
    expect(emu.store.inventoryBySku(skus[0])?.quantity).toBe(9000);

    emu.reset();
    const yes = await runSvc(['inventory', 'push', path, '--yes'], { env });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).not.toMatch(/Largest changes|changes, zeroings first|Reading the store/);
    expect(emu.requests({ method: 'GET' })).toHaveLength(0);
  });
});
