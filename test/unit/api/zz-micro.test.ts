import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { Pacer } from '../../../src/api/pacer.js';
import { openSharedStore } from '../../../src/api/shared-pacing.js';
import { BucketSim } from './bucket-sim.js';

it('cost', async () => {
  for (const shared of [false, true, false, true]) {
    const store = openSharedStore(
      join(mkdtempSync(join(tmpdir(), 'm-')), 'pacing'),
      'svc_live_x',
      'http://127.0.0.1:1',
    );
    const pacer = new Pacer({ shared: shared ? store : undefined });
    const sim = new BucketSim(100000, 100000);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < 2000; i++) {
      const t = await pacer.acquire();
      pacer.observe(t, sim.handle(Date.now()));
    }
    await pacer.close();
    const cpu = process.cpuUsage(cpu0);
    console.log(
      shared ? 'shared' : 'alone ',
      ((performance.now() - t0) / 2000).toFixed(3),
      'ms/request wall',
      ((cpu.user + cpu.system) / 1000 / 2000).toFixed(3),
      'ms cpu',
    );
  }
});
