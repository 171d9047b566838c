/**
 * The emulator's webhook deliveries: every event the store emits goes to each enabled
 * endpoint subscribed to its type, signed, through the one delivery module, retried on the
 * service's schedule (docs/service-contract.md, Webhooks; sped up by `timeScale`); an endpoint whose retries run out is
 * disabled. At-least-once (a duplicate on request), no ordering promise.
 */
import {
  WEBHOOK_ANSWER_TIMEOUT_MS,
  WEBHOOK_RETRY_DELAYS_MS,
  webhookRetryDelayMs,
} from '../../contract/contract.js';
import { signedHeaders } from '../../contract/signature.js';
import type { EventRecord, WebhookEndpointRecord } from '../model.js';
import { Rng } from '../rng.js';
import type { Store } from '../store/store.js';
import { postOnce } from './poster.js';

/** How deliveries behave. */
export interface WebhookSettings {
  /** Every retry delay is multiplied by this: 1 is the service's schedule, 0.001 runs 72 h in about 4 min. */
  timeScale: number;
  /** Time a receiver has to answer one attempt; default 10 s. */
  timeoutMs: number;
  /** Probability in [0, 1] that a delivered event is delivered a second time (at-least-once). */
  duplicateRate: number;
  /** Seeds the duplicate draws, so a run repeats. */
  seed: number;
}

/** One attempt to deliver one event to one endpoint, for tests and `--debug` style inspection. */
export interface DeliveryAttemptRecord {
  endpointId: string;
  eventId: string;
  eventType: string;
  url: string;
  attempt: number;
  ok: boolean;
  status: number | null;
  error: string | null;
  /** True for the extra delivery of an at-least-once duplicate. */
  duplicate: boolean;
  /** Real time of the attempt's end (Date.now), not the emulator's clock. */
  atMs: number;
}

/** Which attempts to list. */
export interface DeliveryFilter {
  endpointId?: string;
  eventId?: string;
  ok?: boolean;
}

const LOG_CAP = 50_000;

/** Resolves true after `ms`, or false at once when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** Runs the deliveries of one emulator. */
export class WebhookDispatcher {
  private readonly settings: WebhookSettings;
  private readonly rng: Rng;
  private readonly log: DeliveryAttemptRecord[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private abort = new AbortController();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Store,
    settings: Partial<WebhookSettings> = {},
  ) {
    this.settings = {
      timeScale: settings.timeScale ?? 1,
      timeoutMs: settings.timeoutMs ?? WEBHOOK_ANSWER_TIMEOUT_MS,
      duplicateRate: settings.duplicateRate ?? 0,
      seed: settings.seed ?? 1,
    };
    this.rng = new Rng(this.settings.seed ^ 0x5eed_b00c);
    this.unsubscribe = store.onEvent((event) => this.dispatch(event));
  }

  /** Start delivering `event` to every enabled endpoint subscribed to its type. */
  dispatch(event: EventRecord): void {
    // The body is fixed at emission: a receiver sees the event exactly as the log keeps it.
    const body = JSON.stringify(event);
    for (const endpoint of this.store.webhookEndpoints.values()) {
      if (!subscribed(endpoint, event.type)) continue;
      const task = this.run(endpoint, event, body).finally(() => this.inFlight.delete(task));
      this.inFlight.add(task);
    }
  }

  /** The attempts so far, oldest first. */
  attempts(filter: DeliveryFilter = {}): DeliveryAttemptRecord[] {
    return this.log.filter(
      (record) =>
        (filter.endpointId === undefined || record.endpointId === filter.endpointId) &&
        (filter.eventId === undefined || record.eventId === filter.eventId) &&
        (filter.ok === undefined || record.ok === filter.ok),
    );
  }

  /** Resolves once no delivery is in flight (retries included). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Drops every pending delivery and the attempt log (emulator reset). */
  cancel(): void {
    this.abort.abort(new Error('webhook deliveries cancelled'));
    this.abort = new AbortController();
    this.log.length = 0;
  }

  /** Stops delivering and releases connections. */
  async close(): Promise<void> {
    this.unsubscribe();
    this.abort.abort(new Error('emulator closed'));
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(endpoint: WebhookEndpointRecord, event: EventRecord, body: string): Promise<void> {
    // A signal per delivery, following the shared one: the waits between retries listen to
    // it, so hundreds of deliveries add no listeners to the shared signal.
    const signal = AbortSignal.any([this.abort.signal]);
    const delivered = await this.attempt(endpoint, event, body, signal, false);
    if (delivered === undefined) return;
    if (!delivered) {
      // Only the endpoint as it still is: deleted or already disabled needs nothing.
      const current = this.store.webhookEndpoints.get(endpoint.id);
      if (current?.status === 'enabled') {
        this.store.webhookEndpoints.update(current, () => {
          current.status = 'disabled';
        });
      }
      return;
    }
    if (this.settings.duplicateRate > 0 && this.rng.chance(this.settings.duplicateRate)) {
      await this.attempt(endpoint, event, body, signal, true);
    }
  }

  /** True delivered, false retries ran out, undefined stopped (cancelled, endpoint gone or disabled). */
  private async attempt(
    endpoint: WebhookEndpointRecord,
    event: EventRecord,
    body: string,
    signal: AbortSignal,
    duplicate: boolean,
  ): Promise<boolean | undefined> {
    // The service's schedule: the first attempt, then a retry after each delay (scaled for tests).
    const attempts = duplicate ? 1 : WEBHOOK_RETRY_DELAYS_MS.length + 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        const delay = Math.round(webhookRetryDelayMs(attempt - 1) * this.settings.timeScale);
        if (!(await pause(delay, signal))) return undefined;
        // Deleted or disabled meanwhile: nothing more to deliver.
        if (this.store.webhookEndpoints.get(endpoint.id)?.status !== 'enabled') return undefined;
      }
      // Each attempt is signed when it is sent, with the secret the endpoint has then.
      const secret = this.store.webhookEndpoints.get(endpoint.id)?.secret ?? endpoint.secret;
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'svc-emulator-webhooks',
        ...signedHeaders(secret, body, this.store.now()),
      };
      const outcome = await postOnce(endpoint.url, body, headers, {
        timeoutMs: this.settings.timeoutMs,
        signal,
      });
      if (signal.aborted) return undefined;
      const ok = 'status' in outcome && outcome.status >= 200 && outcome.status < 300;
      this.remember({
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        url: endpoint.url,
        attempt,
        ok,
        status: 'status' in outcome ? outcome.status : null,
        error: ok
          ? null
          : 'status' in outcome
            ? `the receiver answered HTTP ${outcome.status}`
            : outcome.error.message,
        duplicate,
        atMs: Date.now(),
      });
      if (ok) return true;
    }
    return false;
  }

  private remember(record: DeliveryAttemptRecord): void {
    this.log.push(record);
    if (this.log.length > LOG_CAP) this.log.splice(0, this.log.length - LOG_CAP);
  }
}

function subscribed(endpoint: WebhookEndpointRecord, type: string): boolean {
  return (
    endpoint.status === 'enabled' &&
    (endpoint.enabled_events.includes('*') || endpoint.enabled_events.includes(type))
  );
}
