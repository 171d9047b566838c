/**
 * Server text never drives the terminal, and svc's own colours are never shown as text:
 * whatever reaches a terminal and is not JSON (tables, --query scalars, csv and tsv) shows
 * control characters and bidi overrides escaped; a pipe gets the data exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { runInTerminal } from '../helpers/terminal.js';

/** Clears the screen, turns the text red, and reverses what follows (RIGHT-TO-LEFT OVERRIDE). */
const EVIL = 'awa\u001b[31miting \u001b[2J \u202egnp.exe\u202c \u2066x\u2069';
/** What a terminal shows instead. */
const EVIL_SHOWN = 'awa\\e[31miting \\e[2J \\u202egnp.exe\\u202c \\u2066x\\u2069';

/** A character a terminal acts on: C0 but line breaks, DEL, C1, or a bidi override or isolate. */
const RAW = /(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

let emu: RunningEmulator;
let productId: string;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
  productId = [...emu.store.products.keys()][0];
  const update = await runSvc(['products', 'update', productId, '--set', `title=${EVIL}`], {
    env: envFor(emu),
  });
  expect(update.code, update.stderr).toBe(0);
});
afterAll(() => emu.close());

/** The screen as text: the terminal's CRLF as LF. */
async function onTerminal(args: string[], env: Record<string, string | undefined> = {}) {
  const result = await runInTerminal(args, { env: { ...envFor(emu), ...env }, columns: 200 });
  return { code: result.code, output: result.output.replaceAll('\r\n', '\n') };
}

describe('--query scalars, csv and tsv: escaped on a terminal, exact in a pipe', () => {
  const cases = [
    ['products', 'get', '<id>', '--query', 'title'],
    ['products', 'list', '--all', '--query', `[?id=='<id>'].title`],
    ['products', 'get', '<id>', '-o', 'csv', '--fields', 'title'],
    ['products', 'get', '<id>', '-o', 'tsv', '--fields', 'title'],
    ['products', 'list', '--all', '-o', 'csv', '--fields', 'id,title'],
  ];
  for (const template of cases) {
    it(template.join(' '), async () => {
      const args = template.map((arg) => arg.replaceAll('<id>', productId));
      const terminal = await onTerminal(args);
      expect(terminal.code, terminal.output).toBe(0);
      expect(RAW.test(terminal.output), JSON.stringify(terminal.output)).toBe(false);
      expect(terminal.output).toContain(EVIL_SHOWN);
      const piped = await runSvc(args, { env: envFor(emu) });
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stdout).toContain(EVIL);
    });
  }
});

describe('bidi overrides in tables and detail views', () => {
  it('are escaped on a terminal and in a piped table alike', async () => {
    const terminal = await onTerminal(['products', 'get', productId]);
    expect(terminal.code, terminal.output).toBe(0);
    expect(RAW.test(terminal.output), JSON.stringify(terminal.output)).toBe(false);
    expect(terminal.output).toContain(EVIL_SHOWN);
    const table = await runSvc(['products', 'list', '--all', '-o', 'table'], { env: envFor(emu) });
    expect(RAW.test(table.stdout)).toBe(false);
    expect(table.stdout).toContain('\\u202e');
  });

  it('JSON on a terminal writes them as \\u escapes: the same data, inert', async () => {
    const terminal = await onTerminal(['products', 'get', productId, '--json']);
    expect(RAW.test(terminal.output), JSON.stringify(terminal.output)).toBe(false);
    const piped = await runSvc(['products', 'get', productId, '--json'], { env: envFor(emu) });
    expect(JSON.parse(piped.stdout).title).toBe(EVIL);
  });
});

describe("svc's own colours", () => {
  it('svc status on a colour terminal draws its history strip in colour, not as escaped text', async () => {
    const terminal = await onTerminal(['status'], { NO_COLOR: undefined, TERM: 'xterm-256color' });
    expect(terminal.code, terminal.output).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the colour codes are what is tested
    expect(terminal.output).toMatch(/history {9}(\u001b\[3[123]m[█▄▁]\u001b\[0m)+/);
    expect(terminal.output).not.toContain('\\e[');
  });

  it('and without colour the strip is plain blocks', async () => {
    const terminal = await onTerminal(['status']);
    expect(terminal.output).toMatch(/history {9}[█▄▁]+\n/);
    expect(terminal.output).not.toContain('\u001b[');
  });
});
