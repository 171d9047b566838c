/**
 * The dependencies of a run (Deps), each built on first use, so `--help` and `--version` load
 * neither config nor HTTP; the program sets the global options once they are parsed.
 */
import type { ApiClient } from '../client/client.js';
import {
  type ConnectionSettings,
  connectionSettings,
  type SharedPacing,
  STOP_GRACE_MS,
  sharedPacingFor,
} from '../client/connection-settings.js';
import type { ConfigStore } from '../config/config-store.js';
import { type Credentials, requireBaseUrl, requireKey } from '../config/credentials.js';
import type { KeyringBackend } from '../config/keyring.js';
import type { CommandTree } from '../core/command-tree.js';
import type { IO } from '../output/io.js';
import type { ProgressClock } from '../output/progress.js';
import type { Query } from '../output/query.js';
import type { Deps, Prompts } from './deps.js';
import { type GlobalOptions, IOStreams } from './io-streams.js';
import { SavedSettings } from './saved-settings.js';

export type { GlobalOptions } from './io-streams.js';

/** After SIGINT or SIGTERM, how long in-flight requests may take to land before they are given up. */
export { STOP_GRACE_MS };

/** The members a run may take apart (`run(args, { io, client })`): each works unbound. */
const UNBOUND = ['client', 'clientFor', 'config', 'credentials', 'keyring', 'prompts', 'atEnd'] as const;

/** The dependencies of one run, made on first use. */
export class Context implements Deps {
  private streams: IOStreams;
  private connection?: ConnectionSettings;
  /** The command line's arguments after `svc` (to print the command that resumes a stopped run). */
  argv: readonly string[] = [];
  /** One client per kind: with the key in force, and without a key (status, health). */
  private readonly clients = new Map<'key' | 'anonymous', Promise<ApiClient>>();
  /** Every client the run built, to tell whether a test key's write was simulated. */
  private readonly builtClients: ApiClient[] = [];
  private readonly abort = new AbortController();
  /** The saved profiles, the keyring and the settings in force, each read once. */
  private readonly saved: SavedSettings;
  /** What runs when the run ends (`atEnd`), last registered first. */
  private readonly endings: (() => void)[] = [];
  /** Describes the whole command tree; the program sets it (commands cannot reach commander). */
  private describeTree?: () => Promise<CommandTree>;

  constructor(
    io: IO,
    readonly env: NodeJS.ProcessEnv,
    readonly now: () => number = Date.now,
    /** The keyring to keep keys in; the OS keyring unless a test hands in another. */
    keyringBackend?: KeyringBackend,
    /** The clock progress lines read and tick on; the system's unless a test hands in its own. */
    progressClock?: ProgressClock,
  ) {
    this.streams = IOStreams.create(io, env, now, () => this.wroteSimulated, progressClock);
    this.saved = new SavedSettings(
      env,
      () => this.io,
      () => this.globals,
      keyringBackend,
    );
    // A run may take apart what it uses (`run(args, { io, client })`): every member works unbound.
    for (const name of UNBOUND) {
      Object.defineProperty(this, name, { value: this[name].bind(this) });
    }
  }

  /** Streams through the boundary, terminal facts, the output format, the printer and the messages. */
  get io(): IOStreams {
    return this.streams;
  }

  /** The global options of this run, as parsed: commands read them; only the program sets them. */
  get globals(): Readonly<GlobalOptions> {
    return this.streams.globals;
  }

  /** Called by the program once the command line is parsed, before the command runs. */
  useGlobals(options: GlobalOptions, connection?: ConnectionSettings): void {
    this.streams = this.streams.with(options, this.streams.query);
    this.connection = connection;
  }

  /** Called by the program once --query compiled. */
  useQuery(query: Query): void {
    this.streams = this.streams.with(this.streams.globals, query, this.streams.knownFields);
  }

  /** Called by the program once --fields was checked: every field path of what the command prints. */
  useKnownFields(fields: readonly string[]): void {
    this.streams = this.streams.with(this.streams.globals, this.streams.query, fields);
  }

  /** Called by the program: how to describe every command, should a run ask (completion, docs). */
  useCommandTree(describe: () => Promise<CommandTree>): void {
    this.describeTree = describe;
  }

  /** Every command, described, whatever part of the tree this run registered (works unbound, as a run may take it apart). */
  readonly commandTree = async (): Promise<CommandTree> => {
    if (!this.describeTree) throw new Error('no command tree: the program sets it when it is built');
    return this.describeTree();
  };

