// Listing titles benchmark. Prints its figures; not a timed test.
//
// `svc listings list -o table` shows the product's title for listings without a title override,
// so it reads those products: at most one read per distinct product on the page, never one per
// listing. For pages of 25 and 100 listings of a seeded store (the emulator in this process,
// so its request log can be read; the CLI is a subprocess), and for a crawl of every listing:
// listings shown, those without an override, the distinct products among them, the product
// reads the run made, and the wall time beside the same list as tsv (which reads no product).
//
//   node bench/listing-titles.mjs
//   BENCH_PRODUCTS=2000 node bench/listing-titles.mjs
import { buildCliTree, cliEnv, fmt, loadEmulator, machine, runMeasured } from './lib/harness.mjs';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 600);

const svc = await buildCliTree('listing-titles-cli');
const { startEmulator } = await loadEmulator('listing-titles');
console.log(`machine: ${machine()}`);

const emulator = await startEmulator({ products: PRODUCTS, orders: 0, rateLimit: false, channelDelayMs: 0 });
try {
  const env = cliEnv({ SVC_API_KEY: emulator.keys.live, SVC_BASE_URL: emulator.url, COLUMNS: '200' });
  console.log(
    `\n-- ${emulator.store.listings.size.toLocaleString('en-US')} listings of ${emulator.store.products.size.toLocaleString('en-US')} products`,
  );
  let worst = 0;
  for (const limit of ['25', '100', 'all']) {
    const paging = limit === 'all' ? ['--all'] : ['--limit', limit];
    emulator.reset();
    const tsv = await runMeasured([svc, 'listings', 'list', ...paging, '-o', 'tsv'], env, {
      keepStdout: true,
    });
    if (tsv.code !== 0) throw new Error(`tsv list failed (exit ${tsv.code}): ${tsv.stderr.trim()}`);
    const ids = tsv.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t')[0]);
    const untitled = ids
      .map((id) => emulator.store.listings.get(id))
      .filter((listing) => listing && typeof listing.overrides.title !== 'string');
    const distinct = new Set(untitled.map((listing) => listing.product_id)).size;
    const tsvReads = emulator.requests({ route: 'GET /products/{id}' }).length;

    emulator.reset();
    const table = await runMeasured([svc, 'listings', 'list', ...paging, '-o', 'table'], env);
    if (table.code !== 0) throw new Error(`table list failed (exit ${table.code}): ${table.stderr.trim()}`);
    const reads = emulator.requests({ route: 'GET /products/{id}' });
    const readIds = reads.map((record) => record.path);
    const twice = readIds.length - new Set(readIds).size;
    worst = Math.max(worst, distinct === 0 ? 0 : reads.length / distinct);
    console.log(
      `${`--limit ${limit}`.padEnd(12)} ${String(ids.length).padStart(5)} listings, ${String(untitled.length).padStart(5)} without a title override, ` +
        `${String(distinct).padStart(4)} distinct products: ${String(reads.length).padStart(4)} product reads (${twice} repeated; tsv: ${tsvReads})  ` +
        `table ${fmt.s(table.ms)} vs tsv ${fmt.s(tsv.ms)}`,
    );
  }
  console.log(
    `titles lookup: at most ${worst.toFixed(2)} product reads per distinct product on the page (budget 1.00): ${worst <= 1 ? 'met' : 'MISSED'}`,
  );
  if (worst > 1) process.exitCode = 1;
} finally {
  await emulator.close();
}
