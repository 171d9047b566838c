/**
 * The bundled emulator: a stateful local implementation of the service's HTTP API.
 * `startEmulator` runs it in-process on an ephemeral port for tests, or on a fixed port
 * for `svc emulator start`; it never prints (the CLI command does).
 */
import { API_PREFIX, DEFAULT_WRITE_QUOTA, RATE_TIERS } from '../contract/contract.js';
import { type Clock, systemClock } from './clock.js';
import { type KeyName, KeyRing, type KeySpec } from './http/auth.js';
import { FaultInjector, type FaultSpec } from './http/faults.js';
import { IdempotencyStore, LeakyBuckets, WriteQuota } from './http/limits.js';
import { EmulatorCore, type RequestRecord } from './http/pipeline.js';
import { Router } from './http/router.js';
import { ROUTES } from './http/routes.js';
import { listen, type TlsIdentity } from './http/server.js';
import type { OrderRecord } from './model.js';
import { Reseeder } from './seed/reseed.js';
import { seedData } from './seed/seed.js';
import { ChannelSimulation } from './sim/channels.js';
import { OrderArrivals } from './sim/order-arrivals.js';
import { OrderPayments } from './sim/order-payments.js';
import { type DeliveryAttemptRecord, type DeliveryFilter, WebhookDispatcher } from './sim/webhooks.js';
import { loadState, StateKeeper, stateFile } from './store/state-file.js';
import { Store } from './store/store.js';

export type { ManualClock } from './clock.js';
export { createManualClock } from './clock.js';

export type { FaultKind, FaultSpec } from './http/faults.js';

export { EmulatorStateError, STATE_FILE, STATE_VERSION } from './store/state-file.js';

export { Store } from './store/store.js';
export { makeTlsIdentity } from './tls.js';

/** How long after seeding the seeded operations still under way take to end. */
const SEEDED_WORK_MS = 60_000;

/** How often the store's own clock brings due work about between requests, by default. */
const TICK_MS = 200;

/** How often a state directory is written while anything changed, by default. */
const STATE_INTERVAL_MS = 30_000;

/** How to start the emulator. */
export interface EmulatorOptions {
  /**
   * A directory that keeps the store across restarts: loaded at start when it holds a state
   * (the saved seed then makes the keys and simulations; `seed`, `orders` and `products` only
   * shape a new store), written atomically on close and every `stateIntervalMs` while anything
   * changed. A state that cannot be read, or was written by a newer version, is refused with
   * EmulatorStateError. Without it nothing is written.
   */
  stateDir?: string;
  /** How often the state directory is written while anything changed; default 30,000 ms. */
  stateIntervalMs?: number;
  /** Port to listen on; 0 (default) picks an ephemeral one. The CLI defaults to 4010. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Seed of the data and the keys; default 1. */
  seed?: number;
  /** Keys from the system's random source instead of the seed (an emulator others can reach). */
  randomKeys?: boolean;
  /** Seeded orders; default 200. */
  orders?: number;
  /** Seeded products; default 60. */
  products?: number;
  /** Bucket size of the top-tier keys; default 80. */
  bucket?: number;
  /** Drain rate of the top-tier keys, per second; default 4. */
  drainPerSecond?: number;
  /** False turns rate limiting off entirely (`--no-rate-limit`): no 429s and no rate headers. */
  rateLimit?: boolean;
  /** Successful channel-mutating writes per UTC day; default 10,000. */
  writeQuota?: number;
  /** How long a live write's operation stays pending before its channels answer; default 2,000 ms. */
  channelDelayMs?: number;
  /** Share (0 to 1) of channel calls throttled with `channel_rate_limited`, retried with backoff; default 0. */
  channelRateLimitShare?: number;
  /** Share (0 to 1) of channel calls that fail outright with `channel_error`; default 0. */
  channelFailureShare?: number;
  /** Source of time for everything; default the real clock. */
  clock?: Clock;
  /** New orders arriving from the channels per minute, on average (seeded, by the clock); default 0, none. */
  orderArrivalPerMinute?: number;
  /** Share (0 to 1) of arriving orders that arrive `awaiting_payment`; default 0.2. */
  orderUnpaidShare?: number;
  /** Mean time from an unpaid order's arrival to its payment or cancellation; default 600,000 ms. */
  orderPaymentDelayMs?: number;
  /** Share (0 to 1) of unpaid orders canceled instead of paid; default 0.1. */
  orderCancelShare?: number;
  /** Webhook retry delays are multiplied by this; default 1 (the service's 1 min … 24 h, docs/service-contract.md, Webhooks), 0.001 for tests. */
  webhookTimeScale?: number;
  /** Time a webhook receiver has to answer; default 10,000 ms. */
  webhookTimeoutMs?: number;
  /** Probability in [0, 1] that a delivered event is sent a second time (at-least-once); default 0. */
  webhookDuplicateRate?: number;
  /**
   * How often, in real milliseconds, what is due (channel answers, order arrivals and payments,
   * and so their events and webhook deliveries) happens with no request to bring it about;
   * default 200, 0 only before requests.
   */
  tickMs?: number;
  /** Serve HTTPS with this certificate and key (PEM; `makeTlsIdentity` makes them); the URL is https. */
  tls?: TlsIdentity;
}

