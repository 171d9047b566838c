/**
 * Runs svc in-process as if at a terminal (stdin, stdout and stderr say they are terminals),
 * typing into the prompts' own input stream: the guided flows' steps, without a terminal
 * emulator or a child process. What a real terminal adds (raw mode, signals) is left to
 * test/helpers/terminal.ts.
 */
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { freshConfigDir, SVC_BIN } from './svc.js';

/** Keys a person types. */
export const KEYS = {
  enter: '\r',
  space: ' ',
  down: '\u001b[B',
  up: '\u001b[A',
  ctrlC: '\u0003',
  ctrlU: '\u0015',
} as const;

/** One step: once the screen since the last keys matches `when`, type `keys`. */
export interface Keystroke {
  when: RegExp;
  keys: string;
}

/** What a run printed: results on stdout, the prompts and messages on stderr (the screen). */
export interface KeyboardResult {
  code: number;
  stdout: string;
  screen: string;
  /** Steps never typed: their `when` never showed. */
  untyped: Keystroke[];
  /** The run waited past `timeoutMs` (then Ctrl-C was typed for it). */
  timedOut: boolean;
}

/**
 * Runs `svc args…` with the terminal flags set and `keys` typed in turn: each once the screen,
 * since the keys before it were typed, matches its `when` (so an earlier question never
 * answers a later step). A step that never shows leaves the prompt waiting until `timeoutMs`,
 * when Ctrl-C is typed for it.
 */
export async function runAtKeyboard(
  args: string[],
  options: { env?: Record<string, string>; keys?: Keystroke[]; columns?: number; timeoutMs?: number } = {},
): Promise<KeyboardResult> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('SVC_') && name !== 'CI') env[name] = value;
  }
  Object.assign(env, { NO_COLOR: '1', SVC_CONFIG_DIR: freshConfigDir() }, options.env);
  const stdin = new PassThrough();
  const pending = [...(options.keys ?? [])];
  let stdout = '';
  let screen = '';
  let sinceKeys = '';
  const typeDue = () => {
    const next = pending[0];
    if (!next?.when.test(sinceKeys)) return;
    pending.shift();
    sinceKeys = '';
    stdin.write(next.keys);
    // The next step may already be on the screen only after these keys are handled.
    setImmediate(typeDue);
  };
  const stderr = new Writable({
    write(chunk, _encoding, done) {
      screen += String(chunk);
      sinceKeys += String(chunk);
      setImmediate(typeDue);
      done();
    },
  });
  // A prompt ends the stream it drew on once answered; a terminal's stderr stays open (as
  // process.stderr does), so the next question has somewhere to go.
  stderr.end = () => stderr;
  const out = new Writable({
    write(chunk, _encoding, done) {
      stdout += String(chunk);
      done();
    },
  });
  const io = {
    stdout: out,
    stderr,
    stdin,
    stdoutIsTTY: true,
    stderrIsTTY: true,
    stdinIsTTY: true,
    color: false,
    columns: options.columns ?? 120,
  };
  let timedOut = false;
  // A step that never shows: Ctrl-C ends the prompt that waits for it, and the result says so.
  const timer = setTimeout(() => {
    timedOut = true;
    stdin.write(KEYS.ctrlC);
  }, options.timeoutMs ?? 15_000);
  try {
    const code = await main([process.execPath, SVC_BIN, ...args], { io, env });
    return { code, stdout, screen, untyped: pending, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

/** The screen without the terminal's control sequences (colours, cursor moves), for reading. */
export function plainText(screen: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the sequences start with ESC
  return screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}
