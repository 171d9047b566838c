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
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
  if (!emulator) setFlagsFromString('--heap-growing-percent=20');
}
