/** An IO for in-process tests: stdout and stderr collected in memory, no terminal. */
import { PassThrough, Writable } from 'node:stream';
import type { IO } from '../../src/output/io.js';

/** An IO whose stdout and stderr are collected in memory; `out()` and `err()` read them. */
export function memoryIO(stdoutIsTTY = false): IO & { out: () => string; err: () => string } {
  const collect = () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    return { stream, text: () => chunks.join('') };
  };
  const stdout = collect();
  const stderr = collect();
  return {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: new PassThrough(),
    stdoutIsTTY,
    stderrIsTTY: false,
    stdinIsTTY: false,
    color: false,
    out: stdout.text,
    err: stderr.text,
  };
}
