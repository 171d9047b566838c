/** Progress of long work on a terminal (count, rate, ETA); silent when piped or in CI. */
import type { IO } from './io.js';

/** A progress line that updates in place. */
export interface Progress {
  update(done: number): void;
  stop(): void;
}

const SILENT: Progress = { update() {}, stop() {} };

/** A spinner with "done/total · rate/s · ETA" on stderr when it is a terminal, else nothing. */
export async function startProgress(
  io: IO,
  options: { total: number; noun: string; enabled: boolean; now?: () => number },
): Promise<Progress> {
  // A terminal that reports no width (0 columns under `docker run -t` or `ssh -tt`) gets no
  // live line: ora would count its line as infinitely tall and flood it with cursor-ups.
  if (!options.enabled || !io.stderrIsTTY || !hasWidth(io)) return SILENT;
  const { default: ora } = await import('ora');
  const now = options.now ?? Date.now;
  const started = now();
  const spinner = ora({
    stream: io.stderr as NodeJS.WriteStream,
    text: `0/${options.total} ${options.noun}`,
  }).start();
  return {
    update(done) {
      if (!hasWidth(io)) {
        spinner.stop();
        return;
      }
      const seconds = (now() - started) / 1000;
      const rate = seconds > 0 ? done / seconds : 0;
      const eta = rate > 0 ? Math.round((options.total - done) / rate) : undefined;
      spinner.text = `${done.toLocaleString('en-US')}/${options.total.toLocaleString('en-US')} ${options.noun} · ${rate.toFixed(0)}/s${eta === undefined ? '' : ` · ETA ${eta}s`}`;
    },
    stop() {
      spinner.stop();
    },
  };
}

function hasWidth(io: IO): boolean {
  const columns = (io.stderr as NodeJS.WriteStream).columns;
  return typeof columns === 'number' && columns > 0;
}
