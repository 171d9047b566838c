/**
 * Advice that fits where svc runs: with CI set or the key from SVC_API_KEY, a 401 says to check
 * the job's SVC_API_KEY secret (and that `svc auth status` shows the key in use), not to log in;
 * at a person's own profile it still says `svc auth login`.
 */
import { describe, expect, it } from 'vitest';
import { emulatorPerTest, envFor } from '../helpers/emulator.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';

const start = emulatorPerTest({ rateLimit: false });

describe('a refused key', () => {
  it('from SVC_API_KEY: check the job secret, not svc auth login', async () => {
    const emu = await start();
    const key = emu.createKey();
    emu.revokeKey(key);
    const result = await runSvc(['orders', 'list'], { env: { ...envFor(emu), SVC_API_KEY: key } });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /check the job's SVC_API_KEY secret.*`svc auth status` shows which key is in use/,
    );
    expect(result.stderr).not.toContain('svc auth login');
  });

  it('auth status in CI says the same', async () => {
    const emu = await start();
    const key = emu.createKey();
    emu.revokeKey(key);
    const result = await runSvc(['auth', 'status'], {
      env: { ...envFor(emu), SVC_API_KEY: key, CI: 'true' },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("check the job's SVC_API_KEY secret");
    expect(result.stderr).not.toContain('svc auth login');
  });

  it("a profile's key: in CI the job secret, at a desk svc auth login", async () => {
    const emu = await start();
    const key = emu.createKey();
    const dir = freshConfigDir();
    const login = await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', emu.url], {
      stdin: key,
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(login.code, login.stderr).toBe(0);
    emu.revokeKey(key);
    const inCI = await runSvc(['orders', 'list'], { env: { SVC_CONFIG_DIR: dir, CI: 'true' } });
    expect(inCI.code).toBe(4);
    expect(inCI.stderr).toContain("check the job's SVC_API_KEY secret");
    expect(inCI.stderr).not.toContain('svc auth login');
    const atDesk = await runSvc(['orders', 'list'], { env: { SVC_CONFIG_DIR: dir } });
    expect(atDesk.code).toBe(4);
    expect(atDesk.stderr).toContain('svc auth login');
  });
});
