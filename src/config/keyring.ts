/**
 * The one module that talks to the OS keyring (macOS Keychain, Windows Credential Manager,
 * the Secret Service on Linux), through @napi-rs/keyring's prebuilt binary.
 *
 * Each call runs in a short-lived child process with a deadline (KEYRING_TIMEOUT_MS, as `gh`
 * does): the library connects to the keyring synchronously, so a locked or silent keyring
 * blocks the thread that calls it, and a blocked thread, or worker, also keeps Node from
 * exiting. A child can be killed. The secret travels on the child's stdin and stdout, never
 * in its arguments or environment.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isSea } from 'node:sea';

/** The service name entries are filed under. */
const KEYRING_SERVICE = 'svc';

/** How long one keyring call may take before the keyring counts as unavailable. */
const KEYRING_TIMEOUT_MS = 3_000;

/** What the key store needs of a keyring; tests hand in a fake one. */
export interface KeyringBackend {
  /** The secret saved for `account`, or undefined when there is none. */
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  /** True when an entry was deleted, false when there was none. */
  delete(account: string): Promise<boolean>;
}

/** No keyring could be used: none answers here, it is locked, it refused, or it timed out. */
export class KeyringUnavailable extends Error {
  override name = 'KeyringUnavailable';
}

/** Options of the OS keyring. */
export interface OsKeyringOptions {
  timeoutMs?: number;
  platform?: NodeJS.Platform;
}

/** The OS keyring, each call bounded by `timeoutMs`; calls reject with KeyringUnavailable. */
export function osKeyring(env: NodeJS.ProcessEnv, options: OsKeyringOptions = {}): KeyringBackend {
  const timeoutMs = options.timeoutMs ?? KEYRING_TIMEOUT_MS;
  const platform = options.platform ?? process.platform;
  const call = async (request: KeyringRequest): Promise<unknown> => {
    // Linux keys go to the Secret Service only: the kernel keyring, the library's other
    // choice, forgets them at logout or reboot. Without a session bus there is none to ask.
    if (platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS) {
      throw new KeyringUnavailable('no Secret Service here: DBUS_SESSION_BUS_ADDRESS is not set');
    }
    return runInChild(libraryPath(), request, env, timeoutMs);
  };
  return {
    get: async (account) => ((await call({ op: 'get', account })) as string | null) ?? undefined,
    set: async (account, secret) => {
      await call({ op: 'set', account, secret });
    },
    delete: async (account) => Boolean(await call({ op: 'delete', account })),
  };
}

interface KeyringRequest {
  op: 'get' | 'set' | 'delete';
  account: string;
  secret?: string;
}

/**
 * Where @napi-rs/keyring is (an optional dependency: svc works without it). The single
 * executable carries no node_modules: it loads the library's native binary from beside itself
 * (`keyring.<platform>.node`, docs/guide.md, A single executable).
 */
function libraryPath(): string {
  const notInstalled = () =>
    new KeyringUnavailable('the keyring library (@napi-rs/keyring) is not installed');
  if (isSea()) {
    const folder = dirname(process.execPath);
    let names: string[] = [];
    try {
      names = readdirSync(folder);
    } catch {
      // An unreadable folder holds no library we could load.
    }
    const binary = names.find((name) => /^keyring\..+\.node$/.test(name));
    if (!binary) throw notInstalled();
    return join(folder, binary);
  }
  try {
    return createRequire(import.meta.url).resolve('@napi-rs/keyring');
  } catch {
    throw notInstalled();
  }
}

/**
 * What the single executable is run with to be the keyring helper: it is its own Node, and
 * takes no `-e`.
 */
export const KEYRING_HELPER_ARG = '--svc-keyring-helper';

/** The keyring helper, in the single executable (its entry calls it for KEYRING_HELPER_ARG). */
export function runKeyringHelper(library: string): void {
  answerOneRequest(createRequire(process.execPath)(library).Entry);
}

/** A keyring entry of @napi-rs/keyring, as the helper uses it. */
interface KeyringEntry {
  getPassword(): string | null | undefined;
  setPassword(secret: string): void;
  deleteCredential(): boolean;
}

/**
 * The helper's work: one request read as JSON from stdin, answered {ok, value} or
 * {ok: false, message} on stdout. It runs in the child as source text (CHILD_SCRIPT), so it
 * uses nothing from outside itself.
 */
function answerOneRequest(
  Entry: new (service: string, account: string, options: object) => KeyringEntry,
): void {
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    input += chunk;
  });
  process.stdin.on('end', () => {
    let answer: { ok: boolean; value?: unknown; message?: string };
    try {
      const { op, service, account, secret } = JSON.parse(input);
      const entry = new Entry(service, account, { linux: { store: 'secret-service' } });
      const value =
        op === 'get'
          ? entry.getPassword()
          : op === 'set'
            ? entry.setPassword(secret)
            : entry.deleteCredential();
      answer = { ok: true, value: value === undefined ? null : value };
    } catch (error) {
      answer = { ok: false, message: String((error as Error)?.message || error) };
    }
    process.stdout.write(JSON.stringify(answer));
  });
}

const CHILD_SCRIPT = `(${answerOneRequest.toString()})(require(process.argv[1]).Entry);`;

function runInChild(
  library: string,
  request: KeyringRequest,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // NODE_OPTIONS could load code into the child (a debugger, a preload) that is not svc's.
    const { NODE_OPTIONS: _dropped, ...childEnv } = env;
    const args = isSea() ? [KEYRING_HELPER_ARG, library] : ['-e', CHILD_SCRIPT, library];
    const child = spawn(process.execPath, args, {
      env: childEnv,
      stdio: ['pipe', 'pipe', 'ignore'],
      windowsHide: true,
    });
    let output = '';
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(() =>
        reject(
          new KeyringUnavailable(`the OS keyring did not answer within ${timeoutMs / 1000} s (locked?)`),
        ),
      );
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.on('error', (error) => settle(() => reject(new KeyringUnavailable(error.message))));
    child.on('close', () =>
      settle(() => {
        let answer: { ok?: boolean; value?: unknown; message?: string } | undefined;
        try {
          answer = JSON.parse(output);
        } catch {
          answer = undefined;
        }
        if (answer?.ok) resolve(answer.value);
        else reject(new KeyringUnavailable(firstLine(answer?.message ?? 'the keyring helper failed')));
      }),
    );
    // The child may be gone before it reads (a spawn failure): that is reported by 'error'.
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify({ ...request, service: KEYRING_SERVICE }));
  });
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() || 'the keyring failed';
}
