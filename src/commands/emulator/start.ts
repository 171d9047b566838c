import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { isLoopbackName } from '../../client/proxy-route.js';
import { defineCommand } from '../../cmdutil/define.js';
import { collectFault } from '../../cmdutil/emulator/fault-flag.js';
import { integerFlag, positiveNumberFlag } from '../../cmdutil/parse.js';
import {
  EmulatorStateError,
  type FaultSpec,
  makeTlsIdentity,
  type RunningEmulator,
  startEmulator,
} from '../../emulator/index.js';
import { UsageError } from '../../errors.js';
import { counted, plural } from '../../words.js';

/** Options of `svc emulator start`. */
export interface EmulatorStartOptions {
  fault?: FaultSpec[];
  port: number;
  host: string;
  seed?: number;
  orders?: number;
  products?: number;
  bucket?: number;
  drain?: number;
  rateLimit: boolean;
  writeQuota?: number;
  ordersPerMinute?: number;
  ordersUnpaidShare: number;
  ordersPaymentDelay: number;
  ordersCancelShare: number;
  channelDelay?: number;
  channelRateLimitShare: number;
  channelFailureShare: number;
  json?: boolean;
  webhookTimeScale?: number;
  webhookTimeout?: number;
  webhookDuplicates?: number;
  fixedKeys?: boolean;
  state?: string;
  stateInterval: number;
  tls?: boolean;
}

