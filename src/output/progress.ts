/**
 * Progress of long work (count, rate, ETA): a live line on a terminal; elsewhere (a pipe, a
 * file, CI) a line every 30 s, so a log never goes silent for minutes between a plan and its
 * summary (CI services kill jobs that print nothing for 10 minutes). -q silences both.
 */
import { humanDuration } from './duration.js';
import { estimateRemaining, type PaceReading, RecentRate } from './eta.js';
import type { IO } from './io.js';

/** A progress line that updates in place. */
export interface Progress {
  /** `done` items so far, in `answered` requests (bulk runs; the ETA needs items per request). */
  update(done: number, answered?: number): void;
  stop(): void;
}

/** The time progress reads and the ticks it draws on: the system's, or a test's. */
export interface ProgressClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called; never keeps the process alive. */
  every(ms: number, tick: () => void): () => void;
}

/** Real time. */
const systemClock: ProgressClock = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** How often a run without a live line writes one: well inside CI services' 10 silent minutes. */
export const LINE_INTERVAL_MS = 30_000;

/** How a run shows progress, decided once from its flags and terminals. */
export interface ProgressSettings {
  /** Not -q. */
  enabled: boolean;
  /** A live line may be drawn when stderr is a terminal (not in CI, whose logs keep every frame). */
  live: boolean;
  /** The system's unless a test hands in its own. */
  clock?: ProgressClock;
}

/** What a progress line is about. */
export interface ProgressOptions extends Partial<ProgressSettings> {
  /** Undefined while unknown (a crawl to the end of a list): the count and rate, no ETA. */
  total: number | undefined;
  noun: string;
  enabled: boolean;
  /** How the run is paced, read at each update (a bulk run's client). */
  pace?: () => PaceReading | undefined;
  /** Waiting for work done elsewhere (--wait): the count and the time elapsed, no rate. */
  waiting?: boolean;
}

const SILENT: Progress = { update() {}, stop() {} };

/** Between answers the live line's ETA counts down and its elapsed time goes on. */
const LIVE_FRAME_MS = 250;

/**
 * A spinner on stderr when it is a terminal that may show one (see progressText); otherwise a
 * line every LINE_INTERVAL_MS; nothing when not enabled.
 */
export async function startProgress(io: IO, options: ProgressOptions): Promise<Progress> {
  if (!options.enabled) return SILENT;
  const clock = options.clock ?? systemClock;
  const meter = new ProgressMeter(options, clock.now);
  // A terminal that reports no width (0 columns under `docker run -t` or `ssh -tt`), or next
  // to none, gets no live line: ora counts the line's height in columns and climbs back up
  // that many lines each frame, infinitely many at 0, a line per character at 1.
  if (options.live !== false && io.stderrIsTTY && hasWidth(io)) return liveLine(io, options, meter, clock);
  return periodicLines(io, meter, clock);
}

/** The live line: ora on stderr, redrawn as counts come and between them. */
async function liveLine(
  io: IO,
  options: ProgressOptions,
  meter: ProgressMeter,
  clock: ProgressClock,
): Promise<Progress> {
  const { default: ora } = await import('ora');
  const spinner = ora({
    stream: io.stderr as NodeJS.WriteStream,
    text: progressText({
      total: options.total,
      done: 0,
      noun: options.noun,
      elapsedMs: 0,
      itemsPerRequest: 0,
    }),
  }).start();
  const render = () => {
    if (meter.updated) spinner.text = progressText(meter.state(clock.now()));
  };
  const stopTicks = clock.every(LIVE_FRAME_MS, render);
  return {
    update(done, answered) {
      if (!hasWidth(io)) {
        stopTicks();
        spinner.stop();
        return;
      }
      meter.update(clock.now(), done, answered);
      render();
    },
    stop() {
      stopTicks();
      spinner.stop();
    },
  };
}

/**
 * A line of its own every LINE_INTERVAL_MS: no cursor moves, so a log keeps each one whole. Its
 * rate is over the interval since the last line, so a run that stalled shows 0/s (and no ETA).
 */
