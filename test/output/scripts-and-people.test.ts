/**
 * Output for scripts and for people: --query, checked fields, a row per order,
 * machine output that pipes, errors a script can parse, tables that fit, help that teaches,
 * svc api like gh api, svc status as a picture.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../src/cli/error-json.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { misbehavingServer } from '../helpers/misbehaving-server.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runInTerminal } from '../helpers/terminal.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 150, rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const svc = (args: string[], env: Record<string, string> = {}) =>
  runSvc(args, { env: { ...envFor(emu), ...env } });
const GUIDE = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'guide.md'), 'utf8');

describe('--query (JMESPath over the whole result)', () => {
  it('sees every page of a list at once, not one page at a time', async () => {
    const result = await svc(['orders', 'list', '--all', '--query', 'length(@)']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('150\n');
    // Two pages of 100 were fetched; the query ran once over both.
    expect(emu.requests({ path: '/orders' })).toHaveLength(2);
  });

  it('prints a list of scalars one a line, and flat objects in the chosen format', async () => {
    const ids = await svc(['orders', 'list', '--limit', '3', '--query', '[].id', '-o', 'tsv']);
    expect(ids.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(ids.stdout).toMatch(/^(ord_\w+\n){3}$/);
    const csv = await svc([
      'orders',
      'list',
      '--limit',
      '2',
      '--query',
      '[].{id: id, total: total}',
      '-o',
      'csv',
    ]);
    const [header, ...rows] = csv.stdout.trimEnd().split('\n');
    expect(header).toBe('id,total');
    expect(rows).toHaveLength(2);
    const nested = await svc(['orders', 'list', '--limit', '1', '--query', '[0].buyer', '-o', 'tsv']);
    expect(JSON.parse(nested.stdout).address).toHaveProperty('city');
  });

  it('on a get, applies to the object', async () => {
    const [id] = emu.store.orders.keys();
    const result = await svc(['orders', 'get', id, '--query', 'buyer.country']);
    expect(result.stdout.trim()).toBe(emu.store.orders.get(id)?.buyer?.country);
  });

  it('a bad expression exits 2 with the message and position, before anything is sent', async () => {
    const result = await svc(['orders', 'list', '--query', '[?status==]']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--query: syntax error.* at character 11/);
    expect(result.stderr).toContain('[?status==]\n            ^');
    expect(emu.requests()).toHaveLength(0);
  });
});

describe('--query that picks a field of a whole list (always null) is refused before anything is sent', () => {
  it('orders list --query status: exit 2, the [].status to use instead, no request', async () => {
    const result = await svc(['orders', 'list', '--query', 'status']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--query "status" picks a field of the whole list');
    expect(result.stderr).toContain('--query "[].status"');
    expect(emu.requests()).toHaveLength(0);
  });

  it('channels categories ID --query shoes points at --search, not at an empty null', async () => {
    const [account] = emu.store.accounts.keys();
    const result = await svc(['channels', 'categories', account, '--query', 'shoes']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('svc channels categories --help');
    expect(emu.requests()).toHaveLength(0);
    const search = await svc(['channels', 'categories', account, '--search', 'shoes', '--query', '[].name']);
    expect(search.code, search.stderr).toBe(0);
  });

  it('svc api prints the answer as it came: --query data picks its data', async () => {
    const result = await svc(['api', '/orders', '-F', 'limit=2', '--query', 'data[].id']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(2);
  });

  it('a field of the one item of a get is still a field', async () => {
    const [id] = emu.store.orders.keys();
    const result = await svc(['orders', 'get', id, '--query', 'status']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(emu.store.orders.get(id)?.status);
  });
});

describe('--query names a function it does not know before anything is sent', () => {
  it('exits 2 naming the function and where it is, with no request made', async () => {
    const result = await svc(['orders', 'list', '--all', '--query', '[].lenght(lines)', '-o', 'json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--query: unknown function lenght\(\) at character 4/);
    expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1) ?? '').error).toMatchObject({
      code: 'usage',
      position: 3,
    });
    expect(emu.requests()).toHaveLength(0);
  });
});

describe('--fields, checked and discoverable', () => {
  it('an unknown field exits 2 naming it, the closest valid one, and --fields help; nothing is sent', async () => {
    const result = await svc(['orders', 'list', '--fields', 'id,nope,totl']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('"nope"');
    expect(result.stderr).toContain('"totl" (did you mean "total"?)');
    expect(result.stderr).toContain('svc orders list --fields help');
    expect(emu.requests()).toHaveLength(0);
  });

  it('--fields help lists the fields of the items, nested ones as dot paths', async () => {
    const result = await svc(['orders', 'list', '--fields', 'help']);
    expect(result.code).toBe(0);
    const fields = result.stdout.trimEnd().split('\n');
    expect(fields).toEqual(expect.arrayContaining(['id', 'total', 'lines.sku', 'buyer.address.postal_code']));
    expect(emu.requests()).toHaveLength(0);
  });

  it('lines.sku means the same in every format', async () => {
    const fields = ['--fields', 'id,lines.sku', '--limit', '3'];
    const ndjson = await svc(['orders', 'list', ...fields, '-o', 'ndjson']);
    for (const line of ndjson.stdout.trimEnd().split('\n')) {
      const order = JSON.parse(line);
      expect(Object.keys(order).sort()).toEqual(['id', 'lines']);
      for (const orderLine of order.lines) expect(Object.keys(orderLine)).toEqual(['sku']);
    }
    const json = JSON.parse((await svc(['orders', 'list', ...fields, '--json'])).stdout);
    expect(json[0].lines[0].sku).toEqual(expect.any(String));
    const csv = await svc(['orders', 'list', ...fields, '-o', 'csv']);
    expect(csv.stdout.split('\n')[1]).toMatch(/^ord_\w+,[A-Z0-9-]+$/);
  });
});

describe('a row per order unless lines are asked for', () => {
  it('prints each order once, so `wc -l` counts orders and a loop fulfils each once', async () => {
    const result = await svc(['orders', 'list', '--all', '--fields', 'id,channel,total', '-o', 'csv']);
    const rows = result.stdout.trimEnd().split('\n').slice(1);
    const ids = rows.map((row) => row.split(',')[0]);
    expect(rows).toHaveLength(150);
    expect(new Set(ids).size).toBe(150);
  });

  it('a row per order line when a lines.* field is selected, or with --per-line', async () => {
    const lines = [...emu.store.orders.values()].reduce((n, o) => n + Math.max(1, o.lines.length), 0);
    expect(lines).toBeGreaterThan(150);
    const selected = await svc(['orders', 'list', '--all', '--fields', 'id,lines.sku', '-o', 'csv']);
    expect(selected.stdout.trimEnd().split('\n')).toHaveLength(lines + 1);
    const perLine = await svc(['orders', 'list', '--all', '--per-line', '-o', 'tsv']);
    expect(perLine.stdout.trimEnd().split('\n')).toHaveLength(lines + 1);
    expect(perLine.stdout.split('\n')[0].split('\t')).toContain('lines.sku');
  });
});

describe('machine output that pipes', () => {
  it('CSV on stdout ends lines with LF, so an id read by the shell has no \\r', async () => {
    const result = await svc(['products', 'list', '--limit', '3', '--fields', 'id', '-o', 'csv']);
    expect(result.stdout).not.toContain('\r');
    expect(result.stdout).toMatch(/^id\n(prod_\w+\n){3}$/);
  });

  it('--report files keep CRLF', async () => {
    const dir = tempDir('svc-out-');
    const file = join(dir, 'stock.csv');
    writeFileSync(file, `sku,quantity\n${emu.store.allSkus()[0]},4\n`);
    const result = await svc(['inventory', 'push', file, '--report', join(dir, 'out.csv')]);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toMatch(/^line,key,status,code,message\r\n2,/);
  });

  it('--no-headers leaves the header out of csv, tsv and table', async () => {
    for (const format of ['csv', 'tsv', 'table']) {
      const result = await svc([
        'products',
        'list',
        '--limit',
        '2',
        '--fields',
        'id',
        '-o',
        format,
        '--no-headers',
      ]);
      expect(result.stdout.trimEnd().split('\n'), format).toEqual([
        expect.stringMatching(/^prod_\w+$/),
        expect.stringMatching(/^prod_\w+$/),
      ]);
    }
  });

  it('--json on a terminal: a list indented and coloured like a get; NO_COLOR keeps it plain; piped, one item a line', async () => {
    const env = { ...envFor(emu), NO_COLOR: undefined };
    const coloured = await runInTerminal(['orders', 'list', '--limit', '2', '--json'], {
      env,
      stdin: 'null',
    });
    expect(coloured.output).toContain('\u001b[34m"id"\u001b[0m: \u001b[32m"ord_');
    expect(coloured.output).toMatch(/\[\r?\n {2}\{\r?\n {4}/);
    const plain = await runInTerminal(['orders', 'list', '--limit', '2', '--json'], {
      env: envFor(emu),
      stdin: 'null',
    });
    expect(plain.output).not.toContain('\u001b[34m');
    expect(plain.output).toMatch(/\[\r?\n {2}\{\r?\n {4}"id": "ord_/);
    const piped = await svc(['orders', 'list', '--limit', '2', '--json']);
    expect(piped.stdout).toMatch(/^\[\n\{"id":"ord_\w+".*\},\n\{"id":"ord_\w+".*\}\n\]\n$/);
  });
});

describe('errors a script can parse', () => {
  it.each([['-o', 'json'], ['-o', 'ndjson'], ['-o', 'csv'], ['-o', 'tsv'], ['--json']])(
    'with %s an error is one JSON line on stderr with a stable code',
    async (...format) => {
      const result = await svc(['orders', 'get', 'ord_missing', ...format]);
      expect(result.code).toBe(1);
      const error = JSON.parse(result.stderr.trimEnd().split('\n').at(-1) ?? '').error;
      expect(error).toMatchObject({ code: 'not_found', exit_code: 1, status: 404 });
      expect(error).not.toHaveProperty('type');
      expect(result.stderr).not.toMatch(/ApiError|UsageError|PartialFailure/);
    },
  );

  it('usage errors too, and never an internal class name', async () => {
    const flag = await svc(['orders', 'list', '--nope', '-o', 'json']);
    expect(flag.code).toBe(2);
    const line = flag.stderr.split('\n').find((l) => l.startsWith('{'));
    expect(JSON.parse(line ?? '')).toEqual({
      error: { code: 'usage', message: "unknown option '--nope'; see svc orders list --help", exit_code: 2 },
    });
    const partial = await svc(['inventory', 'set', 'NOT-A-SKU', '--quantity', '1', '-o', 'json']);
    expect(JSON.parse(partial.stderr.trimEnd().split('\n').at(-1) ?? '').error.code).toBe('not_found');
  });

  it('a key refused by auth status has the code the same refusal has on any command', async () => {
    const lapsed = { SVC_API_KEY: emu.keys.lapsed };
    const status = await svc(['auth', 'status', '-o', 'json'], lapsed);
    const list = await svc(['orders', 'list', '-o', 'json'], lapsed);
    expect(status.code).toBe(4);
    expect(JSON.parse(status.stderr.trimEnd().split('\n').at(-1) ?? '').error.code).toBe('forbidden');
    expect(JSON.parse(list.stderr.trimEnd().split('\n').at(-1) ?? '').error.code).toBe('forbidden');
  });

  it('a malformed key has one detail_code, whichever check caught it', async () => {
    const malformed = { SVC_API_KEY: 'not-a-key' };
    for (const args of [
      ['auth', 'status'],
      ['orders', 'list'],
    ]) {
      const result = await svc([...args, '--json'], malformed);
      expect(result.code).toBe(4);
      expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1) ?? '').error).toMatchObject({
        code: 'auth_invalid',
        detail_code: 'api_key_malformed',
      });
    }
  });

  it('a local file that cannot be read or written is input_invalid, as the guide lists it', async () => {
    const dir = tempDir('svc-files-');
    const stock = join(dir, 'stock.csv');
    writeFileSync(stock, 'sku,quantity\nSKU-1,1\n');
    const missing = join(dir, 'missing.csv');
    const [product] = emu.store.products.keys();
    for (const args of [
      ['inventory', 'push', missing],
      ['inventory', 'push', dir],
      ['products', 'upsert', missing],
      ['orders', 'fulfill', '--file', missing],
      ['products', 'create', '--file', missing],
      ['products', 'images', 'add', product, join(dir, 'missing.png')],
      ['api', 'POST', '/products', '--input', missing],
      ['inventory', 'push', stock, '--report', join(dir, 'no', 'such', 'dir', 'out.csv')],
    ]) {
      const result = await svc([...args, '--json']);
      expect(result.code, args.join(' ')).toBe(2);
      const line = result.stderr.split('\n').find((l) => l.startsWith('{'));
      expect(JSON.parse(line ?? '{}').error?.code, `${args.join(' ')}: ${result.stderr}`).toBe(
        'input_invalid',
      );
    }
  });

  it('without a machine format, only the line for people', async () => {
    const result = await svc(['orders', 'get', 'ord_missing']);
    expect(result.stderr).toMatch(/^error: HTTP 404/);
    expect(result.stderr).not.toContain('{"error"');
  });

  it('the guide lists every code', () => {
    const section = GUIDE.slice(GUIDE.indexOf('## Errors for scripts'));
    for (const code of ERROR_KINDS) expect(section).toContain(`| \`${code}\` |`);
  });
});

describe('tables that fit and say something', () => {
  it('at COLUMNS=60 the listings table fits, ids whole, accounts by their labels', async () => {
    const result = await svc(['listings', 'list', '-o', 'table'], { COLUMNS: '60' });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(60);
    const ids = (JSON.parse((await svc(['listings', 'list', '--json'])).stdout) as Array<{ id: string }>).map(
      (listing) => listing.id,
    );
    for (const id of ids) expect(result.stdout).toContain(id);
    const labels = [...emu.store.accounts.values()].map((account) => account.label.slice(0, 6));
    expect(labels.some((label) => result.stdout.includes(label))).toBe(true);
    expect(result.stdout).not.toContain('chac_');
  });

  it.each([
    [['orders', 'list']],
    [['orders', 'list', '--show-buyer']],
    [['products', 'list']],
    [['operations', 'list']],
    [['events', 'list']],
    [['channels', 'list']],
    [['listings', 'errors']],
    [['listings', 'errors', '--by-account']],
  ])('at COLUMNS=60 svc %s fits too, its ids whole', async (args) => {
    const result = await svc([...args, '-o', 'table'], { COLUMNS: '60' });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    const widest = lines.reduce((a, b) => (a.length >= b.length ? a : b));
    expect(widest.length, widest).toBeLessThanOrEqual(60);
    // Whatever was cut, no id was: every cell that starts like an id is one whole.
    for (const id of result.stdout.match(/\b[a-z]+_[A-Za-z0-9]*…/g) ?? []) expect.fail(`cut id ${id}`);
    // Nor a command to copy: a cell either holds all of it or none.
    expect(result.stdout).not.toMatch(/svc [^\n]*…/);
  });

  it('--time utc shows timestamps, relative is the default', async () => {
    const utc = await svc(['orders', 'list', '--limit', '2', '-o', 'table', '--time', 'utc']);
    expect(utc.stdout).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z/);
    const relative = await svc(['orders', 'list', '--limit', '2', '-o', 'table']);
    expect(relative.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('a detail view aligns its values on the longest key, nested ones included', async () => {
    const [id] = emu.store.orders.keys();
    const result = await svc(['orders', 'get', id, '-o', 'table', '--show-buyer']);
    // The key: value lines come first; the tables of lists follow a blank line.
    const pairs = result.stdout.split('\n\n')[0].split('\n');
    expect(pairs.some((line) => line.startsWith('buyer.address.postal_code'))).toBe(true);
    const starts = new Set(
      pairs.flatMap((line) => {
        const match = /^(\S+)( +)\S/.exec(line);
        return match ? [match[1].length + match[2].length] : [];
      }),
    );
    expect(starts.size).toBe(1);
  });
});

describe('help that teaches everything it accepts', () => {
  it('a command lists the global options it takes under Global options', async () => {
    const list = await runSvc(['orders', 'list', '--help']);
    const globals = list.stdout.slice(list.stdout.indexOf('\nGlobal options:\n'));
    for (const flag of ['--all', '--limit', '--fields', '-o, --output', '--query', '--no-headers']) {
      expect(globals).toContain(flag);
    }
    const set = await runSvc(['inventory', 'set', '--help']);
    expect(set.stdout).toContain('Global options:');
    expect(set.stdout).not.toContain('--limit');
    expect(set.stdout).not.toContain('--yes');
  });

  it('refuses a flag that means nothing to the command (exit 2)', async () => {
    const result = await svc(['inventory', 'set', 'SKU-1', '--quantity', '1', '--limit', '5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--limit means nothing to svc inventory set');
    expect(emu.requests()).toHaveLength(0);
  });

  it('refuses the connection flags on a command that never connects, and its help does not offer them', async () => {
    for (const args of [
      ['emulator', 'start', '--base-url', 'http://127.0.0.1:1'],
      ['version', '--profile', 'x'],
      ['completion', 'bash', '--request-timeout', '5'],
      ['webhooks', 'verify', '--signature', 't=1,v1=00', '--payload', '-', '--max-retries', '1'],
      ['profiles', 'use', 'x', '--base-url', 'http://127.0.0.1:1'],
    ]) {
      const result = await runSvc(args, { stdin: '{}' });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/--(base-url|profile|request-timeout|max-retries) means nothing to svc /);
    }
    const help = await runSvc(['emulator', 'start', '--help']);
    const globals = help.stdout.slice(help.stdout.indexOf('Global options:'));
    expect(globals).not.toMatch(/--profile|--base-url|--max-retries|--request-timeout/);
    expect((await runSvc(['auth', 'logout', '--help'])).stdout).toContain('--profile');
  });

  it('svc help orders list is the help of orders list', async () => {
    const viaHelp = await runSvc(['help', 'orders', 'list']);
    const viaFlag = await runSvc(['orders', 'list', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toMatch(/^Usage: svc orders list/);
  });

  it('svc help with a command that does not exist exits 2 naming it, as an unknown command does', async () => {
    for (const args of [
      ['help', 'nope'],
      ['help', 'orders', 'nope'],
      ['help', 'orders', 'list', 'nope'],
    ]) {
      const result = await runSvc(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr).toMatch(/unknown command '(orders )?(list )?nope'/);
    }
    const noun = await runSvc(['help', 'orders']);
    expect(noun.code).toBe(0);
    expect(noun.stdout).toMatch(/^Usage: svc orders/);
  });

  it('says a default once', async () => {
    const result = await runSvc(['listings', 'retry', '--help']);
    expect(result.stdout).toContain('(default: 300)');
    expect(result.stdout).not.toMatch(/default 300/);
  });

  it('svc version beside --version', async () => {
    const version = await runSvc(['--version']);
    const command = await runSvc(['version']);
    expect(command.code).toBe(0);
    expect(command.stdout).toContain(`svc ${version.stdout.trim()} (Node.js ${process.version}`);
    expect(JSON.parse((await runSvc(['version', '--json'])).stdout)).toMatchObject({
      version: version.stdout.trim(),
      node: process.version,
    });
  });
});

describe('svc api as complete as gh api', () => {
  it('-i prints the status and the rate-limit headers; --silent drops the body', async () => {
    const limited = await emulator({ bucket: 40, drainPerSecond: 4 });
    try {
      const result = await runSvc(['api', 'GET', '/orders', '-F', 'limit=1', '-i', '--silent'], {
        env: envFor(limited),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^HTTP\/1\.1 200 OK\n/);
      expect(result.stdout).toMatch(/^X-Ratelimit-Remaining: \d+$/m);
      expect(result.stdout).not.toContain('"data"');
    } finally {
      await limited.close();
    }
  });

  it('-H sends a header; never Authorization', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const server = await misbehavingServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    try {
      const env = { SVC_BASE_URL: server.url, SVC_API_KEY: emu.keys.live };
      const result = await runSvc(['api', 'GET', '/health', '-H', 'X-Trace: abc 123'], { env });
      expect(result.code, result.stderr).toBe(0);
      expect(seen[0]?.['x-trace']).toBe('abc 123');
      const refused = await runSvc(['api', 'GET', '/orders', '-H', 'Authorization: Bearer x'], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('-H Authorization is refused');
      expect(seen).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('--all follows every page as --paginate does; --limit without either is refused, not ignored', async () => {
    const all = await svc(['api', 'GET', '/orders', '--all', '--query', 'length(@)']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe('150\n');
    const limited = await svc([
      'api',
      'GET',
      '/orders',
      '--paginate',
      '--limit',
      '3',
      '--query',
      'length(@)',
    ]);
    expect(limited.stdout).toBe('3\n');
    emu.reset();
    const alone = await svc(['api', 'GET', '/orders', '--limit', '3']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--limit .*--paginate.*-F limit=3/);
    expect(emu.requests()).toHaveLength(0);
  });

  it('--query runs over the answer', async () => {
    const result = await svc(['api', 'GET', '/orders', '-F', 'limit=3', '--query', 'data[].id']);
    expect(result.stdout).toMatch(/^(ord_\w+\n){3}$/);
  });
});

describe('svc status as a picture', () => {
  it('draws the history as a strip with the worst incidents; --json unchanged', async () => {
    const result = await runInTerminal(['status'], { env: envFor(emu), stdin: 'null', columns: 80 });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/history {9}[█▄▁]{40,}/);
    expect(result.output).not.toContain('half-hour buckets');
    expect(result.output).toMatch(/worst incidents|no incident/);
    const json = JSON.parse((await svc(['status', '--json'])).stdout);
    expect(json.buckets).toHaveLength(336);
  });
});

describe('summaries in plain words', () => {
  it('counts what was done apart from what was skipped, and says 1 request', async () => {
    const ready = [...emu.store.orders.values()].filter((o) => o.status === 'awaiting_shipment').slice(0, 4);
    expect(ready).toHaveLength(4);
    const dir = tempDir('svc-sum-');
    const rows = ready.map((order, i) => `${order.id},TRK-${i},UPS`);
    const file = (name: string, lines: string[]) => {
      writeFileSync(join(dir, name), `order_id,tracking_number,carrier\n${lines.join('\n')}\n`);
      return join(dir, name);
    };
    const first = await svc(['orders', 'fulfill', '--file', file('first.csv', rows.slice(0, 2))]);
    expect(first.code, first.stderr).toBe(0);
    const again = await svc(['orders', 'fulfill', '--file', file('all.csv', rows)]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /Fulfilled 2 of 4 orders in \d+ requests \(\d+\.\d s\): 2 updated, 2 skipped/,
    );

    const one = file('one.csv', []);
    writeFileSync(one, `sku,quantity\n${emu.store.allSkus()[0]},3\n`);
    const push = await svc(['inventory', 'push', one]);
    expect(push.stderr).toMatch(/Pushed 1 SKU in 1 request \(/);
  });

  it('a run of one item says 1 SKU, 1 order, 1 product, 1 listing, 1 row: never "1 SKUs"', async () => {
    const dir = tempDir('svc-one-');
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const order = [...emu.store.orders.values()].find((o) => o.status === 'awaiting_shipment');
    const product = [...emu.store.products.values()][0];
    const account = [...emu.store.accounts.values()][0];
    const stock = write('stock.csv', `sku,quantity\n${emu.store.allSkus()[0]},3\n`);
    const runs = [
      ['inventory', 'push', stock, '--dry-run'],
      ['inventory', 'push', stock],
      ['inventory', 'diff', stock],
      [
        'orders',
        'fulfill',
        '--file',
        write('ship.csv', `order_id,tracking_number,carrier\n${order?.id},T-1,UPS\n`),
        '--dry-run',
      ],
      ['orders', 'fulfill', '--file', join(dir, 'ship.csv')],
      [
        'products',
        'upsert',
        write(
          'one.jsonl',
          `${JSON.stringify({ title: 'One', variants: [{ sku: 'ONE-1', price: '1.00' }] })}\n`,
        ),
        '--create-unmatched',
        '--dry-run',
      ],
      ['products', 'upsert', join(dir, 'one.jsonl'), '--create-unmatched'],
      [
        'listings',
        'publish',
        '--file',
        write('pub.jsonl', `${JSON.stringify({ product_id: product.id, channel_account_id: account.id })}\n`),
        '--dry-run',
      ],
      ['listings', 'publish', '--file', join(dir, 'pub.jsonl')],
    ];
    for (const args of runs) {
      const result = await svc(args);
      expect(result.stderr, args.join(' ')).not.toMatch(
        /(?<![\d,.])1 (SKUs|orders|products|listings|rows|requests|units|batches|accounts)\b/,
      );
    }
  });

  it("--report rows come in the file's line order, not the order answers landed in", async () => {
    const skus = emu.store.allSkus().slice(0, 40);
    const dir = tempDir('svc-rep-');
    const file = join(dir, 'stock.csv');
    writeFileSync(file, `sku,quantity\n${skus.map((sku, i) => `${sku},${i}`).join('\n')}\n`);
    // The first batch answers last.
    emu.faults.inject({ method: 'POST', path: '/inventory/batch', kind: 'delay', delayMs: 1500 });
    const result = await svc([
      'inventory',
      'push',
      file,
      '--batch-size',
      '10',
      '--report',
      join(dir, 'out.csv'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = readFileSync(join(dir, 'out.csv'), 'utf8')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((row) => Number(row.split(',')[0]));
    expect(lines).toEqual(skus.map((_, i) => i + 2));
  });
});
