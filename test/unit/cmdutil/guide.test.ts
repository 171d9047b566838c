import { describe, expect, it } from 'vitest';
import { Context, type GlobalOptions } from '../../../src/cmdutil/context.js';
import { guideOrRefuse, whyNotAsking } from '../../../src/cmdutil/guide.js';
import { UsageError } from '../../../src/errors.js';
import type { IO } from '../../../src/output/io.js';
import { memoryIO } from '../../helpers/memory-io.js';

/** A run whose streams are terminals unless said otherwise. */
function run(globals: GlobalOptions = {}, env: NodeJS.ProcessEnv = {}, io: Partial<IO> = {}): Context {
  const ctx = new Context({ ...memoryIO(true), stdinIsTTY: true, stderrIsTTY: true, ...io }, env);
  ctx.useGlobals(globals);
  return ctx;
}

describe('when svc asks for what a command lacks', () => {
  it('only with stdin, stdout and stderr on a terminal, and neither --no-input, --yes nor CI', () => {
    expect(whyNotAsking(run())).toBeUndefined();
    expect(whyNotAsking(run({ input: false }))).toBe('--no-input is given');
    expect(whyNotAsking(run({ yes: true }))).toBe('--yes is given');
    expect(whyNotAsking(run({}, { CI: 'true' }))).toBe('the CI variable is set');
    expect(whyNotAsking(run({}, { CI: '1' }))).toBe('the CI variable is set');
    expect(whyNotAsking(run({}, {}, { stdinIsTTY: false }))).toBe('standard input is not a terminal');
    expect(whyNotAsking(run({}, {}, { stdoutIsTTY: false }))).toBe('standard output is not a terminal');
    expect(whyNotAsking(run({}, {}, { stderrIsTTY: false }))).toBe('standard error is not a terminal');
  });

  it('otherwise the missing argument is a usage error (exit 2) naming what to pass and why svc did not ask', () => {
    expect(() => guideOrRefuse(run(), 'give --error-code C')).not.toThrow();
    const refused = () => guideOrRefuse(run({ yes: true }), 'give --error-code C');
    expect(refused).toThrow(UsageError);
    expect(refused).toThrow(
      'give --error-code C; svc asks for it only at a terminal, and here --yes is given',
    );
  });
});
