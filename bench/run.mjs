// `npm run bench`: runs every bench/*.mjs (but this one) in turn, each in its own process so
// that one's memory and timers do not colour another's figures. Each prints its own figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((name) => name.endsWith('.mjs') && name !== 'run.mjs')
  .filter((name) => only.length === 0 || only.some((wanted) => name.startsWith(wanted)))
  .sort();
let failed = 0;
for (const name of scripts) {
  console.log(`\n== ${name}`);
  // The size benches run short unless asked for the full sizes (BENCH_SCALE=full).
  const env = { BENCH_SCALE: 'quick', ...process.env };
  const result = spawnSync(process.execPath, [join(here, name)], { stdio: 'inherit', env });
  if (result.status !== 0) failed += 1;
}
process.exitCode = failed === 0 ? 0 : 1;
