/**
 * Following operations to their end, and the one way that end decides the run's: operations
 * still pending at the timeout end it with StillPending (exit 8), since their failures are
 * not final yet; otherwise a failure ends it with PartialFailure (exit 3); otherwise it goes
 * on. `operations wait`, the listing writes' --wait, `inventory push --wait` and `listings
 * retry --wait` all end this way; each words only what failed.
 */
import type { ApiClient } from '../../client/client.js';
import type { Operation } from '../../contract/schemas/operation.js';
import { PartialFailure, StillPending } from '../../errors.js';
import { type WaitOptions, type WaitResult, waitForOperations } from './wait.js';

/** How following ended: every operation as last seen, and how long it was allowed. */
export interface Followed extends WaitResult {
  timeoutSeconds: number;
}

/** What a follow needs besides the ids. */
export interface FollowOptions extends Omit<WaitOptions, 'timeoutMs'> {
  timeoutSeconds: number;
}

/** What failed, in the follower's words: one line, and the first items under it. */
export interface FollowFailure {
  message: string;
  details?: string[];
}

/** Polls the operations until each has ended or the time is up; never throws for pending ones. */
export async function followOperations(
  client: ApiClient,
  ids: readonly string[],
  options: FollowOptions,
): Promise<Followed> {
  const { timeoutSeconds, ...wait } = options;
  const result = await waitForOperations(client, ids, { ...wait, timeoutMs: timeoutSeconds * 1000 });
  return { ...result, timeoutSeconds };
}

/**
 * Ends the run as the follow ended: StillPending (exit 8) while operations are pending,
 * else PartialFailure (exit 3) for `failure`, else nothing.
 */
export function endOfFollow(followed: Followed, failure?: FollowFailure): void {
  const [first] = followed.pending;
  if (first) {
    const { operations, pending, timeoutSeconds } = followed;
    throw new StillPending(
      operations.length === 1
        ? `${first.id} is still ${first.status} after ${timeoutSeconds} s; run \`svc operations wait ${first.id}\` again to keep waiting`
        : `${pending.length} of ${operations.length} operations still pending after ${timeoutSeconds} s; \`svc operations wait ${first.id}\` waits for the first of them`,
    );
  }
  if (failure) throw new PartialFailure(failure.message, failure.details);
}

/** The failure of one operation that ended `partial` or `failed`, counted by channel result. */
export function operationFailure(followed: Followed): FollowFailure | undefined {
  const [operation] = followed.failed;
  if (!operation) return undefined;
  const results = operation.results ?? [];
  const failed = results.filter((result) => result.status === 'failed').length;
  return {
    message: `${operation.id} ended ${operation.status}: ${failed} of ${results.length} channel results failed`,
  };
}

/** Every failed result of the operations, with the operation it belongs to. */
export function failedResults(operations: readonly Operation[]) {
  return operations.flatMap((operation) =>
    (operation.results ?? [])
      .filter((result) => result.status === 'failed')
      .map((result) => ({ operation_id: operation.id, ...result })),
  );
}
