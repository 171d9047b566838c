/**
 * The dependencies of a run (Deps), each built on first use, so `--help` and `--version` load
 * neither config nor HTTP; the program sets the global options once they are parsed.
 */
import type { ApiClient } from '../client/client.js';
import type { PacingUrl } from '../client/pacing/pacing-url.js';
import type { ConfigSnapshot, ConfigStore } from '../config/config-store.js';
import { type Credentials, requireBaseUrl, requireKey } from '../config/credentials.js';
import type { KeyringBackend } from '../config/keyring.js';
import type { CommandTree } from '../core/command-tree.js';
import type { IO } from '../output/io.js';
import type { ProgressClock } from '../output/progress.js';
import type { Query } from '../output/query.js';
import type { ConnectionSettings } from './connection-settings.js';
import type { Deps, Prompts } from './deps.js';
import { type GlobalOptions, IOStreams } from './io-streams.js';

export type { GlobalOptions } from './io-streams.js';
/** Re-exported where commands found it before it moved beside the credentials it checks. */
export { requireKey };

/** After SIGINT or SIGTERM, how long in-flight requests may take to land before they are given up. */
export const STOP_GRACE_MS = 2000;

/** The dependencies of one run, made on first use. */
export class Context implements Deps {
  private streams: IOStreams;
  private connection?: ConnectionSettings;
  /** The command line's arguments after `svc` (to print the command that resumes a stopped run). */
  argv: readonly string[] = [];
  private configStore?: Promise<ConfigStore>;
  /** One client per kind: with the key in force, and without a key (status, health). */
  private readonly clients = new Map<'key' | 'anonymous', Promise<ApiClient>>();
  /** Every client the run built, to tell whether a test key's write was simulated. */
  private readonly builtClients: ApiClient[] = [];
  private resolvedCredentials?: Promise<Credentials>;
  private readonly abort = new AbortController();
  /** Describes the whole command tree; the program sets it (commands cannot reach commander). */
  private describeTree?: () => Promise<CommandTree>;

