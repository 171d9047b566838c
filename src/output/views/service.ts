/** How the service's own state is shown: `svc status` and `svc health`. */
import type { Health, Status } from '../../contract/schemas/status.js';
import { type Styled, styledLines } from '../escape.js';
import { statusHistory } from '../status-strip.js';
import { age } from '../time.js';

/** The status page for people: state, uptime, latency, last check, then the history strip. */
export function statusText(
  status: Status,
  now: number,
  terminal: { columns?: number; color: boolean },
): Styled {
  const check = status.last_check;
  const uptime = status.uptime_24h;
  const history = statusHistory(status.buckets ?? [], terminal.columns ?? 80, terminal.color);
  return styledLines([
    `state           ${status.state}`,
    `uptime (24h)    ${uptime == null ? '' : `${(uptime * (uptime <= 1 ? 100 : 1)).toFixed(2)}%`}`,
    `avg latency     ${status.avg_latency_ms == null ? '' : `${Math.round(status.avg_latency_ms)} ms`}`,
    `last check      ${check ? `${check.ok ? 'ok' : 'FAILED'}, ${check.latency_ms ?? '?'} ms, ${age(check.time, now)} ago` : ''}`,
    ...history,
  ]);
}

/** "ok at 2026-11-02T12:00:00Z". */
export function healthText(health: Health): string {
  return `${health.status}${health.time ? ` at ${health.time}` : ''}`;
}
