/**
 * svc's own count of the daily write quota it spent on a key
 * (docs/service-contract.md, Daily write quota): one unit per write request the service
 * accepted (spendsWriteQuota, answerSpentQuota), per service day (UTC, as the quota resets).
 * The reference shows the quota only in the dashboard and sends no header, so this is what
 * svc counted, labelled so.
 *
 * Every svc process of the machine counts into one file beside the shared pacing record,
 * `<state dir>/quota/<id>.quota.json` (the user's, shared by every config dir) (`id` hashes key and base URL; the key is never
 * written), under a lock. With SVC_PACING_URL, every machine's processes also count into
 * Redis, `svc:quota:<id>:<day>`, expiring a day after that day ends; units counted while Redis
 * was away are added there once it answers again (by the process that counted them, while it runs).
 */
import { join } from 'node:path';
import { makeDirectory } from '../../config/directory.js';
import { LockedFile } from '../../config/locked-file.js';
import { msUntilUtcMidnight } from '../../contract/contract.js';
import { quotaDay } from '../../contract/rules/write-quota.js';
import { type RedisLink, unexpectedAnswer } from './redis-link.js';

const FILE_VERSION = 1;
const DAY_MS = 86_400_000;

/** What svc counted of a key's quota today. */
export interface QuotaReading {
  /** The service day (UTC): `2025-06-01`. */
  day: string;
  /** Units svc counted today: every machine's through Redis when it answered, else this machine's. */
  spent: number;
  /** Units the svc processes of this machine (this config dir) counted today. */
  thisMachine: number;
  /** Whose count `spent` is: "this machine", or "every machine sharing SVC_PACING_URL". */
  countedOn: string;
  /** When the quota resets (next 00:00 UTC). */
  resetsAt: Date;
  /** Why the count of every machine could not be read, when Redis is set but did not answer. */
  unshared?: string;
}

/** The count of this machine, in a file under a lock (overwritten in place: one write a request). */
export class QuotaFile {
  private readonly file: LockedFile;

  constructor(
    private readonly dir: string,
    private readonly bucketId: string,
  ) {
    this.file = new LockedFile(join(dir, `${bucketId}.quota.json`), join(dir, `${bucketId}.quota.lock`));
  }

  /** Units counted on `day` (0 when nothing was, or the file cannot be read). */
  async read(day: string): Promise<number> {
    const found = this.parse(await this.file.read().catch(() => undefined));
    return found?.day === day ? found.spent : 0;
  }

  /** Counts `units` on `day`; a day before the file's is dropped (the quota it counted has reset). */
  async add(day: string, units: number): Promise<void> {
    makeDirectory(this.dir);
    await this.file.update((text) => {
      const found = this.parse(text);
      if (found && found.day > day) return { result: undefined };
      const spent = (found?.day === day ? found.spent : 0) + units;
      const content = { version: FILE_VERSION, bucketId: this.bucketId, day, spent };
      return { text: JSON.stringify(content), result: undefined };
    });
  }

  private parse(text: string | undefined): { day: string; spent: number } | undefined {
    try {
      const value = JSON.parse(text ?? '');
      if (
        value?.version === FILE_VERSION &&
        value.bucketId === this.bucketId &&
        typeof value.day === 'string' &&
        Number.isInteger(value.spent) &&
        value.spent >= 0
      ) {
        return { day: value.day, spent: value.spent };
      }
    } catch {
      // No count yet, or one svc cannot read: counted afresh.
    }
    return undefined;
  }
}

/** The count of every machine, in Redis. */
export class RedisQuota {
  constructor(
    readonly link: RedisLink,
    private readonly bucketId: string,
  ) {}

  private key(day: string): string {
    return `svc:quota:${this.bucketId}:${day}`;
  }

  /** Adds `units` to `day`'s count; it expires a day after that day ends. */
  add(day: string, units: number): Promise<void> {
    const expiresAt = Date.parse(`${day}T00:00:00.000Z`) + 2 * DAY_MS;
    return this.link.run('a quota count', async (redis) => {
      await redis.multi().incrby(this.key(day), units).pexpireat(this.key(day), expiresAt).exec();
    });
  }

  /** The units every machine counted on `day`. */
  read(day: string): Promise<number> {
    return this.link.run('a look at the quota count', async (redis) =>
      countOf(await redis.get(this.key(day))),
    );
  }
}

/** The count of a key's spend, as one client keeps it. */
export class QuotaTally {
  /** Counting steps in order, never holding a request. */
  private counting: Promise<void> = Promise.resolve();
  /** Units counted on this machine that Redis does not have yet, by day. */
  private readonly unshared = new Map<string, number>();

  constructor(
    private readonly file: QuotaFile | undefined,
    private readonly shared: RedisQuota | undefined,
    private readonly now: () => number,
  ) {}

  /** One accepted write at `at`: counted in the background (a count that fails is lost, never the request). */
  spend(at: number): void {
    const day = quotaDay(at);
    void this.inTurn(() => this.count(day)).catch(() => undefined);
  }

  /** Today's count (after every spend so far is counted). */
  async read(): Promise<QuotaReading> {
    await this.counting;
    const at = this.now();
    const day = quotaDay(at);
    const thisMachine = (await this.file?.read(day)) ?? 0;
    const reading: QuotaReading = {
      day,
      spent: thisMachine,
      thisMachine,
      countedOn: 'this machine',
      resetsAt: new Date(at + msUntilUtcMidnight(at)),
    };
    if (!this.shared) return reading;
    const { link } = this.shared;
    try {
      await this.inTurn(() => this.share());
      reading.spent = await this.shared.read(day);
      reading.countedOn = `every machine sharing ${link.url.setting}`;
    } catch (error) {
      reading.unshared = `${link.url.setting} (${link.url.shown}) ${link.describe(error)}`;
    }
    return reading;
  }

  /** Resolves once every spend is counted, and Redis was given what it lacks if it answers. */
  async settled(): Promise<void> {
    await this.counting;
    if (this.unshared.size > 0 && this.shared?.link.available()) {
      await this.inTurn(() => this.share()).catch(() => undefined);
    }
  }

  /** Runs `step` after every step before it (each one's failure its own). */
  private inTurn<T>(step: () => Promise<T>): Promise<T> {
    const result = this.counting.then(step);
    this.counting = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async count(day: string): Promise<void> {
    await this.file?.add(day, 1).catch(() => undefined);
    if (!this.shared) return;
    this.unshared.set(day, (this.unshared.get(day) ?? 0) + 1);
    if (this.shared.link.available()) await this.share().catch(() => undefined);
  }

  /** Adds to Redis what this process counted while it was away. */
  private async share(): Promise<void> {
    for (const [day, units] of [...this.unshared]) {
      await this.shared?.add(day, units);
      this.unshared.delete(day);
    }
  }
}

/**
 * A count as INCRBY keeps it (none yet: 0). Anything else is an answer out of step (a server
 * that answers a command twice) or another key's: Redis unusable for this step, never NaN.
 */
function countOf(answer: unknown): number {
  if (answer === null) return 0;
  if (typeof answer === 'string' && /^\d{1,15}$/.test(answer)) return Number(answer);
  throw unexpectedAnswer('the quota count', answer, 'a count');
}