/** The keys made at start. */
export interface EmulatorKeys {
  /** Live, every scope, top tier. */
  live: string;
  /** Test mode, every scope: writes are validated and simulated. */
  test: string;
  /** Live, only products:read and orders:read. */
  read_only: string;
  /** Live, every scope, trial tier (bucket 40, drain 2/s). */
  trial: string;
  /** Live, but the subscription lapsed: every request is 403 plan_not_eligible. */
  lapsed: string;
}

/** Which requests to count or list; every field optional. */
export interface RequestFilter {
  method?: string;
  /** Path below /rest/v1: exact string or RegExp. */
  path?: string | RegExp;
  /** Route as `METHOD /pattern`, e.g. `PATCH /inventory/{sku}`. */
  route?: string;
  status?: number;
}

/** A running emulator with its in-process control API. */
export interface RunningEmulator {
  /** Base URL, the part before /rest/v1, e.g. http://127.0.0.1:4010. */
  url: string;
  keys: EmulatorKeys;
  /** True when the store was loaded from `stateDir`, not seeded. */
  restored: boolean;
  store: Store;
  /** New orders from the channels: `arrive(atMs)` makes one arrive at once (with its event and stock change). */
  arrivals: { arrive(atMs: number): OrderRecord | undefined };
  /** Inject failures into the next matching requests. */
  faults: { inject(spec: FaultSpec): void; clear(): void; pending(): number };
  /** The requests handled so far (oldest first), optionally filtered. */
  requests(filter?: RequestFilter): RequestRecord[];
  /** The Idempotency-Keys received on matching requests, in arrival order (absent ones skipped). */
  idempotencyKeys(filter?: RequestFilter): string[];
  /** Make another key (default: live, every scope, top tier). */
  createKey(spec?: KeySpec): string;
  /** Make a key stop working at once. */
  revokeKey(secret: string): boolean;
  /** Successful counted writes today, by the emulator's clock. */
  writeQuotaUsed(): number;
  /** Seeded state again; buckets, quota, idempotency keys, faults and the request log cleared. */
  reset(): void;
  /** Webhook deliveries: every attempt so far, and a promise that resolves when none is in flight. */
  webhooks: { attempts(filter?: DeliveryFilter): DeliveryAttemptRecord[]; idle(): Promise<void> };
  close(): Promise<void>;
}

