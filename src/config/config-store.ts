/** Profiles on disk (config.json, changed under its lock), in SVC_CONFIG_DIR or the platform's config dir, readable by the owner only. */
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { FileError } from '../errors.js';
import { writeFileWhole } from '../write-whole.js';
import type { Profile } from './credentials.js';
import { absolutePath, makeDirectory } from './directory.js';
import { LockFile, underLock } from './lock-file.js';

const FILE_MODE = 0o600;
/** A dir this makes is its owner's alone (a default mkdir would make it 0755); one that exists is left as it is. */
const DIR_MODE = 0o700;

/** The config dir in force: SVC_CONFIG_DIR, else XDG or the platform default. */
export function configDir(env: NodeJS.ProcessEnv): string {
  // Relative to the working directory as it is now: a directory deleted under it is said at once.
  if (env.SVC_CONFIG_DIR) return absolutePath(env.SVC_CONFIG_DIR, 'SVC_CONFIG_DIR');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'svc');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'svc');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'svc');
}

/**
 * The user's state directory for svc: what one user's svc processes on this machine share
 * whatever config dir each uses (the count of the write quota spent). XDG_STATE_HOME, else
 * ~/.local/state; %LOCALAPPDATA% on Windows.
 */
function stateDir(env: NodeJS.ProcessEnv): string {
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

/** config.json in `dir`. */
function configFile(dir: string): string {
  return join(dir, 'config.json');
}

/**
 * Saved profiles and the current one. Every change is a read-modify-write of config.json under
 * its lock (svc's one lock, lock-file.ts), reread under it: processes saving at once (eight
 * logins in a CI matrix) never lose each other's profiles.
 */
export class ConfigStore {
  private constructor(
    private saved: ConfigShape,
    readonly dir: string,
    /** Set when the file was readable by others and had to be tightened. */
    readonly loosePermissionsFixed: boolean,
  ) {}

  /**
   * Opens the config file in `dir` (made on the first change), tightening a looser file mode
   * to 0600. `replaceUnreadable`: a file that is not valid JSON is read as empty, and the first
   * change replaces it (a login the user confirmed); otherwise it is a ConfigUnreadable.
   */
  static async open(dir: string, options: { replaceUnreadable?: boolean } = {}): Promise<ConfigStore> {
    makeDirectory(dir, DIR_MODE);
    const fixed = tightenMode(configFile(dir));
    const store = new ConfigStore(readShape(dir, options.replaceUnreadable), dir, fixed);
    store.replacing = options.replaceUnreadable === true;
    return store;
  }

  get currentProfile(): string | undefined {
    return this.saved.current_profile;
  }

  get profiles(): Record<string, Profile> {
    return this.saved.profiles ?? {};
  }

  /** Saves a profile, and makes it current when none is. */
  saveProfile(name: string, profile: Profile): Promise<void> {
    return this.change((saved) => {
      saved.profiles = { ...saved.profiles, [name]: profile };
      saved.current_profile ??= name;
    });
  }

  /** Removes a profile; the current one moves to another or to none. */
  removeProfile(name: string): Promise<boolean> {
    return this.change((saved) => {
      const { [name]: removed, ...rest } = saved.profiles ?? {};
      if (!removed) return false;
      saved.profiles = rest;
      if (saved.current_profile === name) {
        const next = Object.keys(rest)[0];
        if (next) saved.current_profile = next;
        else delete saved.current_profile;
      }
      return true;
    });
  }

  useProfile(name: string): Promise<void> {
    return this.change((saved) => {
      saved.current_profile = name;
    });
  }

  /** Applies `edit` to config.json as it is now, under its lock, and writes it whole (0600). */
  private async change<T>(edit: (saved: ConfigShape) => T): Promise<T> {
    const lock = new LockFile(`${configFile(this.dir)}.lock`);
    return underLock(lock, () => {
      // A file this run was allowed to replace stays replaceable; any other is reread as it is now.
      const saved = readShape(this.dir, this.replacing);
      this.replacing = false;
      const result = edit(saved);
      writeFileWhole(configFile(this.dir), `${JSON.stringify(saved, null, '\t')}\n`, FILE_MODE);
      this.saved = saved;
      return result;
    });
  }

  /** Until the first change: a file that is not JSON may be replaced (open's `replaceUnreadable`). */
  private replacing = false;
}

/** config.json as saved; empty when there is none (or, with `replaceUnreadable`, when it cannot be read as JSON). */
function readShape(dir: string, replaceUnreadable = false): ConfigShape {
  const text = readText(configFile(dir));
  if (text === undefined) return { profiles: {} };
  try {
    const saved = JSON.parse(text) as Partial<ConfigShape> | null;
    if (saved && typeof saved === 'object' && !Array.isArray(saved))
      return { ...saved, profiles: saved.profiles ?? {} };
  } catch {
    // Named below.
  }
  if (replaceUnreadable) return { profiles: {} };
  throw new ConfigUnreadable(configFile(dir));
}

/** The file's text; undefined when there is none. */
function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** config.json is not JSON (cut short by a full disk or a crash, edited by hand): named, with the repair (exit 2). */
export class ConfigUnreadable extends FileError {
  constructor(readonly path: string) {
    super(
      `${path} is not valid JSON (cut short, or edited by hand): repair it, or replace it with \`svc auth login --yes\` (its profiles are lost) and log in to each profile again`,
    );
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
 * Reads config.json in `dir` as ConfigStore reads it, without taking its lock and without
 * writing anything: no file is made where there is none. A looser file mode is tightened to 0600, as `open` does.
 */
export function readConfig(dir: string): ConfigSnapshot {
  const loosePermissionsFixed = tightenMode(configFile(dir));
  const saved = readShape(dir);
  return { dir, currentProfile: saved.current_profile, profiles: saved.profiles, loosePermissionsFixed };
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
