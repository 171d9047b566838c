/**
 * The lazy dependencies every command reaches through: each is built on first use, so
 * `--help` and `--version` load neither config nor HTTP.
 */
import type { ApiClient } from '../api/client.js';
import { keyMode } from '../api/contract.js';
import type { ConfigStore } from '../config/config-store.js';
import type { Credentials } from '../config/credentials.js';
import type { KeyringBackend } from '../config/keyring.js';
import { AuthError, KEY_MALFORMED, UsageError } from '../errors.js';
import { Boundary } from '../output/boundary.js';
import type { IO } from '../output/io.js';
import { Messages } from '../output/messages.js';
import { Printer } from '../output/printer.js';
import type { Query } from '../output/query.js';
import type { TimeMode } from '../output/time.js';
import {
  machineFormatChosen,
  type OutputFormat,
  type OutputSettings,
  resolveFormat,
} from '../output/view.js';
import { parseSeconds, secondsRange } from './parse.js';

/** The global options (README, Global options), after parsing. */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  output?: OutputFormat;
  json?: boolean;
  all?: boolean;
  limit?: number;
  fields?: string[];
  /** --query EXPR, as typed (compiled into Context.query before the command runs). */
  query?: string;
  /** False with --no-headers. */
  headers?: boolean;
  time?: TimeMode;
  maxRetries?: number;
  /** --request-timeout, in seconds. */
  requestTimeout?: number;
  yes?: boolean;
  /** False with --no-input. */
  input?: boolean;
  debug?: boolean;
  quiet?: boolean;
}

/** After SIGINT or SIGTERM, how long in-flight requests may take to land before they are given up. */
export const STOP_GRACE_MS = 2000;

/** Default number of items a list shows: one page. */
const DEFAULT_LIST_LIMIT = 25;

/** What a command is handed. */
export class Context {
  private globalOptions: Readonly<GlobalOptions> = {};
  private compiledQuery?: Query;
  /** The command line's arguments after `svc` (to print the command that resumes a stopped run). */
  args: readonly string[] = [];
  private configStore?: Promise<ConfigStore>;
  private apiClient?: Promise<ApiClient>;
  /** Every client the run built, to tell whether a test key's write was simulated. */
  private readonly builtClients: ApiClient[] = [];
  private resolvedCredentials?: Promise<Credentials>;
  private readonly abort = new AbortController();
  /** Every byte the run writes passes it: the key in use is masked, data escaped where it must be. */
  readonly boundary: Boundary;
  /** The run's streams, through the boundary. */
  readonly io: IO;

  constructor(
    io: IO,
    readonly env: NodeJS.ProcessEnv,
    readonly now: () => number = Date.now,
    /** The keyring to keep keys in; the OS keyring unless a test hands in another. */
    private keyringBackend?: KeyringBackend,
  ) {
    this.boundary = new Boundary(io);
    this.boundary.protect(env.SVC_API_KEY?.trim());
    this.io = this.boundary.io;
  }

  /** The global options of this run, as parsed: commands read them; only the program sets them. */
  get globals(): Readonly<GlobalOptions> {
    return this.globalOptions;
  }

  /** Called by the program once the command line is parsed, before the command runs. */
  useGlobals(options: GlobalOptions): void {
    this.globalOptions = Object.freeze({ ...options });
  }

  /** --query, compiled before the command runs (src/cli/global-flags.ts); printers apply it. */
  get query(): Query | undefined {
    return this.compiledQuery;
  }

  /** Called by the program once --query compiled. */
  useQuery(query: Query): void {
    this.compiledQuery = query;
  }

  /** Aborted on SIGINT or SIGTERM, so long work can stop cleanly. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Called by the signal handlers in main. */
  interrupt(reason: Error): void {
    this.abort.abort(reason);
  }

  /** The output format in force: --json, then -o, then table on a terminal and tsv when piped. */
  get format(): OutputFormat {
    return resolveFormat(this.globals, this.io.stdoutIsTTY);
  }

  /** JSON is asked for (--json or -o json): summaries and errors go out as JSON too. */
  get wantsJson(): boolean {
    return this.format === 'json';
  }

  /**
   * A format for machines was chosen (--json, or -o other than table): an error goes out as one
   * JSON line on stderr too (README, Errors for scripts).
   */
  get machineFormatChosen(): boolean {
    return machineFormatChosen(this.globals);
  }

  /** A format for machines is asked for (json or ndjson): lines of text go out as JSON. */
  get wantsMachineText(): boolean {
    return this.format === 'json' || this.format === 'ndjson';
  }

  get messages(): Messages {
    return new Messages(this.io, { quiet: Boolean(this.globals.quiet), color: this.io.color });
  }

  get printer(): Printer {
    return this.printerWith({});
  }

