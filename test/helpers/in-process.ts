/** Runs the CLI in-process (`main()` with memory streams): no subprocess, no terminal, no signals. */
import { main } from '../../src/cli/main.js';
import { memoryIO } from './memory-io.js';

// The bundle defines the version at build time; the sources read it from here.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

/** What one in-process run printed and how it ended. */
export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `svc args…` in this process with `env` (NO_COLOR set) and an optional clock. */
export async function svcInProcess(
  args: string[],
  env: Record<string, string>,
  now?: () => number,
): Promise<InProcessResult> {
  const io = memoryIO();
  const code = await main(['node', 'svc', ...args], { io, env: { NO_COLOR: '1', ...env }, now });
  return { code, stdout: io.out(), stderr: io.err() };
}
