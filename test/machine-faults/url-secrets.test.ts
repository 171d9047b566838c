/**
 * No secret in a URL is printed: user info in any URL svc prints is masked at the output
 * boundary, whatever the command (docs/guide.md, Environment).
 */
import { describe, expect, it } from 'vitest';
import { emulatorPerTest } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest();
const scratch = () => tempDir('svc-url-secrets-');
const PASSWORD = 'pass';

describe('a base URL holding user info', () => {
  it('never shows its password: --debug, doctor, login, profiles list, auth status', async () => {
    const emu = await start();
    const withUser = emu.url.replace('http://', `http://user:${PASSWORD}@`);
    const dir = scratch();
    const env = { SVC_CONFIG_DIR: dir };
    const login = await runSvc(
      ['auth', 'login', '--with-key-stdin', '--insecure-storage', '--base-url', withUser],
      { stdin: emu.keys.live, env },
    );
    const runs = [
      login,
      await runSvc(['profiles', 'list'], { env }),
      await runSvc(['auth', 'status'], { env }),
      await runSvc(['doctor'], { env }),
      await runSvc(['doctor', '--json'], { env }),
      await runSvc(['status', '--debug'], { env: { ...env, SVC_BASE_URL: withUser } }),
      await runSvc(['auth', 'status', '--json'], { env: { ...env, SVC_BASE_URL: withUser } }),
    ];
    expect(login.code, login.stderr).toBe(0);
    for (const run of runs) {
      const printed = run.stdout + run.stderr;
      expect(printed).not.toContain(`:${PASSWORD}@`);
    }
    // The URL is still shown, its user info masked.
    expect(login.stderr).toContain('http://user:***@127.0.0.1');
  });
});
