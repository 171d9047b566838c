/**
 * The shared record of one key's bucket (shared-record.ts) in Redis, for `svc` processes on
 * several machines (SVC_PACING_URL). It lives in a hash, `svc:pacing:<id>` (`id` hashes key and
 * base URL as the state file's name does; the key itself is never written), fields `rec` (the
 * record's JSON) and `rev` (a count of writes), expiring RECORD_TTL_MS after the last write so
 * that nothing is left behind. A change runs under a lock, `svc:pacing:<id>:lock`, taken and
 * given back by Lua scripts, each one atomic round trip: take the lock and read the record;
 * write the record and give the lock back. A holder that dies leaves a lock that expires after
 * LOCK_LEASE_MS; one whose lease ran out while it was slow still writes, if nobody took the
 * lock meanwhile and the record is the one it read.
 *
 * Pids mean nothing across machines: each process is a random 48-bit number in the record
 * (its host and pid beside it, for people), and the liveness of the others is judged by their
 * last write (shared-record.ts, isDeparted).
 */
import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { SharedStore } from './record-file.js';
import { type RedisLink, unexpectedAnswer } from './redis-link.js';
import { emptyRecord, parseRecord, type SharedRecord } from './shared-record.js';

/** The record expires this long after its last write (a model this old is worth nothing). */
export const RECORD_TTL_MS = 60 * 60_000;
/** A holder keeps the lock for one round trip; a lock older than this is one whose holder died. */
const LOCK_LEASE_MS = 500;

/** Takes the lock (KEYS[2]) and reads the record (KEYS[1]): {1, rec, rev}, or {0, '', the lock's time left}. */
const TAKE = `
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local found = redis.call('HMGET', KEYS[1], 'rec', 'rev')
  return {1, found[1] or '', found[2] or '0'}
end
return {0, '', tostring(redis.call('PTTL', KEYS[2]))}
`;

/**
 * Writes the record and gives the lock back, when the lock is still ours, or free with the
 * record unchanged since we read it (revision ARGV[3]): the new revision, else 0 and nothing written.
 */
const WRITE = `
local holder = redis.call('GET', KEYS[2])
if holder == ARGV[1] or (not holder and (redis.call('HGET', KEYS[1], 'rev') or '0') == ARGV[3]) then
  redis.call('HSET', KEYS[1], 'rec', ARGV[2])
  local revision = redis.call('HINCRBY', KEYS[1], 'rev', 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  if holder then redis.call('DEL', KEYS[2]) end
  return revision
end
return 0
`;

/**
 * Reads the record (KEYS[1]) unless its revision is ARGV[1], the one the caller holds: {rev}
 * or {rev, rec}. A process waiting for its turn looks every few milliseconds; most looks find
 * the record unchanged and move a few bytes instead of the whole record.
 */
const LOOK = `
local revision = redis.call('HGET', KEYS[1], 'rev') or '0'
if revision == ARGV[1] then return {revision} end
return {revision, redis.call('HGET', KEYS[1], 'rec') or ''}
`;

/** Gives the lock back without writing (a change that threw). */
const GIVE_BACK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** The scripts, as ioredis runs them once defined (EVALSHA, EVAL when Redis does not know them yet). */
interface Scripts {
  svcTakePacingLock(
    record: string,
    lock: string,
    token: string,
    leaseMs: number,
  ): Promise<[number, string, string]>;
  svcWritePacingRecord(
    record: string,
    lock: string,
    token: string,
    text: string,
    revision: string,
    ttlMs: number,
  ): Promise<number>;
  svcGiveBackPacingLock(lock: string, token: string): Promise<number>;
  svcLookAtPacingRecord(record: string, revision: string): Promise<[string, string?]>;
}

const defined = new WeakSet<Redis>();

/** The client with svc's scripts defined on it. */
function scripted(redis: Redis): Redis & Scripts {
  if (!defined.has(redis)) {
    redis.defineCommand('svcTakePacingLock', { numberOfKeys: 2, lua: TAKE });
    redis.defineCommand('svcWritePacingRecord', { numberOfKeys: 2, lua: WRITE });
    redis.defineCommand('svcGiveBackPacingLock', { numberOfKeys: 1, lua: GIVE_BACK });
    redis.defineCommand('svcLookAtPacingRecord', { numberOfKeys: 1, lua: LOOK });
    defined.add(redis);
  }
  return redis as Redis & Scripts;
}

