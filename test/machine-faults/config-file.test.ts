/**
 * config.json under stress: writers at once never lose each other's work (each holds the one
 * lock and rereads under it), and a file cut short is named with how to repair it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emulatorPerTest } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest();
const scratch = () => tempDir('svc-config-file-');

describe('config.json', () => {
  it('eight logins at once to eight profiles leave eight profiles, each run saying it succeeded', async () => {
    const emu = await start();
    const dir = scratch();
    const logins = Array.from({ length: 8 }, (_, n) =>
      runSvc(
        [
          'auth',
          'login',
          '--with-key-stdin',
          '--insecure-storage',
          '--base-url',
          emu.url,
          '--profile',
          `p${n}`,
        ],
        { stdin: `${emu.keys.live}\n`, env: { SVC_CONFIG_DIR: dir }, process: true, timeoutMs: 60_000 },
      ),
    );
    const results = await Promise.all(logins);
    for (const [n, result] of results.entries()) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`as profile "p${n}"`);
    }
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(saved.profiles).sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
    const listed = await runSvc(['profiles', 'list', '--json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(JSON.parse(listed.stdout)).toHaveLength(8);
  });

  it('cut short: the error names the file and the repair; auth login --yes overwrites it', async () => {
    const emu = await start();
    const dir = scratch();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"current_profile":"ci","profiles":{"ci":{"base_url":"http://', { mode: 0o600 });
    const status = await runSvc(['auth', 'status'], { env: { SVC_CONFIG_DIR: dir } });
    expect(status.code, status.stderr).toBe(2);
    expect(status.stderr).toContain(`${path} is not valid JSON`);
    expect(status.stderr).toContain('svc auth login');
    expect(status.stderr).not.toContain('unexpected error');

    const login = ['auth', 'login', '--with-key-stdin', '--insecure-storage', '--base-url', emu.url];
    const refused = await runSvc(login, { stdin: emu.keys.live, env: { SVC_CONFIG_DIR: dir } });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(readFileSync(path, 'utf8')).toContain('"base_url":"http://');

    const replaced = await runSvc([...login, '--yes'], {
      stdin: emu.keys.live,
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default.base_url).toBe(emu.url);
    const after = await runSvc(['auth', 'status', '--json'], { env: { SVC_CONFIG_DIR: dir } });
    expect(after.code, after.stderr).toBe(0);
  });
});
