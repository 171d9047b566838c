/** Profiles on disk (conf), in SVC_CONFIG_DIR or the platform's config dir, readable by the owner only. */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Profile } from './credentials.js';

const FILE_MODE = 0o600;
/** A dir this makes is its owner's alone (conf would make it 0755); one that exists is left as it is. */
const DIR_MODE = 0o700;

/** The config dir in force: SVC_CONFIG_DIR, else XDG or the platform default. */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'svc');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'svc');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'svc');
}

interface ConfigShape {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

/** Saved profiles and the current one. */
export class ConfigStore {
  private constructor(
    private readonly conf: import('conf').default<ConfigShape>,
    readonly dir: string,
    /** Set when the file was readable by others and had to be tightened. */
    readonly loosePermissionsFixed: boolean,
  ) {}

  /** Opens (creating lazily) the config file in `dir`, tightening a looser file mode to 0600. */
  static async open(dir: string): Promise<ConfigStore> {
    const path = join(dir, 'config.json');
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    let fixed = false;
    try {
      if ((statSync(path).mode & 0o077) !== 0) {
        chmodSync(path, FILE_MODE);
        fixed = true;
      }
    } catch {
      // no file yet: conf creates it with FILE_MODE
    }
    const { default: Conf } = await import('conf');
    const conf = new Conf<ConfigShape>({
      cwd: dir,
      configName: 'config',
      projectName: 'svc',
      configFileMode: FILE_MODE,
      defaults: { profiles: {} },
    });
    return new ConfigStore(conf, dir, fixed);
  }

  get currentProfile(): string | undefined {
    return this.conf.get('current_profile');
  }

  get profiles(): Record<string, Profile> {
    return this.conf.get('profiles') ?? {};
  }

  /** Saves a profile, and makes it current when none is. */
  saveProfile(name: string, profile: Profile): void {
    this.conf.set('profiles', { ...this.profiles, [name]: profile });
    if (!this.currentProfile) this.conf.set('current_profile', name);
  }

  /** Removes a profile; the current one moves to another or to none. */
  removeProfile(name: string): boolean {
    const { [name]: removed, ...rest } = this.profiles;
    if (!removed) return false;
    this.conf.set('profiles', rest);
    if (this.currentProfile === name) {
      const next = Object.keys(rest)[0];
      if (next) this.conf.set('current_profile', next);
      else this.conf.delete('current_profile');
    }
    return true;
  }

  useProfile(name: string): void {
    this.conf.set('current_profile', name);
  }
}
