/**
 * Commands that only read the settings (every command that connects reads the profile in
 * force) read config.json and write nothing: no file appears in a config dir that had none,
 * and one that is there keeps its bytes, unless it was readable by others, which is tightened
 * with a warning whatever the command.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(() => emu.close());

describe('reading the settings', () => {
  it('writes no config file where there was none', async () => {
    const env = envFor(emu);
    const result = await runSvc(['orders', 'list', '--limit', '1'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(env.SVC_CONFIG_DIR, 'config.json'))).toBe(false);
  });

  it("uses the current profile's key and base URL, and leaves the file as it was", async () => {
    const dir = freshConfigDir();
    const text = `${JSON.stringify({
      current_profile: 'shop',
      profiles: { shop: { base_url: emu.url, api_key: emu.keys.live, key_storage: 'file' } },
    })}\n`;
    writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
    const result = await runSvc(['orders', 'list', '--limit', '1', '--json'], {
      env: { SVC_CONFIG_DIR: dir },
    });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as unknown[]).length).toBe(1);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
  });

  it('tightens a config file readable by others, and says so, on a command that only reads it', async () => {
    const dir = freshConfigDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ current_profile: 'shop', profiles: { shop: { base_url: emu.url } } }),
    );
    chmodSync(join(dir, 'config.json'), 0o644);
    const result = await runSvc(['orders', 'list', '--limit', '1'], {
      env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: emu.keys.live },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/config\.json was readable by others; its mode is now 0600/);
    expect(result.stderr.match(/readable by others/g)).toHaveLength(1);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('stops on a config file that is not JSON, before sending anything', async () => {
    const dir = freshConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": {', { mode: 0o600 });
    const before = emu.requests({ path: '/orders' }).length;
    const result = await runSvc(['orders', 'list'], {
      env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: emu.keys.live },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('JSON');
    expect(emu.requests({ path: '/orders' }).length).toBe(before);
  });
});
