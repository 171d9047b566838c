/** Progress of long work on a terminal (count, rate, ETA); silent when piped or in CI. */
import { humanDuration } from './duration.js';
import { estimateRemaining, type PaceReading, RecentRate } from './eta.js';
import type { IO } from './io.js';

/** A progress line that updates in place. */
export interface Progress {
  /** `done` items so far, in `answered` requests (bulk runs; the ETA needs items per request). */
  update(done: number, answered?: number): void;
  stop(): void;
}

/** What a progress line is about. */
export interface ProgressOptions {
  total: number;
  noun: string;
  enabled: boolean;
  now?: () => number;
  /** How the run is paced, read at each update (a bulk run's client). */
  pace?: () => PaceReading | undefined;
  /** Waiting for work done elsewhere (--wait): the count and the time elapsed, no rate. */
  waiting?: boolean;
}

const SILENT: Progress = { update() {}, stop() {} };

/** A spinner on stderr when it is a terminal (see progressText), else nothing. */
export async function startProgress(io: IO, options: ProgressOptions): Promise<Progress> {
  // A terminal that reports no width (0 columns under `docker run -t` or `ssh -tt`), or next
  // to none, gets no live line: ora counts the line's height in columns and climbs back up
  // that many lines each frame, infinitely many at 0, a line per character at 1.
  if (!options.enabled || !io.stderrIsTTY || !hasWidth(io)) return SILENT;
  const { default: ora } = await import('ora');
  const now = options.now ?? Date.now;
  const started = now();
  const recent = new RecentRate();
  // Answers since the rate limit began to set the pace, over a second and a half at least:
  // two answers a few ms apart say nothing of a rate.
  const answers = new RecentRate(Number.POSITIVE_INFINITY, 1500);
  recent.add(started, 0);
  const spinner = ora({
    stream: io.stderr as NodeJS.WriteStream,
    text: `0/${options.total} ${options.noun}`,
  }).start();
  let last: ProgressState | undefined;
  let lastAt = started;
  const render = () => {
    if (!last) return;
    spinner.text = progressText({ ...last, elapsedMs: now() - started, sinceUpdateMs: now() - lastAt });
  };
  // Between answers the ETA counts down and the elapsed time goes on.
  const ticker = setInterval(render, 250);
  ticker.unref();
  return {
    update(done, answered) {
      if (!hasWidth(io)) {
        clearInterval(ticker);
        spinner.stop();
        return;
      }
      const at = now();
      recent.add(at, done);
      const pace = options.pace?.();
      // The bucket's first requests go at once: the sustained rate is measured once requests
      // wait for its drain.
      if (answered !== undefined && pace?.limited) answers.add(at, answered);
      last = {
        ...options,
        done,
        elapsedMs: at - started,
        recentPerSecond: recent.perSecond(),
        answersPerSecond: answers.perSecond(),
        itemsPerRequest: answered ? done / answered : 0,
        pace,
      };
      lastAt = at;
      render();
    },
    stop() {
      clearInterval(ticker);
      spinner.stop();
    },
  };
}

/** The state one progress line shows. */
export interface ProgressState {
  total: number;
  done: number;
  noun: string;
  elapsedMs: number;
  recentPerSecond?: number;
  answersPerSecond?: number;
  itemsPerRequest: number;
  pace?: PaceReading;
  waiting?: boolean;
  /** Time since the counts were taken: the ETA counts down by it. */
  sinceUpdateMs?: number;
}

/**
 * "1,200/20,000 SKUs · 48/s · ETA 6m 15s · paced by the rate limit (4.0 requests/s)"; while
 * waiting, "3/9 operations done · 12s elapsed".
 */
export function progressText(state: ProgressState): string {
  const count = `${state.done.toLocaleString('en-US')}/${state.total.toLocaleString('en-US')} ${state.noun}`;
  if (state.waiting) return `${count} · ${humanDuration(state.elapsedMs)} elapsed`;
  const parts = [count];
  if (state.recentPerSecond !== undefined) parts.push(`${state.recentPerSecond.toFixed(0)}/s`);
  const left = estimateRemaining(state);
  if (left && state.done < state.total) {
    const ms = Math.max(0, left.seconds * 1000 - (state.sinceUpdateMs ?? 0));
    parts.push(`ETA ${humanDuration(ms)}`);
  }
  if (left?.paced && left.perSecond)
    parts.push(`paced by the rate limit (${left.perSecond.toFixed(1)} requests/s)`);
  return parts.join(' · ');
}

/** Narrower than this, a live line would wrap over more lines than it is worth. */
const MIN_LIVE_COLUMNS = 20;

function hasWidth(io: IO): boolean {
  const columns = (io.stderr as NodeJS.WriteStream).columns;
  return typeof columns === 'number' && columns >= MIN_LIVE_COLUMNS;
}