/**
 * Start the emulator and listen. This is the composition root: the store holds state only,
 * and what changes it over time (the channels, which also end seeded work, order arrivals,
 * webhook deliveries) and what keeps it (the state directory) are made and wired here.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const clock = options.clock ?? systemClock;
  const file = options.stateDir === undefined ? undefined : stateFile(options.stateDir);
  const saved = file === undefined ? undefined : await loadState(file);
  const seed = saved?.seed ?? options.seed ?? 1;
  const seededAt = clock.now();
  const seedOptions = {
    seed,
    products: options.products ?? 60,
    orders: options.orders ?? 200,
    now: seededAt,
  };
  // Tests reset an emulator before each test: the same seed each time, made once.
  const reseeder = new Reseeder(seedOptions);
  const store = new Store(clock);
  store.load(saved?.contents ?? seedData(seedOptions));
  const channels = new ChannelSimulation(store, {
    seed,
    delayMs: options.channelDelayMs ?? 2_000,
    rateLimitShare: options.channelRateLimitShare ?? 0,
    failureShare: options.channelFailureShare ?? 0,
  });
  store.onOperation((operation) => channels.schedule(operation, store.now()));
  const payments = new OrderPayments(store, {
    seed,
    meanDelayMs: options.orderPaymentDelayMs ?? 600_000,
    cancelShare: options.orderCancelShare ?? 0.1,
  });
  const arrivalsOn = (options.orderArrivalPerMinute ?? 0) > 0;
  const arrivals = new OrderArrivals(store, {
    perMinute: options.orderArrivalPerMinute ?? 0,
    seed,
    startMs: seededAt,
    unpaidShare: options.orderUnpaidShare ?? 0.2,
    onArrival: (order) => payments.expect(order),
  });
  // With arrivals on, the recent unpaid orders of the store settle too, as new ones will.
  if (arrivalsOn) payments.adopt(seededAt);
  // Operations still under way end through the channels: seeded ones a minute after (re)seeding,
  // saved ones after the channel delay, as if just sent.
  // From when the store is ready, not when seeding began: a big seed must not end its work at once.
  const readyAt = clock.now();
  channels.adopt(readyAt, readyAt + (saved ? channels.options.delayMs : SEEDED_WORK_MS));
  // Before each request and on every tick: the channels answer, orders arrive and are paid as the clock says.
  const advance = () => {
    const nowMs = store.now();
    channels.advance(nowMs);
    arrivals.advance(nowMs);
    payments.advance(nowMs);
  };
  const keyRing = new KeyRing(
    seed,
    {
      bucket: options.bucket ?? RATE_TIERS.top.bucket,
      drainPerSecond: options.drainPerSecond ?? RATE_TIERS.top.drainPerSecond,
    },
    { random: options.randomKeys },
  );
  const keys: Record<KeyName, string> = keyRing.createDefaults();
  const buckets = new LeakyBuckets();
  const quota = new WriteQuota(options.writeQuota ?? DEFAULT_WRITE_QUOTA);
  const idempotency = new IdempotencyStore();
  const faults = new FaultInjector();
  const webhooks = new WebhookDispatcher(store, {
    timeScale: options.webhookTimeScale,
    timeoutMs: options.webhookTimeoutMs,
    duplicateRate: options.webhookDuplicateRate,
    seed,
  });
  const core = new EmulatorCore({
    store,
    advance,
    keys: keyRing,
    router: new Router(ROUTES),
    buckets,
    quota,
    idempotency,
    faults,
    rateLimit: options.rateLimit ?? true,
  });
  const host = options.host ?? '127.0.0.1';
  const listening = await listen(core, host, options.port ?? 0, options.tls);
  const keeper =
    file === undefined
      ? undefined
      : new StateKeeper(store, seed, file, options.stateIntervalMs ?? STATE_INTERVAL_MS, saved !== undefined);
  const ticker = startTicker(advance, options.tickMs ?? TICK_MS);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const requests = (filter: RequestFilter = {}) => core.log.filter((record) => matchesFilter(record, filter));
  return {
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${listening.port}`,
    keys,
    restored: saved !== undefined,
    store,
    arrivals: { arrive: (atMs) => arrivals.arrive(atMs) },
    faults: {
      inject: (spec) => faults.inject(spec),
      clear: () => faults.clear(),
      pending: () => faults.pending(),
    },
    requests,
    idempotencyKeys: (filter) =>
      requests(filter).flatMap((record) => (record.idempotencyKey === null ? [] : [record.idempotencyKey])),
    createKey: (spec) => keyRing.create(spec),
    revokeKey: (secret) => keyRing.revoke(secret),
    writeQuotaUsed: () => quota.usedAt(clock.now()),
    reset: () => {
      channels.clear();
      arrivals.reset();
      payments.clear();
      store.clear();
      store.load(reseeder.fresh());
      channels.adopt(clock.now(), clock.now() + SEEDED_WORK_MS);
      if (arrivalsOn) payments.adopt(clock.now());
      buckets.clear();
      quota.clear();
      idempotency.clear();
      faults.clear();
      core.clearLog();
      webhooks.cancel();
    },
    webhooks: { attempts: (filter) => webhooks.attempts(filter), idle: () => webhooks.idle() },
    close: async () => {
      if (ticker) clearInterval(ticker);
      await webhooks.close();
      await listening.close();
      keeper?.stop();
    },
  };
}

/**
 * The store's own clock: due work happens when it is due, whether or not anyone calls the API.
 * Unref'd, so it never keeps a process alive; close() stops it.
 */
function startTicker(advance: () => void, everyMs: number): NodeJS.Timeout | undefined {
  if (!(everyMs > 0)) return undefined;
  const timer = setInterval(() => {
    try {
      advance();
    } catch {
      // The next request runs the same advance and answers what went wrong; a tick has no one to tell.
    }
  }, everyMs);
  timer.unref();
  return timer;
}

function matchesFilter(record: RequestRecord, filter: RequestFilter): boolean {
  if (filter.method && filter.method.toUpperCase() !== record.method.toUpperCase()) return false;
  if (filter.route && filter.route !== record.route) return false;
  if (filter.status !== undefined && filter.status !== record.status) return false;
  if (filter.path !== undefined) {
    if (typeof filter.path === 'string') {
      if (filter.path !== record.path && filter.path !== `${API_PREFIX}${record.path}`) return false;
    } else {
      filter.path.lastIndex = 0;
      if (!filter.path.test(record.path)) return false;
    }
  }
  return true;
}
