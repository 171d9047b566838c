/**
 * Hostile data never drives the terminal: text from the service (a product title, an error
 * message) that carries escape sequences is shown escaped in tables, detail views and
 * messages, and kept exact in machine formats.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { type MisbehavingServer, misbehavingServer, sendJson } from '../helpers/misbehaving-server.js';
import { runSvc } from '../helpers/svc.js';

/** Sets the window title, rings the bell, clears the screen and turns the text red. */
const EVIL = 'Evil \u001b]0;PWNED\u0007\u001b[2J\u001b[31mRED\u009b31m';
/** What a person sees instead. */
const EVIL_SHOWN = 'Evil \\e]0;PWNED\\a\\e[2J\\e[31mRED\\x9b31m';

let emu: RunningEmulator;
let productId: string;
beforeAll(async () => {
  emu = await emulator();
  const list = await runSvc(['products', 'list', '--limit', '1', '--json'], { env: envFor(emu) });
  productId = JSON.parse(list.stdout)[0].id;
  const update = await runSvc(['products', 'update', productId, '--set', `title=${EVIL}`, '--json'], {
    env: envFor(emu),
  });
  expect(update.code, update.stderr).toBe(0);
});
afterAll(() => emu.close());

/** True when the text holds a character that a terminal would act on (C0 but newline, DEL, C1). */
const drivesTerminal = (text: string) => /(?!\n)\p{Cc}/u.test(text);

describe('hostile data in human output', () => {
  it('a product title with escape codes is shown escaped in a table', async () => {
    const result = await runSvc(['products', 'list', '-o', 'table', '--all'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(drivesTerminal(result.stdout)).toBe(false);
    expect(result.stdout).toContain(EVIL_SHOWN);
  });

  it('and in the detail view of one product', async () => {
    const result = await runSvc(['products', 'get', productId, '-o', 'table'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(drivesTerminal(result.stdout)).toBe(false);
    expect(result.stdout).toContain(EVIL_SHOWN);
  });

  it('machine formats keep the title exact: json escapes it, csv keeps it, tsv keeps it', async () => {
    const json = await runSvc(['products', 'get', productId, '--json'], { env: envFor(emu) });
    expect(drivesTerminal(json.stdout)).toBe(false);
    expect(JSON.parse(json.stdout).title).toBe(EVIL);
    const csv = await runSvc(['products', 'get', productId, '-o', 'csv', '--fields', 'title'], {
      env: envFor(emu),
    });
    expect(csv.stdout).toBe(`title\n${EVIL}\n`);
    const tsv = await runSvc(['products', 'get', productId, '-o', 'tsv', '--fields', 'title'], {
      env: envFor(emu),
    });
    expect(tsv.stdout).toBe(`title\n${EVIL}\n`);
  });

  it('tsv escapes tab, newline, carriage return and backslash', async () => {
    const title = 'a\tb\nc\rd\\e';
    const update = await runSvc(['products', 'update', productId, '--set', `title=${title}`], {
      env: envFor(emu),
    });
    expect(update.code, update.stderr).toBe(0);
    const tsv = await runSvc(['products', 'get', productId, '-o', 'tsv', '--fields', 'id,title'], {
      env: envFor(emu),
    });
    expect(tsv.stdout).toBe(`id\ttitle\n${productId}\ta\\tb\\nc\\rd\\\\e\n`);
    await runSvc(['products', 'update', productId, '--set', `title=${EVIL}`], { env: envFor(emu) });
  });
});

describe('hostile error messages', () => {
  let server: MisbehavingServer | undefined;
  afterEach(() => server?.close());

  it('a server error message with escape codes is printed escaped, on stderr and in --json', async () => {
    server = await misbehavingServer((_req, res) =>
      sendJson(res, 404, {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such product ${EVIL}`,
        },
      }),
    );
    const env = { SVC_BASE_URL: server.url, SVC_API_KEY: 'svc_test_hostile0000000000' };
    const human = await runSvc(['products', 'get', 'prod_x'], { env });
    expect(human.code).toBe(1);
    expect(drivesTerminal(human.stderr)).toBe(false);
    expect(human.stderr).toContain(`No such product ${EVIL_SHOWN}`);
    const machine = await runSvc(['products', 'get', 'prod_x', '--json'], { env });
    expect(drivesTerminal(machine.stderr)).toBe(false);
    const line = machine.stderr.split('\n').find((l) => l.startsWith('{')) ?? '';
    expect(JSON.parse(line).error.message).toBe(`HTTP 404 resource_missing: No such product ${EVIL}`);
  });
});
