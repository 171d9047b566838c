/** Runs bin/svc on a pseudo-terminal (util-linux `script`), to type at its prompts as a person would. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freshConfigDir, SVC_BIN } from './svc.js';

/** What one terminal run printed (stdout and stderr share the terminal) and how it ended. */
export interface TerminalResult {
  code: number | null;
  output: string;
  /** The output as it arrived: each chunk with the time it came (Date.now()). */
  timeline: Array<{ at: number; text: string }>;
}

/** One step of typing: once the screen matches `when`, send `keys`. */
export interface Keystroke {
  when: RegExp;
  keys: string;
}

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * Runs `svc args…` under `script -qec` with a clean environment, typing each keystroke once
 * the output so far matches it. `stdin: 'null'` gives the terminal no input at all (the
 * `</dev/null` of a CI job that still has a terminal for output).
 */
export function runInTerminal(
  args: string[],
  options: {
    env?: Record<string, string | undefined>;
    keys?: Keystroke[];
    /** Once the screen matches `when`, send `signal` to svc itself (as `kill` or a CI timeout would). */
    signal?: { when: RegExp; signal: NodeJS.Signals };
    /** Once `when()` holds (polled every 10 ms: state outside svc, such as the requests it sent), send `signal` to svc. */
    signalWhen?: { when: () => boolean; signal: NodeJS.Signals };
    stdin?: 'null';
    columns?: number;
    timeoutMs?: number;
  } = {},
): Promise<TerminalResult> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('SVC_') && name !== 'CI') env[name] = value;
  }
  env.NO_COLOR = '1';
  env.TERM = 'xterm';
  env.SVC_CONFIG_DIR ??= freshConfigDir();
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const size = options.columns === undefined ? '' : `stty cols ${options.columns} rows 24 2>/dev/null; `;
  const command = `${size}exec ${[process.execPath, SVC_BIN, ...args].map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env,
      stdio: [options.stdin === 'null' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      // Its own process group, so that a timeout ends svc too, not only `script`.
      detached: true,
    });
    let output = '';
    const timeline: TerminalResult['timeline'] = [];
    const pending = [...(options.keys ?? [])];
    let signal = options.signal;
    const typeDue = () => {
      while (pending.length > 0 && pending[0].when.test(output)) child.stdin?.write(pending.shift()?.keys);
      if (signal?.when.test(output) && child.pid !== undefined) {
        for (const pid of childrenOf(child.pid)) process.kill(pid, signal.signal);
        signal = undefined;
      }
    };
    const keep = (chunk: string) => {
      // Bounded: a run that floods the terminal must not exhaust the test's memory.
      if (output.length < 1_000_000) {
        output += chunk;
        timeline.push({ at: Date.now(), text: chunk });
      }
      typeDue();
    };
    child.stdout?.setEncoding('utf8').on('data', keep);
    child.stderr?.setEncoding('utf8').on('data', keep);
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs ?? 25_000);
    const { signalWhen } = options;
    const poll = signalWhen
      ? setInterval(() => {
          if (!signalWhen.when() || child.pid === undefined) return;
          clearInterval(poll);
          for (const pid of childrenOf(child.pid)) process.kill(pid, signalWhen.signal);
        }, 10)
      : undefined;
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, output, timeline });
    });
  });
}

/** The processes `script` started: svc itself, since the shell `exec`s it. */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return text.trim().split(/\s+/).filter(Boolean).map(Number);
}
