// The library's two figures (issue 43), each a ratio of medians against its reference, measured
// in interleaved rounds so that a busy moment of the machine weighs on both alike:
//
//   import('svc') (the library bundle, as scripts/build.mjs makes it)   against `node -e 0`     budget 1.3x
//   crawling 20,000 orders with the library (`for await` over          against a bare `fetch`   budget 1.05x
//   client.orders.list())                                               loop over the same pages
//
// The emulator runs in this process, without a rate limit; each measured run is a process of
// its own (the bench's event loop stays free to answer it).
//
//   node bench/library.mjs                  crawl: 7 rounds, import: 41 rounds
//   BENCH_ROUNDS=15 node bench/library.mjs
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleLibrary } from '../scripts/bundle.mjs';
import { cliEnv, fmt, loadEmulator, machine, median, tmp } from './lib/harness.mjs';

const CRAWL_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const IMPORT_ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 41);
const ORDERS = 20_000;

const dir = join(tmp, 'library');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
await bundleLibrary(join(dir, 'dist'));
const entry = pathToFileURL(join(dir, 'dist', 'index.js')).href;

const libraryCrawl = join(dir, 'library-crawl.mjs');
writeFileSync(
  libraryCrawl,
  `import { createClient } from ${JSON.stringify(entry)};
const client = createClient();
let count = 0;
for await (const _order of client.orders.list()) count++;
await client.close();
if (count !== ${ORDERS}) throw new Error('crawled ' + count);
`,
);
const bareCrawl = join(dir, 'bare-crawl.mjs');
writeFileSync(
  bareCrawl,
  `let count = 0;
let cursor;
do {
  const url = new URL(process.env.SVC_BASE_URL + '/rest/v1/orders');
  url.searchParams.set('limit', '100');
  if (cursor) url.searchParams.set('cursor', cursor);
  const response = await fetch(url, { headers: { authorization: 'Bearer ' + process.env.SVC_API_KEY } });
  if (!response.ok) throw new Error('GET /orders answered ' + response.status);
  const page = await response.json();
  count += page.data.length;
  cursor = page.has_more ? page.next_cursor : undefined;
} while (cursor);
if (count !== ${ORDERS}) throw new Error('crawled ' + count);
`,
);

const { startEmulator } = await loadEmulator('library');
const emulator = await startEmulator({ port: 0, orders: ORDERS, rateLimit: false });
const env = cliEnv({ SVC_API_KEY: emulator.keys.live, SVC_BASE_URL: emulator.url });

/** Wall time of `node args…`, in ms; a failing run stops the bench. */
function time(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code === 0) resolve(ms);
      else reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
    });
  });
}

/** Medians of interleaved rounds of two runs, after one warm-up of each. */
async function pair(label, args, reference, rounds, budget) {
  await time(args);
  await time(reference.args);
  const mine = [];
  const theirs = [];
  for (let round = 0; round < rounds; round++) {
    mine.push(await time(args));
    theirs.push(await time(reference.args));
  }
  const ratio = median(mine) / median(theirs);
  const verdict = ratio <= budget ? 'within' : 'OVER';
  console.log(
    `${label.padEnd(34)} ${fmt.ms(median(mine)).padStart(9)}  vs ${reference.label.padEnd(22)} ${fmt.ms(median(theirs)).padStart(9)}  ${ratio.toFixed(3)}x  (budget ${budget}x: ${verdict})`,
  );
  return ratio <= budget;
}

console.log(machine());
try {
  const importing = await pair(
    "import('svc')",
    ['--input-type=module', '-e', `await import(${JSON.stringify(entry)});`],
    { label: 'node -e 0', args: ['-e', '0'] },
    IMPORT_ROUNDS,
    1.3,
  );
  const crawling = await pair(
    `crawl ${ORDERS} orders, library`,
    [libraryCrawl],
    { label: 'bare fetch loop', args: [bareCrawl] },
    CRAWL_ROUNDS,
    1.05,
  );
  process.exitCode = importing && crawling ? 0 : 1;
} finally {
  await emulator.close();
}