  /** Aborted on SIGINT or SIGTERM, so long work can stop cleanly. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Called by the signal handlers in main. */
  interrupt(reason: Error): void {
    this.abort.abort(reason);
  }

  /** The saved profiles. */
  config(): Promise<ConfigStore> {
    return this.saved.config();
  }

  /** The OS keyring (loaded on first use: only reading or writing a key needs it). */
  keyring(): Promise<KeyringBackend> {
    return this.saved.keyring();
  }

  /** The key and base URL in force, with their sources (a key kept in the OS keyring read once). */
  credentials(): Promise<Credentials> {
    return this.saved.credentials();
  }

  /** The settings in force without reading the keyring (a key kept there is absent). */
  private settings(): Promise<Credentials> {
    return this.saved.settings();
  }

  /**
   * The API client. With `auth: false` (status, health) no key is needed; otherwise a
   * missing or malformed key stops here, before anything is sent.
   */
  client(options: { auth?: boolean } = {}): Promise<ApiClient> {
    const kind = options.auth === false ? 'anonymous' : 'key';
    let client = this.clients.get(kind);
    if (!client) {
      client = (async () => {
        // Status and health send no key: the keyring is not asked for one.
        const credentials = kind === 'anonymous' ? await this.settings() : await this.credentials();
        const baseUrl = requireBaseUrl(credentials.baseUrl);
        const apiKey = kind === 'anonymous' ? credentials.apiKey : requireKey(credentials);
        return this.clientFor(baseUrl, apiKey);
      })();
      this.clients.set(kind, client);
    }
    return client;
  }

  /** A client for a given key and base URL (login verifies a key before saving it; doctor retries less). */
  async clientFor(
    baseUrl: string,
    apiKey: string | undefined,
    overrides: { maxRetries?: number } = {},
  ): Promise<ApiClient> {
    this.io.boundary.protect(apiKey);
    const { ApiClient } = await import('../client/client.js');
    const messages = this.io.messages;
    // A command that takes no connection flags: the environment's settings alone.
    const connection = this.connection ?? connectionSettings({}, this.env);
    const client = new ApiClient({
      baseUrl,
      apiKey,
      maxRetries: overrides.maxRetries ?? connection.maxRetries,
      requestTimeoutMs: connection.requestTimeoutMs,
      userAgent: `svc/${__SVC_VERSION__}`,
      debug: this.globals.debug ? (line) => messages.debug(line) : undefined,
      notice: (line) => messages.info(line),
      warning: (line) => messages.warn(line),
      crawlSignal: this.signal,
      stopSignal: this.signal,
      stopGraceMs: STOP_GRACE_MS,
      sharedPacing: await this.sharedPacing(connection.sharedPacing),
      ca: await this.saved.trustedCa(),
      env: this.env,
    });
    this.builtClients.push(client);
    return client;
  }

  /** Whether the run wrote with a test key: what it prints of a result then says `simulated`. */
  get wroteSimulated(): boolean {
    return this.builtClients.some((client) => client.stats.simulatedWrites > 0);
  }

  /** What a client shares with the other processes on its key (connection-settings.ts). */
  private async sharedPacing(pacing: boolean): Promise<SharedPacing> {
    // A login checks a key before its profile exists: SVC_PACING_URL alone serves then.
    const settings = () => this.settings().catch(() => ({ pacingUrl: this.env.SVC_PACING_URL }));
    return sharedPacingFor(this.env, pacing, settings, (password) =>
      this.io.boundary.protectPassword(password),
    );
  }

  /** Runs `cleanup` when the run ends (`close`), however it ends. */
  atEnd(cleanup: () => void): void {
    this.endings.push(cleanup);
  }

  /** Releases the HTTP connections, if a client was made, and runs what waits for the end. */
  async close(): Promise<void> {
    for (const cleanup of this.endings.splice(0).reverse()) cleanup();
    for (const client of this.clients.values()) await (await client.catch(() => undefined))?.close();
  }

  /** The interactive prompts, loaded on first use (src/cmdutil/prompts.ts): on stderr through the boundary. */
  async prompts(): Promise<Prompts> {
    const { openPrompts } = await import('./prompts.js');
    return openPrompts({ input: this.io.stdin, output: this.io.stderr }, this.signal);
  }
}