/** `svc emulator start`: serves the API on localhost until SIGINT or SIGTERM. */
export const command = defineCommand<EmulatorStartOptions>({
  path: ['emulator', 'start'],
  rank: 1,
  description: 'start a local emulator of the service and print its base URL and keys',
  flags: [
    {
      flags: '--port <n>',
      description: 'port to listen on (0 picks a free one)',
      parse: integerFlag('--port', 0, 65535),
      default: 4010,
    },
    {
      flags: '--host <host>',
      description: 'address to listen on (another than loopback makes random keys)',
      default: '127.0.0.1',
    },
    {
      flags: '--fixed-keys',
      description: "keep the seed's well-known keys on a --host other machines can reach",
    },
    {
      flags: '--seed <n>',
      description: 'seed of the generated store data (default 1)',
      parse: integerFlag('--seed', 0),
    },
    { flags: '--orders <n>', description: 'how many orders to seed', parse: integerFlag('--orders', 0) },
    {
      flags: '--products <n>',
      description: 'how many products to seed',
      parse: integerFlag('--products', 0),
    },
    {
      flags: '--bucket <n>',
      description: 'rate-limit bucket size per key (default 80)',
      parse: integerFlag('--bucket', 1),
    },
    {
      flags: '--drain <r>',
      description: 'rate-limit drain per second (default 4)',
      parse: positiveNumberFlag('--drain'),
    },
    { flags: '--no-rate-limit', description: 'turn the rate limit off' },
    {
      flags: '--write-quota <n>',
      description: 'daily write quota (default 10000)',
      parse: integerFlag('--write-quota', 0),
    },
    {
      flags: '--orders-per-minute <r>',
      description: 'new orders arriving from the channels per minute, on average (default 0: none)',
      parse: positiveNumberFlag('--orders-per-minute'),
    },
    {
      flags: '--orders-unpaid-share <x>',
      description:
        'share of arriving orders that arrive awaiting_payment, to be paid or canceled later, 0 to 1',
      parse: shareFlag('--orders-unpaid-share'),
      default: 0.2,
    },
    {
      flags: '--orders-payment-delay <s>',
      description: 'mean seconds from an unpaid order arriving to its payment or cancellation',
      parse: positiveNumberFlag('--orders-payment-delay'),
      default: 600,
    },
    {
      flags: '--orders-cancel-share <x>',
      description: 'share of unpaid orders canceled instead of paid, 0 to 1',
      parse: shareFlag('--orders-cancel-share'),
      default: 0.1,
    },
    {
      flags: '--channel-delay <ms>',
      description: 'time before channels answer a write (default 2000)',
      parse: integerFlag('--channel-delay', 0),
    },
    {
      flags: '--channel-rate-limit-share <x>',
      description: 'share of channel calls throttled (channel_rate_limited) and retried with backoff, 0 to 1',
      parse: shareFlag('--channel-rate-limit-share'),
      default: 0.05,
    },
    {
      flags: '--channel-failure-share <x>',
      description: 'share of channel calls that fail outright (channel_error), 0 to 1',
      parse: shareFlag('--channel-failure-share'),
      default: 0,
    },
    {
      flags: '--webhook-time-scale <x>',
      description: 'multiply webhook retry delays (1 min … 24 h) by this, e.g. 0.001 to run them in seconds',
      parse: positiveNumberFlag('--webhook-time-scale'),
    },
    {
      flags: '--webhook-timeout <ms>',
      description: 'time a webhook receiver has to answer (default 10000)',
      parse: integerFlag('--webhook-timeout', 1),
    },
    {
      flags: '--webhook-duplicates <x>',
      description: 'share of delivered events sent a second time, 0 to 1 (at-least-once)',
      parse: shareFlag('--webhook-duplicates'),
    },
    {
      flags: '--state <dir>',
      description:
        'keep the store in DIR: loaded at start when there, written on stop and every --state-interval',
    },
    {
      flags: '--tls',
      description:
        'serve HTTPS with a certificate made at start; its CA is written to a file whose path is printed (trust it with SVC_CA_FILE)',
    },
    {
      flags: '--state-interval <s>',
      description: 'seconds between writes of --state while anything changed',
      parse: integerFlag('--state-interval', 1),
      default: 30,
    },
    {
      flags: '--fault <spec>',
      description:
        'inject a fault into the next matching requests: METHOD:PATH:KIND[:TIMES[:SECONDS]] (repeatable)',
      parse: (raw, previous) => collectFault(raw, previous as FaultSpec[] | undefined),
    },
  ],
  takes: { output: 'lines', offline: true },
  examples: [
    'svc emulator start',
    'svc emulator start --port 0 --json      # one JSON line: base_url and keys',
    'svc emulator start --bucket 10 --drain 5 --write-quota 100',
    'svc emulator start --state ./rehearsal    # the store survives a restart',
    'svc emulator start --orders 1000000 --no-rate-limit',
    'svc emulator start --orders-per-minute 30 --orders-unpaid-share 0.5 --orders-payment-delay 120',
    'svc emulator start --fault POST:/inventory/batch:service_unavailable:3:2 --fault "*:/orders*:delay:1:1500"',
  ],
  /** Starts the emulator, prints where it listens and its keys, and serves until interrupted. */
  async run(options, { io, signal }) {
    const { randomKeys, warning } = exposure(options.host, isLoopbackName(options.host), options.fixedKeys);
    const tls = options.tls ? await tlsFiles(options.state) : undefined;
    const emulator = await startEmulator({
      tls: tls?.identity,
      port: options.port,
      host: options.host,
      seed: options.seed,
      randomKeys,
      orders: options.orders,
      products: options.products,
      bucket: options.bucket,
      drainPerSecond: options.drain,
      rateLimit: options.rateLimit,
      writeQuota: options.writeQuota,
      orderArrivalPerMinute: options.ordersPerMinute,
      orderUnpaidShare: options.ordersUnpaidShare,
      orderPaymentDelayMs: options.ordersPaymentDelay * 1000,
      orderCancelShare: options.ordersCancelShare,
      channelDelayMs: options.channelDelay,
      channelRateLimitShare: options.channelRateLimitShare,
      channelFailureShare: options.channelFailureShare,
      webhookTimeScale: options.webhookTimeScale,
      webhookTimeoutMs: options.webhookTimeout,
      webhookDuplicateRate: options.webhookDuplicates,
      stateDir: options.state,
      stateIntervalMs: options.stateInterval * 1000,
    }).catch((error: unknown) => {
      // A state it cannot use is the user's to move or replace: exit 2, never reseed over it.
      void tls?.remove();
      if (error instanceof EmulatorStateError) throw new UsageError(error.message);
      throw listenRefusal(error, options.host, options.port) ?? error;
    });
    for (const fault of options.fault ?? []) emulator.faults.inject(fault);
    if (warning) io.messages.warn(warning);
    const unused = [
      options.seed !== undefined && '--seed',
      options.orders !== undefined && '--orders',
      options.products !== undefined && '--products',
    ].filter(Boolean);
    if (emulator.restored) io.messages.info(loadedText(options.state ?? '', emulator.store));
    if (emulator.restored && unused.length > 0) {
      io.messages.warn(
        `the store was loaded from ${options.state}: ${unused.join(' and ')} shape only a new store, and ${plural(unused.length, 'is', 'are')} ignored (start with another --state directory for a new one)`,
      );
    }
    // Its keys reach only this emulator: they are printed whole, to be copied.
    io.boundary.disclose(Object.values(emulator.keys));
    if (options.json || io.wantsJson) {
      await io.printer.json({
        base_url: emulator.url,
        keys: emulator.keys,
        ...(tls ? { ca_file: tls.caFile } : {}),
      });
    } else {
      const lines = [
        `Emulator listening on ${emulator.url}`,
        '',
        ...Object.entries(emulator.keys).map(([name, key]) => `  ${`${name} key`.padEnd(15)} ${key}`),
        '',
        'Try:',
        `  export SVC_BASE_URL=${emulator.url} SVC_API_KEY=${emulator.keys.live}${tls ? ` SVC_CA_FILE=${tls.caFile}` : ''}`,
        '  svc orders list --status awaiting_shipment',
        '',
        ...(options.state
          ? [
              `The store is kept in ${options.state} (written every ${options.stateInterval} s and on stop).`,
              '',
            ]
          : []),
        ...(tls
          ? [
              `HTTPS: its CA certificate is in ${tls.caFile} (trust it with SVC_CA_FILE or NODE_EXTRA_CA_CERTS).`,
              '',
            ]
          : []),
        'Press Ctrl-C to stop.',
      ];
      await io.printer.text(lines.join('\n'));
    }
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    await emulator.close();
    await tls?.remove();
  },
});

