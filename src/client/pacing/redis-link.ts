/**
 * One process's connection to the Redis of SVC_PACING_URL (pacing-url.ts), shared by the
 * store of the key's pacing record (redis-store.ts) and the quota count (quota-tally.ts).
 * Redis is a helper, never a requirement: every step it takes is bounded (STEP_BOUND_MS), and
 * one that fails or overruns marks the link down: one warning on stderr naming the setting
 * (the first time only), then the callers pace with this machine alone until the client has
 * reconnected and RETRY_MS has passed. The client (ioredis) is loaded on the first step, never
 * at start-up; its password is never shown (`shown` masks it).
 */
import type { Redis, RedisOptions } from 'ioredis';
import type { PacingUrl } from './pacing-url.js';

/** The most one step (a peek, a locked update, a count) may hold a request, connection included. */
export const STEP_BOUND_MS = 1_000;
/**
 * After a failure, how long before Redis is tried again (once the client has reconnected):
 * doubling with each failure in a row up to RETRY_MAX_MS, so that a Redis that stays slow costs
 * a bounded wait now and then, not one a second.
 */
const RETRY_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** The client reconnects on its own, at most this far apart. */
const RECONNECT_MAX_MS = 2_000;

/** Where a link reports. */
export interface LinkSinks {
  /** The one warning when Redis is lost (stderr). */
  warning?: (line: string) => void;
  /** --debug lines: Redis back, failures after the first. */
  debug?: (line: string) => void;
}

/** What `svc doctor` learns of the Redis. */
export interface RedisProbe {
  /** Round trip of a PING, ms. */
  latencyMs: number;
  version?: string;
}

/** The link of one process to the Redis of its pacing URL. */
export class RedisLink {
  /** Local clock to Redis's (ms to add), measured at connection: processes on several machines share one clock. */
  clockOffsetMs = 0;
  private client?: Redis;
  private clientClass?: Promise<typeof Redis>;
  private opening?: Promise<Redis>;
  /** Why the client last failed, as its 'error' event said (a refused connection says only "Connection is closed"). */
  private lastError?: Error;
  private downSince?: number;
  private retryAt = 0;
  /** Failures since the last success. */
  private failures = 0;
  private warned = false;
  private closed = false;

  constructor(
    readonly url: PacingUrl,
    private readonly sinks: LinkSinks = {},
    private readonly now: () => number = Date.now,
    /** The bound of one step (a test of what does not time out gives one only a hang reaches). */
    private readonly stepBoundMs = STEP_BOUND_MS,
  ) {}

  /** Whether Redis is worth a step now: not known down, or reconnected since and its retry time come. */
  available(): boolean {
    if (this.closed) return false;
    if (this.downSince === undefined) return true;
    return this.client?.status === 'ready' && this.now() >= this.retryAt;
  }