  constructor(
    io: IO,
    readonly env: NodeJS.ProcessEnv,
    readonly now: () => number = Date.now,
    /** The keyring to keep keys in; the OS keyring unless a test hands in another. */
    private keyringBackend?: KeyringBackend,
    /** The clock progress lines read and tick on; the system's unless a test hands in its own. */
    progressClock?: ProgressClock,
  ) {
    this.streams = IOStreams.create(io, env, now, () => this.wroteSimulated, progressClock);
    // A run may take apart what it uses (`run(args, { io, client })`): every member works unbound.
    for (const name of ['client', 'clientFor', 'config', 'credentials', 'keyring', 'prompts'] as const) {
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
    this.configStore ??= (async () => {
      const { ConfigStore, configDir } = await import('../config/config-store.js');
      const store = await ConfigStore.open(configDir(this.env));
      this.warnLoosePermissions(store);
      return store;
    })();
    return this.configStore;
  }

  /**
   * The saved profiles as they are on disk now (a command may have saved one since the last
   * read), read without loading the store that writes them.
   */
  private async savedConfig(): Promise<ConfigSnapshot> {
    const { readConfig, configDir } = await import('../config/config-store.js');
    const read = readConfig(configDir(this.env));
    this.warnLoosePermissions(read);
    return read;
  }

  private warnLoosePermissions(config: { dir: string; loosePermissionsFixed: boolean }): void {
    if (config.loosePermissionsFixed) {
      this.io.messages.warn(`${config.dir}/config.json was readable by others; its mode is now 0600`);
    }
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
      const profile = (await this.savedConfig()).profiles[credentials.profileName ?? ''] ?? {};
      const { apiKey, problem } = await readKey(await this.keyring(), profile);
      this.io.boundary.protect(apiKey);
      return { ...credentials, apiKey, keyProblem: problem };
    })();
    return this.resolvedCredentials;
  }

  /** The settings in force without reading the keyring (a key kept there is absent). */
  private async settings(): Promise<Credentials> {
    const { resolveCredentials } = await import('../config/credentials.js');
    const config = await this.savedConfig();
    const credentials = resolveCredentials({
      flags: { profile: this.globals.profile, baseUrl: this.globals.baseUrl },
      env: this.env,
      currentProfile: config.currentProfile,
      profiles: config.profiles,
    });
    this.io.boundary.protect(credentials.apiKey);
    this.io.boundary.protectUrlPassword(credentials.baseUrl);
    return credentials;
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
    const connection = this.connection ?? (await this.defaultConnection());
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
      ca: await this.trustedCa(),
      env: this.env,
    });
    this.builtClients.push(client);
    return client;
  }

  /** The CA file to trust besides the system's (SVC_CA_FILE, else the profile's `ca_file`), read. */
  private async trustedCa(): Promise<{ pem: string; source: string } | undefined> {
    const settings = await this.settings().catch(() => ({
      caFile: this.env.SVC_CA_FILE?.trim() || undefined,
      caFileSource: 'env' as const,
    }));
    if (!settings.caFile) return undefined;
    const { readCaFile, readExtraCaCerts } = await import('../config/ca-file.js');
    const trusted = await readCaFile(
      settings.caFile,
      settings.caFileSource === 'profile' ? 'ca_file' : 'SVC_CA_FILE',
    );
    // A CA list given to TLS replaces Node's default one, NODE_EXTRA_CA_CERTS included: keep those too.
    return { ...trusted, pem: `${trusted.pem}\n${await readExtraCaCerts(this.env)}` };
  }

  /** Whether the run wrote with a test key: what it prints of a result then says `simulated`. */
  get wroteSimulated(): boolean {
    return this.builtClients.some((client) => client.stats.simulatedWrites > 0);
  }

  /** Settings of a run the program did not set them for (a command that takes no connection flags). */
  private async defaultConnection(): Promise<ConnectionSettings> {
    const { connectionSettings } = await import('./connection-settings.js');
    return connectionSettings({}, this.env);
  }

  /**
   * What a client shares with the other processes on its key: the quota count (in the user's
   * state dir, whatever the config dir), pacing unless SVC_SHARED_PACING=0, both through Redis when a pacing URL is set (a URL
   * svc cannot use exits 2 here, before anything is sent; its password is masked from now on).
   */
  private async sharedPacing(
    pacing: boolean,
  ): Promise<{ dir: string; quotaDir: string; pacing: boolean; url?: PacingUrl }> {
    const [{ configDir, quotaCountDir }, { sharedPacingDir }, { pacingUrlOf }, { makeDirectory }] =
      await Promise.all([
        import('../config/config-store.js'),
        import('../client/pacing/record-file.js'),
        import('../client/pacing/pacing-url.js'),
        import('../config/directory.js'),
      ]);
    // A login checks a key before its profile exists: SVC_PACING_URL alone serves then.
    const settings = await this.settings().catch(() => ({ pacingUrl: this.env.SVC_PACING_URL }));
    const url = pacing ? pacingUrlOf(settings) : undefined;
    for (const password of url?.secrets ?? []) this.io.boundary.protectPassword(password);
    const dir = sharedPacingDir(configDir(this.env));
    // Made now, so that a folder that cannot be made stops the run before anything is sent (exit 2);
    // a process that paces alone keeps no record there.
    if (pacing) makeDirectory(dir);
    return { dir, quotaDir: quotaCountDir(this.env), pacing, url };
  }

  /** Releases the HTTP connections, if a client was made. */
  async close(): Promise<void> {
    for (const client of this.clients.values()) await (await client.catch(() => undefined))?.close();
  }

  /**
   * The interactive prompts library, loaded on first use: on stderr through the boundary,
   * questions escaped, ended by Ctrl-C (exit 130, nothing sent) or the run's stop signal
   * (src/cmdutil/prompts.ts).
   */
  async prompts(): Promise<Prompts> {
    const [library, { searchCheckbox }, { runPrompts }] = await Promise.all([
      import('@inquirer/prompts'),
      import('./search-checkbox.js'),
      import('./prompts.js'),
    ]);
    return runPrompts(
      { ...library, searchCheckbox },
      { input: this.io.stdin, output: this.io.stderr },
      this.signal,
    );
  }
}
