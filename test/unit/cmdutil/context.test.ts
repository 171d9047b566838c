import { describe, expect, it } from 'vitest';
import { Context, type GlobalOptions } from '../../../src/cmdutil/context.js';
import type { IO } from '../../../src/output/io.js';
import { memoryIO } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** An IO on a terminal all round. */
function terminal(): IO {
  return { ...memoryIO(true), stdinIsTTY: true, stderrIsTTY: true };
}

describe('Context', () => {
  it('works taken apart, as a run destructures what it uses', async () => {
    const { config, client } = new Context(memoryIO(), {
      SVC_CONFIG_DIR: tempDir('svc-ctx-'),
    });
    expect((await config()).profiles).toEqual({});
    // No key anywhere: refused before anything is sent, by the context the function came from.
    await expect(client()).rejects.toThrow(/no service address configured|no API key/);
  });

  it('hands commands the global options read-only: only the program sets them', () => {
    const ctx = new Context(memoryIO(), {});
    ctx.useGlobals({ limit: 5 });
    expect(() => {
      (ctx.globals as GlobalOptions).all = true;
    }).toThrow(TypeError);
    expect(ctx.io.listLimit).toBe(5);
  });

  it('reads CI one way: CI=true and CI=1 both mean no prompts and no live progress line (lines instead)', () => {
    for (const CI of ['true', '1']) {
      const ctx = new Context(terminal(), { CI });
      const { enabled, live } = ctx.io.progress;
      expect([ctx.io.inCI, ctx.io.canPrompt, enabled, live], `CI=${CI}`).toEqual([true, false, true, false]);
    }
    const local = new Context(terminal(), { CI: 'false' });
    const { enabled, live } = local.io.progress;
    expect([local.io.inCI, local.io.canPrompt, enabled, live]).toEqual([false, true, true, true]);
  });

  it('-q silences progress', () => {
    const ctx = new Context(terminal(), {});
    ctx.useGlobals({ quiet: true });
    expect(ctx.io.progress.enabled).toBe(false);
  });

  it('reads the output format one way: --json and -o json alike', () => {
    const ctx = new Context(memoryIO(), {});
    ctx.useGlobals({ output: 'json' });
    expect([ctx.io.format, ctx.io.wantsJson, ctx.io.wantsMachineText]).toEqual(['json', true, true]);
    ctx.useGlobals({ output: 'ndjson' });
    expect([ctx.io.wantsJson, ctx.io.wantsMachineText]).toEqual([false, true]);
    ctx.useGlobals({});
    expect([ctx.io.format, ctx.io.wantsJson]).toEqual(['tsv', false]);
  });
});