/**
 * A CA and server certificate made now, and the CA written where the user can point svc at it:
 * in the --state directory (kept), else in a temporary directory removed on stop.
 */
async function tlsFiles(stateDir: string | undefined) {
  const dir = stateDir ?? (await mkdtemp(join(tmpdir(), 'svc-emulator-tls-')));
  if (stateDir) await mkdir(stateDir, { recursive: true });
  const identity = await makeTlsIdentity();
  const caFile = join(dir, 'emulator-ca.pem');
  await writeFile(caFile, identity.caPem, { mode: 0o644 });
  return {
    identity,
    caFile,
    remove: async () => {
      if (!stateDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Why the address cannot be listened on, as a usage error (exit 2); undefined for other failures. */
function listenRefusal(error: unknown, host: string, port: number): UsageError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE') {
    return new UsageError(
      `port ${port} is in use on ${host}: another program (or emulator) listens there; pick another with --port N (--port 0 picks a free one)`,
    );
  }
  if (code === 'EACCES') {
    return new UsageError(
      `cannot listen on ${where}: permission denied; use a port above 1023 with --port N`,
    );
  }
  if (code === 'EADDRNOTAVAIL') {
    return new UsageError(
      `cannot listen on ${where}: no interface of this machine has that address; check --host`,
    );
  }
  return undefined;
}

/** "Loaded the store from DIR: 8 products (24 SKUs), 30 listings, 40 orders, …": what a restart carries on with. */
function loadedText(dir: string, store: RunningEmulator['store']): string {
  const parts = [
    `${counted(store.products.size, 'product')} (${counted(store.variantCount(), 'SKU')})`,
    counted(store.listings.size, 'listing'),
    counted(store.orders.size, 'order'),
    counted(store.operations.size, 'operation'),
    counted(store.events.size, 'event'),
    counted(store.webhookEndpoints.size, 'webhook endpoint'),
  ];
  return `Loaded the store from ${dir}: ${parts.join(', ')}.`;
}

/**
 * On an address other machines can reach, the seed's keys are public knowledge: the keys are
 * random unless --fixed-keys asks for the seed's, and a warning says so either way.
 */
export function exposure(
  host: string,
  loopback: boolean,
  fixedKeys = false,
): { randomKeys: boolean; warning?: string } {
  if (loopback) return { randomKeys: false };
  const keys = fixedKeys
    ? 'the well-known keys of the seed are in use (--fixed-keys)'
    : "the keys are random for this run (--fixed-keys keeps the seed's)";
  return {
    randomKeys: !fixedKeys,
    warning: `listening on ${host}, which other machines may reach: anyone who can connect and holds a key reads and changes the emulated store; ${keys}`,
  };
}

/** A share from 0 to 1, for the channel failure flags. */
function shareFlag(flag: string) {
  return (raw: string): number => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
      throw new InvalidArgumentError(`${flag} takes a number from 0 to 1, e.g. ${flag} 0.1`);
    }
    return value;
  };
}
