/**
 * Vitest global setup: the suite's temporary files in memory. Tests make and remove tens of
 * thousands of small files and folders (a config dir a run, locks, journals, reports); on ext4
 * each costs four times what it does on tmpfs (some 7% of the suite's CPU). So, unless TMPDIR is
 * set already (CI sets its own, to check that a run leaves it empty), the suite and everything it
 * starts get a folder of their own in /dev/shm, removed at the end. Where /dev/shm is no
 * writable tmpfs, the system's temp folder stays.
 */
import { mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../../src/process-alive.js';

const SHM = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
const PREFIX = 'svc-suite-';

/** /dev/shm when it is a tmpfs this user can write to. */
function memoryFolder(): string | undefined {
  try {
    if (statfsSync(SHM).type !== TMPFS_MAGIC) return undefined;
    // What a killed run left: memory until the next reboot otherwise.
    for (const entry of readdirSync(SHM)) {
      const pid = Number(entry.slice(PREFIX.length).split('-')[0]);
      if (entry.startsWith(PREFIX) && pid > 0 && !processAlive(pid))
        rmSync(join(SHM, entry), { recursive: true, force: true });
    }
    return SHM;
  } catch {
    return undefined;
  }
}

export default function setup(): (() => void) | undefined {
  if (process.env.TMPDIR) return undefined;
  const shm = memoryFolder();
  if (!shm) return undefined;
  let folder: string;
  try {
    folder = mkdtempSync(join(shm, `${PREFIX}${process.pid}-`));
  } catch {
    return undefined;
  }
  // Workers are started after global setup, with this environment: they and their children use it.
  process.env.TMPDIR = folder;
  return () => {
    rmSync(folder, { recursive: true, force: true });
    delete process.env.TMPDIR;
  };
}
