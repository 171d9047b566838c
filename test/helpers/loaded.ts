/** Which Node built-in modules a real run of bin/svc loads (what start-up costs is in bench/). */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { SVC_BIN } from './svc.js';
import { tempDir } from './temp-dir.js';

/**
 * The Node built-in modules `node bin/svc args…` loaded by the time it exited. Spawned without
 * blocking: the emulator answering it runs in this process.
 */
export async function builtinsLoaded(args: string[], env: Record<string, string> = {}): Promise<Set<string>> {
  const dir = tempDir('svc-loads-');
  const out = join(dir, 'loaded.txt');
  const preload = join(dir, 'record.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`,
  );
  const child = spawn(process.execPath, ['--require', preload, SVC_BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'close');
  expect(code, stderr).toBe(0);
  const names = readFileSync(out, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('NativeModule '))
    .map((line) => line.slice('NativeModule '.length));
  return new Set(names);
}
