/**
 * What a run reads of the saved profiles (the Context's part that touches config files and the
 * keyring): the store that writes them, the keyring, and the key and base URL in force, each
 * read once and every key read handed to the output boundary to mask.
 */
import type { ConfigSnapshot, ConfigStore } from '../config/config-store.js';
import type { Credentials } from '../config/credentials.js';
import type { KeyringBackend } from '../config/keyring.js';
import type { GlobalOptions, IOStreams } from './io-streams.js';

/** The saved profiles, the keyring and the settings in force, for one run. */
export class SavedSettings {
  private configStore?: Promise<ConfigStore>;
  private resolvedCredentials?: Promise<Credentials>;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly io: () => IOStreams,
    private readonly globals: () => Readonly<GlobalOptions>,
    private keyringBackend?: KeyringBackend,
  ) {}

  /** The saved profiles, opened once. */
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
      this.io().messages.warn(`${config.dir}/config.json was readable by others; its mode is now 0600`);
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
    this.resolvedCredentials ??= this.inForce(() => this.keyring());
    return this.resolvedCredentials;
  }

  /** The settings in force without reading the keyring (a key kept there is absent). */
  settings(): Promise<Credentials> {
    return this.inForce(undefined);
  }

  /** The one resolution the library's connect uses too (src/config/credentials-in-force.ts), each key masked. */
  private async inForce(keyring: (() => Promise<KeyringBackend>) | undefined): Promise<Credentials> {
    const { credentialsInForce } = await import('../config/credentials-in-force.js');
    const { profile, baseUrl } = this.globals();
    const config = await this.savedConfig();
    const credentials = await credentialsInForce({
      flags: { profile, baseUrl },
      env: this.env,
      config,
      keyring,
    });
    this.io().boundary.protect(credentials.apiKey);
    this.io().boundary.protectUrlPassword(credentials.baseUrl);
    return credentials;
  }

  /** The CA file to trust besides the system's (SVC_CA_FILE, else the profile's `ca_file`), read. */
  async trustedCa(): Promise<{ pem: string; source: string } | undefined> {
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
}
