/**
 * What a command's run may use (gh's Factory of function fields): each dependency is made on
 * first use, so `--help` and `--version` load neither config nor HTTP. A run names only the
 * ones it uses (`Pick<Deps, 'io' | 'client'>`), and a test hands in just those.
 */
import type { ApiClient } from '../client/client.js';
import type { ConfigStore } from '../config/config-store.js';
import type { Credentials } from '../config/credentials.js';
import type { KeyringBackend } from '../config/keyring.js';
import type { CommandTree } from '../core/command-tree.js';
import type { GlobalOptions, IOStreams } from './io-streams.js';

/**
 * The interactive prompts of @inquirer/prompts, and a checkbox list with search of svc's own
 * (./search-checkbox.ts), ended by Ctrl-C or the run's stop signal.
 */
export type Prompts = typeof import('@inquirer/prompts') & {
  searchCheckbox: typeof import('./search-checkbox.js').searchCheckbox;
};

/** The dependencies of one run. */
export interface Deps {
  /** Streams, terminal facts, the output format, the printer and the messages. */
  readonly io: IOStreams;
  /** The global options, as parsed (read-only). */
  readonly globals: Readonly<GlobalOptions>;
  /** The environment (SVC_CONFIG_DIR, SVC_WEBHOOK_SECRET, …). */
  readonly env: Readonly<NodeJS.ProcessEnv>;
  /** The command line after `svc`, to print the command that resumes a stopped run. */
  readonly argv: readonly string[];
  /** Aborted on SIGINT or SIGTERM, so long work stops cleanly. */
  readonly signal: AbortSignal;
  /** The run's clock. */
  now(): number;
  /** Runs `cleanup` when the run ends, however it ends (a spooled input removed). */
  atEnd(cleanup: () => void): void;
  /**
   * The API client of the key and address in force. With `auth: false` (status, health) no
   * key is needed; otherwise a missing or malformed key stops here, before anything is sent.
   */
  client(options?: { auth?: boolean }): Promise<ApiClient>;
  /** A client for a given address and key (login checks a key before saving it; doctor retries less). */
  clientFor(
    baseUrl: string,
    apiKey: string | undefined,
    overrides?: { maxRetries?: number },
  ): Promise<ApiClient>;
  /** The saved profiles. */
  config(): Promise<ConfigStore>;
  /** The key and base URL in force, with their sources (a key kept in the OS keyring read once). */
  credentials(): Promise<Credentials>;
  /** The OS keyring (or the one a test hands in). */
  keyring(): Promise<KeyringBackend>;
  /** Interactive prompts; Ctrl-C at one ends the run as SIGINT does. */
  prompts(): Promise<Prompts>;
  /**
   * Every command, described (what completion and the command reference are made from),
   * whatever part of the tree this run registered; built only when asked for.
   */
  commandTree(): Promise<CommandTree>;
}
