/**
 * The output boundary, as a property: for any string, what reaches a terminal through any of
 * svc's ways of writing holds no raw control or bidi character (svc's own colours aside, and
 * there are none without colour) and never the key in use.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Context } from '../../../src/cmdutil/context.js';
import { Boundary } from '../../../src/output/boundary.js';
import { memoryIO } from '../../helpers/memory-io.js';

const KEY = 'svc_live_Pr0pertyTestKey_0123456789abcdefXYZ';
/**
 * A raw character a terminal would act on: C0, DEL, C1, bidi overrides and isolates; line
 * breaks and tabs aside, svc's own (lines, tsv's separators), which data's are escaped into.
 */
const RAW = /(?![\n\t])[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** Strings made of anything, with the key, parts of keys and hostile characters mixed in. */
const hostile = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        KEY,
        `Bearer ${KEY}`,
        'svc_live_',
        'svc_test_AnotherKey123456789',
        '\u001b[2J',
        '\u001b]0;title\u0007',
        '\u009b31m',
        '\u202e',
        '\u2066',
        '\r',
        '\n',
        '\t',
        '\\',
        ',"',
      ),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/** Every way svc writes data, on a terminal, with KEY in use; returns what the terminal got. */
async function throughEveryPath(text: string): Promise<string> {
  const io = { ...memoryIO(true), stderrIsTTY: true };
  const ctx = new Context(io, { SVC_API_KEY: KEY });
  const record = { id: 'x_1', title: text, tags: [text] };
  for (const output of ['table', 'csv', 'tsv', 'json', 'ndjson'] as const) {
    ctx.useGlobals({ output });
    await ctx.io.printer.item(record);
    await ctx.io.printer.list(
      (async function* () {
        yield record;
      })(),
      { columns: [{ header: 'TITLE', cell: (item) => item.title, shrink: true }], fields: [] },
    );
    await ctx.io.printer.value(text);
    await ctx.io.printer.value([text, text]);
  }
  await ctx.io.printer.text(text);
  ctx.io.messages.info(text);
  ctx.io.messages.warn(text);
  ctx.io.messages.error(text);
  ctx.io.messages.detail(text);
  ctx.io.messages.debug(text);
  ctx.io.messages.json({ error: { message: text } });
  return `${io.out()}${io.err()}`;
}

describe('the boundary', () => {
  it('no raw control or bidi character, and never the key, reaches a terminal', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (text) => {
        const shown = await throughEveryPath(text);
        expect(RAW.test(shown)).toBe(false);
        expect(shown).not.toContain(KEY);
      }),
      { numRuns: 150 },
    );
  });

  it('masks the key in use whatever its shape, and anything key-shaped, in bytes as in text', () => {
    const io = memoryIO();
    const boundary = new Boundary(io);
    boundary.protect('not-a-key-but-secret-0123');
    boundary.io.stdout.write('a not-a-key-but-secret-0123 b svc_test_abcdefgh1234\n');
    boundary.io.stdout.write(Buffer.from([0xff, ...Buffer.from(' svc_live_abcdefghijklmnop '), 0xfe]));
    expect(io.out()).toContain('a not-…0123 b svc_test_…1234\n');
    expect(io.out()).not.toContain('abcdefghijklmnop');
    expect(io.out()).toContain('svc_live_…mnop');
  });

  it("masks the password of a URL in use (SVC_PACING_URL's): in any URL whatever its length, alone once long", () => {
    const io = memoryIO();
    const boundary = new Boundary(io);
    boundary.protectUrlPassword('redis://default:pw@127.0.0.1:6379/2');
    boundary.protectUrlPassword('rediss://ops:s%40fe-and-long@cache.example.com:6380');
    boundary.io.stderr.write('redis://default:pw@127.0.0.1:6379 pw stays a word\n');
    boundary.io.stdout.write(Buffer.from('x rediss://ops:s%40fe-and-long@cache y s@fe-and-long z\n'));
    expect(io.err()).toBe('redis://default:***@127.0.0.1:6379 pw stays a word\n');
    expect(io.out()).toBe('x rediss://ops:***@cache y *** z\n');
  });

  it("lets through whole only keys disclosed on purpose (the bundled emulator's)", () => {
    const io = memoryIO();
    const boundary = new Boundary(io);
    boundary.protect('svc_live_emulatorlivekey0001');
    boundary.disclose(['svc_live_emulatorlivekey0001', 'svc_test_emulatortestkey0002']);
    boundary.io.stdout.write(
      'svc_live_emulatorlivekey0001 svc_test_emulatortestkey0002 svc_live_someoneelse00003\n',
    );
    expect(io.out()).toBe('svc_live_emulatorlivekey0001 svc_test_emulatortestkey0002 svc_live_…0003\n');
  });

  it('a writer that hooks write (as ora does) hooks the guarded write: no loop, still masked', () => {
    const io = memoryIO();
    const stream = new Boundary(io).io.stderr;
    const original = stream.write;
    stream.write = ((chunk: string) => original(`[hooked] ${chunk}`)) as typeof stream.write;
    stream.write('svc_test_hookedwrite000001\n');
    stream.write = original;
    stream.write('after\n');
    expect(io.err()).toBe('[hooked] svc_test_…0001\nafter\n');
  });

  it('keeps what is written the same otherwise, bytes included', () => {
    const io = memoryIO();
    const boundary = new Boundary(io);
    const bytes = Buffer.from([0xff, 0x00, 0x1b, 0x41]);
    boundary.io.stdout.write(bytes);
    boundary.io.stdout.write('plain \u001b text\n');
    expect(io.out()).toBe(`${bytes.toString()}plain \u001b text\n`);
  });
});
