/**
 * bin/svc answers a command line that asks for help from dist/help.cjs, with the code V8
 * compiled for it at build time (scripts/bundle.mjs), and every other one from dist/cli.js.
 * Either way a command line gets the same answer as main() gives it in-process.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinsLoaded } from '../helpers/loaded.js';
import { runSvc } from '../helpers/svc.js';

const DIST = join(import.meta.dirname, '..', '..', 'dist');

describe('help from dist/help.cjs', () => {
  it.each([
    [['orders', 'list', '--help']],
    [['products', 'images', 'add', '-h']],
    [['help', 'orders', 'list']],
    [['help', 'inventory']],
    [['--help']],
    [[]],
    [['--json', 'webhooks', '--help']],
    [['help', 'ordrs']],
    [['orders', 'list', '--help', '--bogus']],
  ])('svc %s prints what main() prints', async (args) => {
    const inProcess = await runSvc(args);
    const launched = await runSvc(args, { process: true });
    expect(launched.stdout).toBe(inProcess.stdout);
    expect(launched.stderr).toBe(inProcess.stderr);
    expect(launched.code).toBe(inProcess.code);
    expect(`${launched.stdout}${launched.stderr}`).toMatch(/Usage: svc|unknown command/);
  });

  it('runs a command that only looked like help (--help as the value of a flag) as dist/cli.js does', async () => {
    const args = ['orders', 'list', '--status', '--help'];
    const inProcess = await runSvc(args);
    const launched = await runSvc(args, { process: true });
    expect(launched.code).toBe(2);
    expect(launched.stderr).toBe(inProcess.stderr);
    expect(launched.stderr).toContain('not an order status');
  });

  it('loads no ES module to print help', async () => {
    const loaded = await builtinsLoaded(['orders', 'list', '--help']);
    expect(loaded.has('vm')).toBe(true);
    expect(loaded.has('internal/modules/esm/translators')).toBe(false);
  });

  it('ships a code cache a fresh node takes, as bin/svc loads it', () => {
    const file = join(DIST, 'help.cjs');
    expect(readFileSync(`${file}.cache`).length).toBeGreaterThan(10_000);
    // In a process of its own: V8 refuses a cache made under other flags (this worker's, or
    // those an in-process run of main() set).
    const check = [
      "const { readFileSync } = require('node:fs');",
      "const vm = require('node:vm');",
      `const file = ${JSON.stringify(file)};`,
      'const script = new vm.Script(require("node:module").wrap(readFileSync(file, "utf8")), {',
      '  filename: file,',
      '  cachedData: readFileSync(file + ".cache"),',
      '  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,',
      '});',
      'process.stdout.write(String(script.cachedDataRejected));',
    ].join('\n');
    const result = spawnSync(process.execPath, ['-e', check], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('false');
  });
});