/** The Redis key of a bucket's record. */
export function redisRecordKey(bucketId: string): string {
  return `svc:pacing:${bucketId}`;
}

/** The shared record of one key's bucket in Redis, for the processes of every machine. */
export class RedisStore implements SharedStore {
  /** Never two alike, on any machine. */
  readonly pid = randomInt(1, 2 ** 48 - 1);
  readonly label = { host: hostname(), pid: process.pid };
  readonly where: string;
  private readonly recordKey: string;
  private readonly lockKey: string;
  private steps = 0;
  /** The record as this process last read or wrote it, and its revision. */
  private known?: { revision: string; text: string };

  constructor(
    private readonly link: RedisLink,
    private readonly bucketId: string,
    private readonly now: () => number = Date.now,
  ) {
    this.recordKey = redisRecordKey(bucketId);
    this.lockKey = `${this.recordKey}:lock`;
    this.where = `${link.url.shown} (${this.recordKey})`;
  }

  /** Another machine's pid cannot be checked: the last write tells. */
  isAlive(pid: number): boolean | undefined {
    return pid === this.pid ? true : undefined;
  }

  available(): boolean {
    return this.link.available();
  }

  peek(): Promise<SharedRecord | undefined> {
    return this.link.run('a look at the pacing record', async (redis) => {
      const [revision, changed] = reply(
        await scripted(redis).svcLookAtPacingRecord(this.recordKey, this.known?.revision ?? ''),
        [1, 2],
        'a look at the pacing record',
      );
      const text = changed ?? this.known?.text ?? '';
      this.known = { revision, text };
      return text ? parseRecord(text, this.bucketId, this.now()) : emptyRecord(this.bucketId, this.now());
    });
  }

  transact<T>(change: (record: SharedRecord) => T): Promise<T> {
    return this.link.run('a pacing update', async (client, bound) => {
      const redis = scripted(client);
      this.steps += 1;
      const token = `${this.pid}.${this.steps}`;
      let taken: [number, string, string];
      for (let attempt = 0; ; attempt += 1) {
        taken = reply(
          await redis.svcTakePacingLock(this.recordKey, this.lockKey, token, LOCK_LEASE_MS),
          [3],
          'the pacing lock',
        );
        if (taken[0] === 1) break;
        bound.throwIfAborted();
        // Holders keep it for one round trip: look again soon, never past the lease it has left.
        await delay(Math.max(1, Math.min(attempt < 10 ? 1 : 5, Number(taken[2]))));
        bound.throwIfAborted();
      }
      const [, text, revision] = taken;
      if (bound.aborted) {
        await redis.svcGiveBackPacingLock(this.lockKey, token).catch(() => undefined);
        throw bound.reason;
      }
      // Corrupt, another version, times from a clock that stepped back: start afresh over it.
      const record =
        (text ? parseRecord(text, this.bucketId, this.now()) : undefined) ??
        emptyRecord(this.bucketId, this.now());
      let result: T;
      try {
        result = change(record);
      } catch (error) {
        await redis.svcGiveBackPacingLock(this.lockKey, token).catch(() => undefined);
        throw error;
      }
      record.updatedAt = this.now();
      // Refused only when this process was so slow that its lease ran out and another wrote
      // meanwhile: its step then stays its own (at worst one request the others did not count,
      // which the service's answers correct), rather than a failure that would stop the sharing.
      const written = JSON.stringify(record);
      const newRevision = await redis.svcWritePacingRecord(
        this.recordKey,
        this.lockKey,
        token,
        written,
        revision,
        RECORD_TTL_MS,
      );
      this.known = newRevision ? { revision: String(newRevision), text: written } : undefined;
      return result;
    });
  }
}

/**
 * A script's answer, checked for its shape: a server that answers out of step or with another
 * type is a Redis svc cannot use (the step fails, the pacer goes on without it), never a crash.
 */
function reply<T extends unknown[]>(answer: T, lengths: number[], what: string): T {
  if (Array.isArray(answer) && lengths.includes(answer.length)) return answer;
  throw unexpectedAnswer(what, answer, `a list of ${lengths.join(' or ')}`);
}
