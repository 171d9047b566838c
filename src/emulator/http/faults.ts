/**
 * Fault injection for tests: for a method and path pattern, the next N requests fail the
 * way a real server or network does, so retry and resume logic can be exercised.
 */

/** The ways a request can be made to fail. */
export type FaultKind =
  /** 500 internal_error, nothing applied. */
  | 'internal_error'
  /** 503 service_unavailable with Retry-After, nothing applied. */
  | 'service_unavailable'
  /** 429 rate_limit_exceeded with Retry-After, nothing applied. */
  | 'rate_limited'
  /** The connection drops before the request is applied. */
  | 'drop_before'
  /** The request is applied, then the connection drops before the answer. */
  | 'drop_after'
  /** The answer comes after `delayMs` of real time (or sooner, once `until` settles). */
  | 'delay';

/** What to inject. */
export interface FaultSpec {
  /** HTTP method to match; any when omitted. */
  method?: string;
  /** Path to match, below /rest/v1 or whole: a string matches exactly, a RegExp is tested. */
  path: string | RegExp;
  kind: FaultKind;
  /** How many matching requests it hits; default 1. */
  times?: number;
  /** Seconds in Retry-After for 503 and 429; default 1. */
  retryAfter?: number;
  /** Real milliseconds for `delay`; default 1000. */
  delayMs?: number;
  /**
   * In-process only: a `delay` ends as soon as this settles (`delayMs` still bounds it), so a
   * test can hold one request until something else happened, e.g. a crawl's second page
   * until another process's push landed.
   */
  until?: Promise<unknown>;
}

/** A fault that hit a request. */
export interface FaultHit {
  kind: FaultKind;
  retryAfter: number;
  delayMs: number;
  until?: Promise<unknown>;
}

interface ActiveFault {
  spec: FaultSpec;
  left: number;
}

/** The faults waiting for requests. */
export class FaultInjector {
  private active: ActiveFault[] = [];

  /** Queue a fault; earlier injections match first. */
  inject(spec: FaultSpec): void {
    this.active.push({ spec, left: spec.times ?? 1 });
  }

  /** Take the fault for a request, if one matches. `path` is below /rest/v1. */
  take(method: string, path: string, prefix: string): FaultHit | undefined {
    for (const fault of this.active) {
      if (fault.left <= 0 || !matches(fault.spec, method, path, prefix)) continue;
      fault.left--;
      this.active = this.active.filter((candidate) => candidate.left > 0);
      return {
        kind: fault.spec.kind,
        retryAfter: fault.spec.retryAfter ?? 1,
        delayMs: fault.spec.delayMs ?? 1000,
        until: fault.spec.until,
      };
    }
    return undefined;
  }

  /** How many hits are still queued. */
  pending(): number {
    return this.active.reduce((sum, fault) => sum + fault.left, 0);
  }

  /** Drop every queued fault. */
  clear(): void {
    this.active = [];
  }
}

function matches(spec: FaultSpec, method: string, path: string, prefix: string): boolean {
  if (spec.method && spec.method.toUpperCase() !== method) return false;
  const bare = path.split('?')[0];
  if (typeof spec.path === 'string') return spec.path === bare || spec.path === `${prefix}${bare}`;
  // A global RegExp keeps state between test() calls; start each match from the beginning.
  spec.path.lastIndex = 0;
  if (spec.path.test(bare)) return true;
  spec.path.lastIndex = 0;
  return spec.path.test(`${prefix}${bare}`);
}
