import type { ApiClient } from '../client/client.js';
import type { Followed } from '../core/operations/follow.js';
import type { FlagSpec } from './define.js';
import type { Deps } from './deps.js';
import { integerFlag } from './parse.js';

/** Default of --timeout, in seconds (docs/guide.md, Exit codes). */
const DEFAULT_WAIT_SECONDS = 300;

/** Flags of a command that can follow what it started. */
export interface WaitFlags {
  wait?: boolean;
  timeout: number;
}

/** `--timeout S`: how long a wait may last (docs/guide.md, Exit codes: 8 when it runs out). */
export function timeoutFlag(description = 'with --wait: give up after S seconds, then exit 8'): FlagSpec {
  const parse = integerFlag('--timeout', 0);
  return { flags: '--timeout <s>', description, parse: (raw) => parse(raw), default: DEFAULT_WAIT_SECONDS };
}

/** `--wait` (what it follows, by default the one operation a write started) and `--timeout S`. */
export function waitFlags(
  what = 'wait for the operation to end and show its per-channel results',
): FlagSpec[] {
  return [{ flags: '--wait', description: what }, timeoutFlag()];
}

/** Follows one operation until it ends or the time is up, noting each change of its status on a terminal. */
export async function followOne(
  ctx: Pick<Deps, 'io' | 'signal'>,
  client: ApiClient,
  id: string,
  timeoutSeconds: number,
): Promise<Followed> {
  const { followOperations } = await import('../core/operations/follow.js');
  let lastStatus = '';
  return followOperations(client, [id], {
    timeoutSeconds,
    signal: ctx.signal,
    onProgress: ({ operations }) => {
      const status = operations[0]?.status ?? '';
      if (status !== lastStatus && ctx.io.stderrIsTTY) ctx.io.messages.info(`${id}: ${status}`);
      lastStatus = status;
    },
  });
}

/** Follows many operations (created at or after `createdAfter`) with progress (a live line on a terminal, a line every 30 s elsewhere). */
export async function followMany(
  ctx: Pick<Deps, 'io' | 'signal'>,
  client: ApiClient,
  ids: readonly string[],
  options: { timeoutSeconds: number; createdAfter?: string },
): Promise<Followed> {
  const { followOperations } = await import('../core/operations/follow.js');
  const { startProgress } = await import('../output/progress.js');
  const progress = await startProgress(ctx.io, {
    ...ctx.io.progress,
    total: new Set(ids).size,
    noun: 'operations done',
    // A rate of operations done says nothing: the count and the time elapsed.
    waiting: true,
  });
  try {
    return await followOperations(client, ids, {
      ...options,
      signal: ctx.signal,
      onProgress: ({ done }) => progress.update(done),
    });
  } finally {
    progress.stop();
  }
}
