/**
 * What a run loads before it prints: help is text, and one page of orders is one request, so
 * neither may pay for what other commands need (their definitions, child processes, HTTP/2,
 * fetch). Checked on the bundle as it ships (dist/) and on the Node built-ins a real process
 * loaded; how fast that makes them is bench/startup.mjs's to say, not a test's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { builtinsLoaded } from '../helpers/loaded.js';

const DIST = join(import.meta.dirname, '..', '..', 'dist');

/** Every file of dist/ that loading `entry` loads before anything runs: its static imports, transitively. */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/^(?:import|export)\s[^;]*?["'](\.{1,2}\/[^"']+)["']/gm)) {
      visit(join(file, '..', match[1] ?? ''));
    }
  };
  visit(entry);
  return [...seen];
}

/** The source files a chunk of dist/ holds, by esbuild's `// src/…` comments. */
function sourcesIn(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^\/\/ (src\/\S+)$/gm)].map((match) => match[1] ?? '');
}

/** A command's definition file (not a noun's). */
const isDefinition = (source: string) => source.startsWith('src/commands/') && !source.endsWith('/noun.ts');

describe('start-up', () => {
  it('compiles no command definition: dist/cli.js and its static imports hold the manifest, not the commands', () => {
    const sources = staticClosure(join(DIST, 'cli.js')).flatMap(sourcesIn);
    expect(sources).toContain('src/cli/manifest.ts');
    expect(sources.filter((source) => source.startsWith('src/commands/'))).toEqual([]);
  });

  it('a run loads one command definition: each is a chunk of its own, whose static imports hold no other', () => {
    const chunks = readdirSync(join(DIST, 'chunks'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => join(DIST, 'chunks', name));
    const definitions = chunks.filter((chunk) => sourcesIn(chunk).some(isDefinition));
    expect(definitions.length).toBeGreaterThan(50);
    for (const chunk of definitions) {
      const loaded = new Set(staticClosure(chunk).flatMap(sourcesIn).filter(isDefinition));
      expect(loaded.size, chunk).toBe(1);
    }
  });

  it('svc orders list --help loads no child processes and no V8 settings (neither is needed to print help)', async () => {
    const loaded = await builtinsLoaded(['orders', 'list', '--help']);
    expect(loaded.has('fs')).toBe(true);
    expect([...loaded].filter((name) => /^(child_process|internal\/child_process|v8)$/.test(name))).toEqual(
      [],
    );
  });
});

describe('the bundle', () => {
  it('carries of zod what the sources use, and its English messages only (not every locale, 550 KB)', () => {
    const locales = readdirSync(join(DIST, 'chunks'))
      .filter((name) => name.endsWith('.js'))
      .flatMap((name) => [
        ...readFileSync(join(DIST, 'chunks', name), 'utf8').matchAll(
          /^\/\/ node_modules\/zod\/v4\/locales\/(\S+)$/gm,
        ),
      ])
      .map((match) => match[1]);
    // The CLI's bundle and the library's each carry it once.
    expect([...new Set(locales)]).toEqual(['en.js']);
  });
});

describe('one page of orders', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator();
  });
  afterAll(() => emu.close());

  it("loads neither HTTP/2, fetch (Node's own or undici's) nor child processes: one GET needs none of them", async () => {
    const loaded = await builtinsLoaded(['orders', 'list'], envFor(emu));
    expect(loaded.has('net')).toBe(true);
    const needless = [...loaded].filter((name) =>
      /^(http2|internal\/http2\/.*|internal\/deps\/undici\/undici|child_process)$/.test(name),
    );
    expect(needless).toEqual([]);
  });
});