  /**
   * Runs `step` with the client within the step bound (connecting first when needed). A failure
   * or an overrun marks the link down and rejects; the first success after that says Redis is back.
   * Loading ioredis comes before the bound: it is this process's time, not Redis's answer.
   */
  async run<T>(
    what: string,
    step: (redis: Redis, signal: AbortSignal) => Promise<T>,
    /** A failure the caller reports itself (`svc doctor`): the link goes down without the warning. */
    quiet = false,
  ): Promise<T> {
    if (this.closed) throw new Error(`${this.url.setting} is closed`);
    if (!this.client) {
      try {
        await this.loadClient();
      } catch (error) {
        this.fail(error, quiet);
        throw error;
      }
    }
    // Aborted at the bound: a step still under way must not act on a record it no longer holds.
    const bound = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`no answer to ${what} within ${this.stepBoundMs / 1000} s`);
        bound.abort(error);
        reject(error);
      }, this.stepBoundMs);
    });
    try {
      const result = await Promise.race([
        this.connected().then((redis) => step(redis, bound.signal)),
        overrun,
      ]);
      if (this.downSince !== undefined) {
        this.downSince = undefined;
        this.say(`${this.url.setting} (${this.url.shown}) answers again: pacing shared through it again`);
      }
      return result;
    } catch (error) {
      bound.abort(error);
      this.fail(error, quiet);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** PING's round trip and the server's version, for `svc doctor`, which says itself why it fails. */
  probe(): Promise<RedisProbe> {
    return this.run(
      'PING',
      async (redis) => {
        const started = performance.now();
        await redis.ping();
        const latencyMs = performance.now() - started;
        const info = await redis.info('server');
        return { latencyMs, version: /redis_version:(\S+)/.exec(info)?.[1] };
      },
      true,
    );
  }

  /** Why Redis cannot be used, as one phrase ("does not answer (connect ECONNREFUSED …)"). */
  describe(error: unknown): string {
    const cause = this.lastError ?? (error as Error);
    const message = oneLine(String(cause?.message ?? cause));
    // A reply is Redis refusing us (a wrong password, a command it will not run), not silence.
    const refused = cause?.name === 'ReplyError' || /^(WRONGPASS|NOAUTH|NOPERM|ERR)\b/.test(message);
    return refused ? `refuses svc (${message})` : `does not answer (${message})`;
  }

  /** Closes the connection (and its reconnection timers) at most a step bound from now. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.opening?.catch(() => undefined));
    if (!client) return;
    const quit = client.quit().catch(() => undefined);
    const bound = new Promise((resolve) => setTimeout(resolve, this.stepBoundMs).unref());
    await Promise.race([quit, bound]);
    client.disconnect();
  }

  /** The client, connected (the first call loads ioredis and connects). */
  private async connected(): Promise<Redis> {
    if (this.client?.status === 'ready') return this.client;
    if (this.client) {
      const state = this.client.status === 'reconnecting' ? 'lost, reconnecting' : this.client.status;
      throw this.lastError ?? new Error(`the connection is ${state}`);
    }
    this.opening ??= this.open();
    return this.opening;
  }

  /** ioredis's client class, loaded once (a CommonJS module: bundled, its named exports hang off the default one). */
  private loadClient(): Promise<typeof Redis> {
    this.clientClass ??= import('ioredis').then((loaded) => {
      const module = loaded as unknown as { Redis?: typeof Redis; default: { Redis?: typeof Redis } };
      return (module.Redis ?? module.default.Redis) as typeof Redis;
    });
    return this.clientClass;
  }

  private async open(): Promise<Redis> {
    const Client = await this.loadClient();
    const options: RedisOptions = {
      lazyConnect: true,
      connectTimeout: this.stepBoundMs,
      commandTimeout: this.stepBoundMs,
      // A step that cannot be sent now fails now: the callers pace locally meanwhile.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(times * 250, RECONNECT_MAX_MS),
      // A Redis that only refuses (a wrong password) is retried as slowly as one that is away.
      reconnectOnError: () => false,
    };
    const client = new Client(this.url.url, options);
    // Without a listener ioredis prints every error itself; they are said once, by fail().
    client.on('error', (error: Error) => {
      this.lastError = error;
      // A reply to no command: the server answers out of step, and every later reply would land
      // on the wrong command. The connection is dropped (its commands fail: Redis is away).
      if (/Command queue state error/.test(error.message)) dropBroken(client, error);
    });
    // Before anything is read: ioredis throws from its socket's reader on some out-of-step replies.
    client.on('connect', () => guardReader(client, (error) => this.brokeProtocol(client, error)));
    // Measured at each connection: a Redis that was away at start sets the clock once it answers.
    let measured: Promise<void> = Promise.resolve();
    client.on('ready', () => {
      this.lastError = undefined;
      measured = this.measureClock(client).catch(() => undefined);
    });
    this.client = client;
    if (this.closed) client.disconnect();
    try {
      await client.connect();
      await checkDatabase(client);
    } catch (error) {
      // Never left half open: a database that does not exist is not database 0.
      this.client = undefined;
      this.opening = undefined;
      client.disconnect();
      throw error;
    }
    await measured;
    return client;
  }

  /** The server broke the protocol (out-of-step replies, garbage): the connection is dropped. */
  private brokeProtocol(client: Redis, error: Error): void {
    this.lastError = new Error(`broke the Redis protocol (${error.message})`);
    dropBroken(client, this.lastError);
  }

  /** Redis's clock against ours, from TIME, half the round trip taken off. */
  private async measureClock(client: Redis): Promise<void> {
    const sent = this.now();
    const redisNow = timeOf(await client.time());
    const received = this.now();
    if (redisNow !== undefined) this.clockOffsetMs = redisNow - (sent + received) / 2;
  }

  private fail(error: unknown, quiet: boolean): void {
    const first = this.downSince === undefined;
    if (first) this.downSince = this.now();
    this.failures += 1;
    this.retryAt = this.now() + Math.min(RETRY_MS * 2 ** (this.failures - 1), RETRY_MAX_MS);
    if (!first || quiet) return;
    const line =
      `${this.url.setting} (${this.url.shown}) ${this.describe(error)}: pacing with the svc processes ` +
      "of this machine only until it answers again (the service's 429 answers still hold requests back)";
    if (this.warned) {
      this.say(line);
      return;
    }
    this.warned = true;
    try {
      this.sinks.warning?.(line);
    } catch {
      // A lost line must not cost a request.
    }
  }

  private say(line: string): void {
    try {
      this.sinks.debug?.(line);
    } catch {
      // A lost debug line must not cost a request.
    }
  }
}

/**
 * ioredis selects the URL's database itself but, refused, goes on silently with database 0: the
 * selection is asked for again, so that a refusal ("ERR DB index is out of range") fails the step.
 */
async function checkDatabase(client: Redis): Promise<void> {
  const db = client.options.db ?? 0;
  if (db !== 0) await client.select(db);
}

/**
 * TIME's answer in ms: seconds and microseconds, as digits. Another command's reply out of step
 * (a lock take's `1, '', '0'` read as 1 s put every shared time 56 years back) is none.
 */
function timeOf(answer: unknown): number | undefined {
  if (!Array.isArray(answer) || answer.length !== 2) return undefined;
  const [seconds, micros] = answer as unknown[];
  if (typeof seconds !== 'string' || typeof micros !== 'string') return undefined;
  if (!/^\d{1,12}$/.test(seconds) || !/^\d{1,6}$/.test(micros)) return undefined;
  return Number(seconds) * 1000 + Number(micros) / 1000;
}

/** Drops a connection whose replies cannot be trusted any more; its commands fail. */
function dropBroken(client: Redis, error: Error): void {
  const stream = (client as unknown as { stream?: { destroy(error?: Error): void } }).stream;
  stream?.destroy(error);
}

/** The readers of the connection's socket, each made to report what it throws instead of ending the process. */
function guardReader(client: Redis, broke: (error: Error) => void): void {
  const stream = (client as unknown as { stream?: NodeJS.EventEmitter }).stream;
  if (!stream) return;
  const readers = stream.listeners('data') as Array<(chunk: Buffer) => void>;
  stream.removeAllListeners('data');
  for (const reader of readers) {
    stream.on('data', (chunk: Buffer) => {
      try {
        reader.call(stream, chunk);
      } catch (error) {
        broke(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }
}

/** An answer of the wrong shape (out of step, or another key's): the step fails, Redis is away for it. */
export function unexpectedAnswer(what: string, answer: unknown, expected: string): Error {
  return new Error(
    `Redis answered ${what} with ${String(JSON.stringify(answer)).slice(0, 40)}, not ${expected}`,
  );
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