  /**
   * The printer of a command whose output has a format of its own (csv for an export, json for
   * raw API answers), used unless --json or -o chose another.
   */
  printerDefaulting(format: OutputFormat): Printer {
    const chosen = this.globals.json || this.globals.output !== undefined;
    return this.printerWith(chosen ? {} : { format });
  }

  private printerWith(overrides: Partial<OutputSettings>): Printer {
    return new Printer(this.io, {
      format: this.format,
      fields: this.globals.fields,
      quiet: Boolean(this.globals.quiet),
      color: this.io.color,
      now: this.now(),
      query: this.query,
      headers: this.globals.headers,
      time: this.globals.time,
      width: this.io.columns,
      pretty: this.io.stdoutIsTTY,
      redact: (text) => this.boundary.redact(text),
      simulated: () => this.wroteSimulated,
      ...overrides,
    });
  }

  /** How many items a list command asks for: --all, --limit N, else one page. */
  get listLimit(): number | 'all' {
    if (this.globals.all) return 'all';
    return this.globals.limit ?? DEFAULT_LIST_LIMIT;
  }

  /** Prompts are allowed: stdin and stderr are terminals, no --no-input, not CI. */
  get canPrompt(): boolean {
    return this.io.stdinIsTTY && this.io.stderrIsTTY && this.globals.input !== false && !this.inCI;
  }

  /** Progress lines are wanted: not --quiet, not CI (they draw only on a terminal anyway). */
  get showsProgress(): boolean {
    return !this.globals.quiet && !this.inCI;
  }

  /** Running in CI, as CI services say it: CI=true or CI=1. */
  get inCI(): boolean {
    return this.env.CI === 'true' || this.env.CI === '1';
  }

  /** The saved profiles. */
  config(): Promise<ConfigStore> {
    this.configStore ??= (async () => {
      const { ConfigStore, configDir } = await import('../config/config-store.js');
      const store = await ConfigStore.open(configDir(this.env));
      if (store.loosePermissionsFixed) {
        this.messages.warn(`${store.dir}/config.json was readable by others; its mode is now 0600`);
      }
      return store;
    })();
    return this.configStore;
  }

  /** The OS keyring (loaded on first use: only reading or writing a key needs it). */
  async keyring(): Promise<KeyringBackend> {
    if (!this.keyringBackend) {
      const { osKeyring } = await import('../config/keyring.js');
      this.keyringBackend = osKeyring(this.env);
    }
    return this.keyringBackend;
  }

  /**
   * The key and base URL in force, with their sources. A key the profile keeps in the OS
   * keyring is read from it, once; when it cannot be, `keyProblem` says why.
   */
  credentials(): Promise<Credentials> {
    this.resolvedCredentials ??= (async () => {
      const credentials = await this.settings();
      if (credentials.apiKeyStorage !== 'keyring') return credentials;
      const { readKey } = await import('../config/key-store.js');
      const profile = (await this.config()).profiles[credentials.profileName ?? ''] ?? {};
      const { apiKey, problem } = await readKey(await this.keyring(), profile);
      this.boundary.protect(apiKey);
      return { ...credentials, apiKey, keyProblem: problem };
    })();
    return this.resolvedCredentials;
  }

  /** The settings in force without reading the keyring (a key kept there is absent). */
  private async settings(): Promise<Credentials> {
    const { resolveCredentials } = await import('../config/credentials.js');
    const config = await this.config();
    const credentials = resolveCredentials({
      flags: { profile: this.globals.profile, baseUrl: this.globals.baseUrl },
      env: this.env,
      currentProfile: config.currentProfile,
      profiles: config.profiles,
    });
    this.boundary.protect(credentials.apiKey);
    return credentials;
  }

  /**
   * The API client. With `auth: false` (status, health) no key is needed; otherwise a
   * missing or malformed key stops here, before anything is sent.
   */
  client(options: { auth?: boolean } = {}): Promise<ApiClient> {
    this.apiClient ??= (async () => {
      // Status and health send no key: the keyring is not asked for one.
      const credentials = options.auth === false ? await this.settings() : await this.credentials();
      const baseUrl = requireBaseUrl(credentials.baseUrl);
      const apiKey = options.auth === false ? credentials.apiKey : requireKey(credentials);
      return this.buildClient(baseUrl, apiKey);
    })();
    return this.apiClient;
  }

  /** A client for a given key and base URL (login verifies a key before saving it; doctor retries less). */
  async buildClient(
    baseUrl: string,
    apiKey: string | undefined,
    overrides: { maxRetries?: number } = {},
  ): Promise<ApiClient> {
    this.boundary.protect(apiKey);
    const { ApiClient } = await import('../api/client.js');
    const messages = this.messages;
    const sharedPacing = await this.sharedPacing();
    const client = new ApiClient({
      baseUrl,
      apiKey,
      maxRetries: overrides.maxRetries ?? this.maxRetries(),
      requestTimeoutMs: this.requestTimeoutMs(),
      userAgent: `svc/${__SVC_VERSION__}`,
      debug: this.globals.debug ? (line) => messages.debug(line) : undefined,
      notice: (line) => messages.info(line),
      crawlSignal: this.signal,
      stopSignal: this.signal,
      stopGraceMs: STOP_GRACE_MS,
      sharedPacing,
      env: this.env,
    });
    this.builtClients.push(client);
    return client;
  }