function periodicLines(io: IO, meter: ProgressMeter, clock: ProgressClock): Progress {
  let previous = { at: clock.now(), done: 0 };
  const stopTicks = clock.every(LINE_INTERVAL_MS, () => {
    const at = clock.now();
    const state = meter.state(at);
    const seconds = (at - previous.at) / 1000;
    const recentPerSecond = seconds > 0 ? (state.done - previous.done) / seconds : state.recentPerSecond;
    previous = { at, done: state.done };
    // That rate is measured now, so its ETA runs from now; the pacer's runs from the last answer.
    const sinceUpdateMs = state.pace?.limited ? state.sinceUpdateMs : 0;
    io.stderr.write(`${progressText({ ...state, recentPerSecond, sinceUpdateMs })}\n`);
  });
  return {
    update(done, answered) {
      meter.update(clock.now(), done, answered);
    },
    stop: stopTicks,
  };
}

/** The counts of a run as they come, and the state a line shows at a moment. */
class ProgressMeter {
  private readonly started: number;
  private readonly recent = new RecentRate();
  // Answers since the rate limit began to set the pace, over a second and a half at least:
  // two answers a few ms apart say nothing of a rate.
  private readonly answers = new RecentRate(Number.POSITIVE_INFINITY, 1500);
  private last?: ProgressState;
  private lastAt: number;

  constructor(
    private readonly options: ProgressOptions,
    now: () => number,
  ) {
    this.started = now();
    this.lastAt = this.started;
    this.recent.add(this.started, 0);
  }

  /** Whether any count came yet. */
  get updated(): boolean {
    return this.last !== undefined;
  }

  /** `done` items in `answered` requests at `at`. */
  update(at: number, done: number, answered?: number): void {
    this.recent.add(at, done);
    const pace = this.options.pace?.();
    // The bucket's first requests go at once: the sustained rate is measured once requests
    // wait for its drain.
    if (answered !== undefined && pace?.limited) this.answers.add(at, answered);
    this.last = {
      total: this.options.total,
      noun: this.options.noun,
      waiting: this.options.waiting,
      done,
      elapsedMs: at - this.started,
      recentPerSecond: this.recent.perSecond(),
      answersPerSecond: this.answers.perSecond(),
      itemsPerRequest: answered ? done / answered : 0,
      pace,
    };
    this.lastAt = at;
  }

  /** What a line shows at `at`. */
  state(at: number): ProgressState {
    const base = this.last ?? {
      total: this.options.total,
      noun: this.options.noun,
      waiting: this.options.waiting,
      done: 0,
      elapsedMs: 0,
      itemsPerRequest: 0,
    };
    return { ...base, elapsedMs: at - this.started, sinceUpdateMs: at - this.lastAt };
  }
}

/** The state one progress line shows. */
export interface ProgressState {
  total: number | undefined;
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
 * waiting, "3/9 operations done · 12s elapsed"; without a total, "12,000 orders read · 380/s".
 */
export function progressText(state: ProgressState): string {
  const { total } = state;
  const done = state.done.toLocaleString('en-US');
  const count = `${total === undefined ? done : `${done}/${total.toLocaleString('en-US')}`} ${state.noun}`;
  if (state.waiting) return `${count} · ${humanDuration(state.elapsedMs)} elapsed`;
  const parts = [count];
  if (state.recentPerSecond !== undefined) parts.push(`${rateText(state.recentPerSecond)}/s`);
  const left = total === undefined ? undefined : estimateRemaining({ ...state, total });
  if (left && total !== undefined && state.done < total) {
    const ms = Math.max(0, left.seconds * 1000 - (state.sinceUpdateMs ?? 0));
    parts.push(`ETA ${humanDuration(ms)}`);
  }
  if (left?.paced && left.perSecond)
    parts.push(`paced by the rate limit (${left.perSecond.toFixed(1)} requests/s)`);
  return parts.join(' · ');
}

/** Whole numbers, but a tenth below 10: a slow run's "0/s" would read as stalled. */
function rateText(perSecond: number): string {
  return perSecond >= 10 || perSecond === 0 ? perSecond.toFixed(0) : perSecond.toFixed(1);
}

/** Narrower than this, a live line would wrap over more lines than it is worth. */
const MIN_LIVE_COLUMNS = 20;

function hasWidth(io: IO): boolean {
  const columns = (io.stderr as NodeJS.WriteStream).columns;
  return typeof columns === 'number' && columns >= MIN_LIVE_COLUMNS;
}
