/** Runs bin/svc on a pseudo-terminal (util-linux `script`), to type at its prompts as a person would. */
import { spawn } from 'node:child_process';
import { freshConfigDir, SVC_BIN } from './svc.js';

/** What one terminal run printed (stdout and stderr share the terminal) and how it ended. */
export interface TerminalResult {
  code: number | null;
  output: string;
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
    const pending = [...(options.keys ?? [])];
    const typeDue = () => {
      while (pending.length > 0 && pending[0].when.test(output)) child.stdin?.write(pending.shift()?.keys);
    };
    const keep = (chunk: string) => {
      // Bounded: a run that floods the terminal must not exhaust the test's memory.
      if (output.length < 1_000_000) output += chunk;
      typeDue();
    };
    child.stdout?.setEncoding('utf8').on('data', keep);
    child.stderr?.setEncoding('utf8').on('data', keep);
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs ?? 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
