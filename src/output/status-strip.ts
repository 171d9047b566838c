import { paint, Styled } from './escape.js';

/**
 * `svc status` as a picture: the half-hour buckets of the status history as one line of
 * blocks (full: up, half: degraded, low: down), coloured on a terminal unless NO_COLOR, and
 * the worst incidents under it.
 */

/** One bucket of the status history (GET /status). */
export interface StatusBucket {
  t: string;
  up_ratio: number;
}

/** Up at least this share of a bucket's probes: up. */
const UP = 0.999;
/** Below this share: down. */
const DOWN = 0.9;
const BUCKET_MS = 30 * 60_000;

const GLYPHS = { up: '█', degraded: '▄', down: '▁' } as const;
const COLORS = { up: 32, degraded: 33, down: 31 } as const;

type State = keyof typeof GLYPHS;

function stateOf(upRatio: number): State {
  if (upRatio >= UP) return 'up';
  return upRatio >= DOWN ? 'degraded' : 'down';
}

/**
 * The buckets, oldest first, in at most `width` characters: each character the worst of the
 * buckets it stands for.
 */
export function statusStrip(buckets: readonly StatusBucket[], width: number, color: boolean): Styled {
  if (buckets.length === 0) return new Styled('');
  const columns = Math.max(1, Math.min(buckets.length, width));
  let strip = '';
  for (let column = 0; column < columns; column++) {
    const from = Math.floor((column * buckets.length) / columns);
    const to = Math.max(from + 1, Math.floor(((column + 1) * buckets.length) / columns));
    const worst = Math.min(...buckets.slice(from, to).map((bucket) => bucket.up_ratio));
    const state = stateOf(worst);
    strip += paint(COLORS[state], GLYPHS[state], color).text;
  }
  return new Styled(strip);
}

/** A run of buckets that were not fully up. */
export interface Incident {
  start: string;
  /** When its last bucket ended. */
  end: string;
  /** The lowest share of probes up in it. */
  lowest: number;
  buckets: number;
}

/** The runs of buckets below fully up, worst (lowest, then longest) first, at most `max`. */
export function worstIncidents(buckets: readonly StatusBucket[], max: number): Incident[] {
  const incidents: Incident[] = [];
  let current: Incident | undefined;
  for (const bucket of buckets) {
    if (bucket.up_ratio >= UP) {
      current = undefined;
      continue;
    }
    const end = new Date(Date.parse(bucket.t) + BUCKET_MS).toISOString();
    if (current) {
      current.end = end;
      current.lowest = Math.min(current.lowest, bucket.up_ratio);
      current.buckets += 1;
    } else {
      current = { start: bucket.t, end, lowest: bucket.up_ratio, buckets: 1 };
      incidents.push(current);
    }
  }
  return incidents.sort((a, b) => a.lowest - b.lowest || b.buckets - a.buckets).slice(0, max);
}

/** "2026-11-20 14:00–15:30 UTC  lowest 62.0% up, 3 half-hours". */
function incidentLine(incident: Incident): string {
  const day = incident.start.slice(0, 10);
  const from = incident.start.slice(11, 16);
  const to =
    incident.end.slice(0, 10) === day
      ? incident.end.slice(11, 16)
      : incident.end.slice(0, 16).replace('T', ' ');
  const halves = incident.buckets === 1 ? '1 half-hour' : `${incident.buckets} half-hours`;
  return `${day} ${from}–${to} UTC  lowest ${(incident.lowest * 100).toFixed(1)}% up, ${halves}`;
}

/** Label column of the summary lines the strip sits among ("history         "). */
const LABEL = 'history         ';

/**
 * The history lines of `svc status`: the strip after its label, a legend, the worst incidents.
 * The strip's colours are svc's own; the times come from the service and are escaped.
 */
export function statusHistory(
  buckets: readonly StatusBucket[],
  columns: number,
  color: boolean,
): Array<Styled | string> {
  if (buckets.length === 0) return [`${LABEL}none`];
  const days = Math.round((buckets.length * BUCKET_MS) / 86_400_000);
  const lines = [
    new Styled(`${LABEL}${statusStrip(buckets, Math.max(10, columns - LABEL.length), color)}`),
    `${' '.repeat(LABEL.length)}${days > 0 ? `${days} days` : 'hours'}, oldest first: ${GLYPHS.up} up, ${GLYPHS.degraded} degraded, ${GLYPHS.down} down`,
  ];
  const incidents = worstIncidents(buckets, 3);
  if (incidents.length === 0) return [...lines, `${' '.repeat(LABEL.length)}no incident`];
  return [...lines, 'worst incidents', ...incidents.map((incident) => `  ${incidentLine(incident)}`)];
}
