/** The V8 settings a command runs with (set before it runs; help needs none of them). */

/**
 * undici parses HTTP with llhttp compiled to WebAssembly at the first connection. V8's
 * optimising tier for that module costs about 35 MB of peak memory and 100 ms or more, more
 * than a CLI's whole crawl gains from it (bench/memory.mjs); the baseline tier is plenty.
 * The flag is read when a module compiles, so setting it before a command runs suffices (help
 * needs no node:v8); it is the CLI's choice, so a program that imports the library or the
 * emulator keeps its own.
 *
 * A command also keeps its heap near what it holds: V8 lets the heap grow to several times
 * its live set before a full collection, which suits a server; a push or a crawl streams, and
 * holds some 20 MB whatever its length, but what its requests leave behind would otherwise
 * pile up to 150 MB and more before it is collected: a 300,000-row push peaks at 126 to 129 MB
 * with the setting and 172 MB without, for some 10% more CPU (bench/RESULTS.md, session 5).
 * The emulator, whose live set is the store, keeps V8's own growth.
 */
export async function useBaselineWasmTier(emulator: boolean): Promise<void> {
  const v8 = await import('node:v8');
  v8.setFlagsFromString('--liftoff-only');
  if (emulator) return;
  v8.setFlagsFromString('--heap-growing-percent=20');
  capYoungGeneration(v8);
}

const watched = new WeakSet<object>();

/** The young generation's size at which it stops growing (both halves, MB). */
const YOUNG_GENERATION_CAP_MB = 16;

/**
 * V8 doubles the young generation (where new objects are made) from 2 MB up to 32 MB as a long
 * run keeps allocating: for a crawl or a push that is peak memory for no speed, since a page's
 * objects die young at 16 MB as at 32. Measured (bench/RESULTS.md, session 6), a 111,000-SKU
 * export 111 -> 93 MB and a 100,000-row push 127 -> 111 MB at the same CPU time; a cap of 8 MB
 * took 10% more CPU for 10 MB less. The cap is a start-up flag, out of reach of a running
 * program, but the growth factor is read at each growth: once the young generation reached the
 * cap, a factor of 1 keeps it there. Checked every 50 ms (a timer that keeps nothing alive).
 */
export function capYoungGeneration(
  v8: Pick<typeof import('node:v8'), 'getHeapSpaceStatistics' | 'setFlagsFromString'>,
): void {
  // One watch a process: a program that runs many commands (the tests) starts it once.
  if (watched.has(v8)) return;
  watched.add(v8);
  const check = setInterval(() => {
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young && young.space_size < YOUNG_GENERATION_CAP_MB * 2 ** 20) return;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    clearInterval(check);
  }, 50);
  check.unref();
}
