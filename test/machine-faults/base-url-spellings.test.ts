/**
 * One store, one bucket, however its URL is spelled: `localhost` and `127.0.0.1`, a trailing
 * slash, the default port, the host's letter case all key one pacing record and one quota count
 * (docs/guide.md, Environment).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emulatorPerTest } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest();
const scratch = () => tempDir('svc-spellings-');

describe('the base URL spelled several ways', () => {
  it('localhost, 127.0.0.1 and LOCALHOST/ share one pacing record and one quota count', async () => {
    const emu = await start();
    const port = new URL(emu.url).port;
    const dir = scratch();
    const spellings = [
      `http://localhost:${port}`,
      `http://127.0.0.1:${port}/`,
      `HTTP://LOCALHOST:${port}/rest/v1/`,
    ];
    const skus = emu.store.allSkus().slice(0, 3);
    for (const [n, baseUrl] of spellings.entries()) {
      const env = { SVC_CONFIG_DIR: dir, SVC_API_KEY: emu.keys.live, SVC_BASE_URL: baseUrl };
      const result = await runSvc(['inventory', 'set', skus[n], '--quantity', String(40 + n)], {
        env,
      });
      expect(result.code, `${baseUrl}: ${result.stderr}`).toBe(0);
    }
    // The pacing record in the config dir; the quota count in the user's state dir (the test
    // helper's XDG_STATE_HOME is <config dir>/state).
    const records = readdirSync(join(dir, 'pacing')).filter((name) => name.endsWith('.json'));
    expect(records).toHaveLength(1);
    const counts = readdirSync(join(dir, 'state', 'svc', 'quota'));
    expect(counts.filter((name) => name.endsWith('.quota.json'))).toHaveLength(1);
    const env = { SVC_CONFIG_DIR: dir, SVC_API_KEY: emu.keys.live, SVC_BASE_URL: `http://127.0.0.1:${port}` };
    const quota = await runSvc(['quota', '--json'], { env });
    expect(JSON.parse(quota.stdout).spent).toBe(3);
  });
});