  /** Whether the run wrote with a test key: what it prints of a result then says `simulated`. */
  get wroteSimulated(): boolean {
    return this.builtClients.some((client) => client.stats.simulatedWrites > 0);
  }

  /** Where pacing is shared with the other processes on a key, unless SVC_SHARED_PACING=0. */
  private async sharedPacing(): Promise<{ dir: string } | undefined> {
    const setting = (this.env.SVC_SHARED_PACING ?? '').trim().toLowerCase();
    if (['0', 'false', 'off', 'no'].includes(setting)) return undefined;
    if (!['', '1', 'true', 'on', 'yes'].includes(setting)) {
      throw new UsageError(
        `SVC_SHARED_PACING must be 0 (off) or 1 (on), got "${this.env.SVC_SHARED_PACING}"`,
      );
    }
    const [{ configDir }, { sharedPacingDir }] = await Promise.all([
      import('../config/config-store.js'),
      import('../api/shared-pacing.js'),
    ]);
    return { dir: sharedPacingDir(configDir(this.env)) };
  }

  /** Releases the HTTP connections, if a client was made. */
  async close(): Promise<void> {
    if (this.apiClient) await (await this.apiClient.catch(() => undefined))?.close();
  }

  /**
   * The interactive prompts library, loaded on first use: on stderr through the boundary,
   * questions escaped, ended by Ctrl-C (exit 130, nothing sent) or the run's stop signal
   * (src/cmdutil/prompts.ts).
   */
  async prompts(): Promise<typeof import('@inquirer/prompts')> {
    const [library, { runPrompts }] = await Promise.all([
      import('@inquirer/prompts'),
      import('./prompts.js'),
    ]);
    return runPrompts(library, { input: this.io.stdin, output: this.io.stderr }, this.signal);
  }

  /** --request-timeout, else SVC_REQUEST_TIMEOUT, in ms; undefined leaves the transport's default. */
  private requestTimeoutMs(): number | undefined {
    if (this.globals.requestTimeout !== undefined) return this.globals.requestTimeout * 1000;
    const fromEnv = this.env.SVC_REQUEST_TIMEOUT;
    if (fromEnv === undefined || fromEnv === '') return undefined;
    const seconds = parseSeconds(fromEnv);
    if (seconds === undefined)
      throw new UsageError(`SVC_REQUEST_TIMEOUT must be ${secondsRange()}, got "${fromEnv}"`);
    return seconds * 1000;
  }

  private maxRetries(): number {
    if (this.globals.maxRetries !== undefined) return this.globals.maxRetries;
    const fromEnv = this.env.SVC_MAX_RETRIES;
    if (fromEnv === undefined || fromEnv === '') return 5;
    if (!/^\d+$/.test(fromEnv))
      throw new UsageError(`SVC_MAX_RETRIES must be a whole number, got "${fromEnv}"`);
    return Number(fromEnv);
  }
}

function requireBaseUrl(baseUrl: string | undefined): string {
  if (!baseUrl) {
    throw new UsageError(
      'no service address configured; run `svc auth login`, or set SVC_BASE_URL or --base-url (e.g. the URL `svc emulator start` prints)',
    );
  }
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new UsageError(`base URL "${baseUrl}" is not an http(s) URL, e.g. https://api.example.com`);
  }
  return baseUrl;
}

/** The key in force, or the AuthError (exit 4) that says why there is none or it is malformed. */
export function requireKey(credentials: Credentials): string {
  const { apiKey, apiKeySource, profileName, keyProblem } = credentials;
  if (!apiKey && keyProblem) {
    throw new AuthError(
      `profile "${profileName}" keeps its key in the OS keyring, but ${keyProblem}; unlock the keyring and run again, or log in again (svc auth login --profile ${profileName}, with --insecure-storage to keep the key in the config file)`,
      'api_key_unavailable',
    );
  }
  if (!apiKey) {
    throw new AuthError(
      'no API key configured; run `svc auth login`, or set SVC_API_KEY (keys are never taken from a flag)',
      'api_key_missing',
    );
  }
  if (!keyMode(apiKey)) {
    const where = apiKeySource === 'env' ? 'SVC_API_KEY' : `profile "${profileName}"`;
    throw new AuthError(
      `the API key from ${where} is malformed: keys look like svc_live_… or svc_test_…; nothing was sent`,
      KEY_MALFORMED,
    );
  }
  return apiKey;
}
