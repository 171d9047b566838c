/** Profiles on disk (conf), in SVC_CONFIG_DIR or the platform's config dir, readable by the owner only. */
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
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

/**
 * The user's state directory for svc: what one user's svc processes on this machine share
 * whatever config dir each uses (the count of the write quota spent). XDG_STATE_HOME, else
 * ~/.local/state; %LOCALAPPDATA% on Windows.
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'svc');
  if (process.platform === 'win32')
    return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'svc');
  return join(homedir(), '.local', 'state', 'svc');
}

/** Where the count of the write quota spent lives: `<state dir>/quota`. */
export function quotaCountDir(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'quota');
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
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    const fixed = tightenMode(join(dir, 'config.json'));
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

/** The saved profiles as read, for a command that only reads them (every command that connects). */
export interface ConfigSnapshot {
  dir: string;
  currentProfile?: string;
  profiles: Record<string, Profile>;
  /** Set when the file was readable by others and had to be tightened. */
  loosePermissionsFixed: boolean;
}

/**
 * Reads config.json in `dir` as ConfigStore reads it, without loading conf (and the schema
 * validator and semver behind it, 15 ms of a command's start) and without writing anything:
 * no file is made where there is none. A looser file mode is tightened to 0600, as `open` does.
 */
export function readConfig(dir: string): ConfigSnapshot {
  const path = join(dir, 'config.json');
  const loosePermissionsFixed = tightenMode(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { dir, profiles: {}, loosePermissionsFixed };
    throw error;
  }
  const saved = JSON.parse(text) as Partial<ConfigShape>;
  return {
    dir,
    currentProfile: saved.current_profile,
    profiles: saved.profiles ?? {},
    loosePermissionsFixed,
  };
}

/** Sets the file at `path` to 0600 when others may read it; true when it did. */
function tightenMode(path: string): boolean {
  try {
    if ((statSync(path).mode & 0o077) === 0) return false;
  } catch {
    return false; // no file yet: it is made with FILE_MODE
  }
  chmodSync(path, FILE_MODE);
  return true;
}
