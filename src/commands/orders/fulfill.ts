import { fulfillmentBody, fulfillmentRequest } from '../../client/resources/orders.js';
import { type BulkDeps, runBulk } from '../../cmdutil/bulk-command.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { guideOrRefuse } from '../../cmdutil/guide.js';
import { orderView, SHOW_BUYER_HELP } from '../../cmdutil/orders/buyer.js';
import { type FulfillOptions, fulfillPlan, runFile } from '../../cmdutil/orders/fulfill-file.js';
import * as guided from '../../cmdutil/orders/fulfill-guided.js';
import { idArg } from '../../cmdutil/resource-commands.js';
import { showVerdict } from '../../cmdutil/verdict.js';
import { fulfillOne } from '../../core/orders/fulfill.js';
import { fulfillDepsOver } from '../../core/orders/fulfill-plan.js';
import { isHttpUrl } from '../../core/orders/shipments.js';
import { ApiError, UsageError } from '../../errors.js';
import { orderLine } from '../../output/views/orders.js';
import { counted } from '../../words.js';

/** `svc orders fulfill ID …` and `svc orders fulfill --file shipments.csv`. */
export const command = defineCommand<FulfillOptions & { id?: string }>({
  path: ['orders', 'fulfill'],
  rank: 3,
  description: 'mark orders shipped with tracking, so each marketplace is notified once',
  args: [
    {
      ...idArg('order', 'svc orders list'),
      description: 'order id (ord_…); or give --file; or neither, at a terminal, to choose',
      optional: true,
    },
  ],
  flags: [
    { flags: '--tracking-number <n>', description: 'tracking number (with an order id)' },
    { flags: '--carrier <name>', description: 'carrier, e.g. UPS (with an order id)' },
    { flags: '--tracking-url <url>', description: 'tracking page URL (with an order id; optional)' },
    {
      flags: '--show-buyer',
      description: `with an order id: ${SHOW_BUYER_HELP}; at a terminal: buyer names in the list of orders`,
    },
    {
      flags: '--file <shipments.csv>',
      description:
        "CSV with a header: order_id,tracking_number,carrier[,tracking_url]; order_id may hold the orders' numbers on their channels (- for standard input)",
    },
    {
      flags: '--channel <kind>',
      description: 'with --file: look order numbers up among orders of this channel kind only',
    },
    {
      flags: '--channel-account <id>',
      description:
        'with --file: look order numbers up on this channel account only (picks one where two accounts hold a number)',
    },
    {
      flags: '--dry-run',
      description:
        'check the file, what was entered or the tracking, and show what would be sent; send nothing',
    },
    {
      flags: '--report <out.csv>',
      description:
        'write line,key,status,code,message for every order (.json or .ndjson: the same rows as JSON); with --dry-run, the verdicts',
    },
    {
      flags: '--map <pairs>',
      description:
        "with --file: read fields from columns of other names, e.g. order_id='Order Number',carrier=Courier",
    },
    {
      flags: '--ignore <columns>',
      description: 'with --file: columns left unread, e.g. Weight,Note',
    },
    {
      flags: '--encoding <name>',
      description:
        'with --file: utf-8 or latin1 (Windows-1252); default UTF-8, or Windows-1252 for a file that is not UTF-8 but is',
    },
    {
      flags: '--save <shipments.csv>',
      description:
        'at a terminal (no id, no --file): write what you enter, as you enter it, in the --file format',
    },
  ],
  takes: { confirms: true },
  notes: [
    'Only an order awaiting shipment can be fulfilled. An order already shipped with the same',
    'tracking number counts as done (skipped), so a file can be run again after an interruption;',
    'a canceled, refunded or otherwise shipped order is a per-order failure (exit 3).',
    'The whole file is checked before the first request: any bad line stops the run (exit 2).',
    'Headers match ignoring case, spaces and underscores (Order ID, Tracking Number, as shipping',
    'tools export them; Order Number, Order #, Order No and Marketplace Order ID are read as',
    'order_id); --map names other columns; the columns read and left out are named first.',
    '',
    "The order column may hold svc ids (ord_…) or the orders' numbers on their channels",
    '(70-38343-78751, #1001), mixed. Numbers are resolved before anything is sent: one crawl of the',
    'orders awaiting shipment (narrowed by --channel, --channel-account), then one look among recent',
    'orders. A number whose order already shipped is skipped; a canceled or refunded one fails; so',
    'does an unknown number, and a number orders on two channel accounts hold (--channel-account',
    'picks one). --dry-run reads each order and says what the run would do with every line.',
    '',
    'With neither an order id nor --file, svc asks at a terminal: it lists the orders awaiting',
    "shipment to choose from (type to search, space to choose), asks each chosen order's carrier",
    'and tracking number, shows the plan, and ships those orders as --file would (with a live key',
    'it asks once before sending). It asks only when standard input and output are terminals and',
    'neither --no-input, --yes nor CI=true is set; otherwise it stops (exit 2) and names the id or',
    '--file to give. --save keeps the entries in a file that --file finishes after a stop.',
  ],
  examples: [
    'svc orders fulfill ord_123 --tracking-number 1Z999AA10123456784 --carrier UPS',
    'svc orders fulfill ord_123 --tracking-number 1Z999AA10123456784 --carrier UPS --dry-run',
    'svc orders fulfill --file shipments.csv --dry-run',
    'svc orders fulfill --file shipments.csv --report fulfill-report.csv',
    "svc orders fulfill --file export.csv --map order_id='Order Number',carrier=Courier --dry-run",
    'svc orders fulfill --save shipments.csv   # at a terminal: choose orders, type trackings',
  ],
  run: ({ id, ...options }, deps) => runFulfill(deps, id, options),
});

/** What the guided run uses beyond a bulk run's: the environment (where leftovers are kept). */
type GuidedDeps = BulkDeps & Pick<Deps, 'env' | 'atEnd'>;

/** Checks the flags, then fulfills one order or a whole shipments file. */
async function runFulfill(deps: GuidedDeps, id: string | undefined, options: FulfillOptions): Promise<void> {
  const single =
    options.trackingNumber !== undefined ||
    options.carrier !== undefined ||
    options.trackingUrl !== undefined;
  if (id !== undefined && options.file !== undefined) {
    throw new UsageError('give an order id or --file, not both');
  }
  if (options.save !== undefined && (id !== undefined || options.file !== undefined))
    throw new UsageError(
      '--save keeps what is entered at a terminal; with an order id or --file there is nothing to enter',
    );
  if (options.file !== undefined) {
    if (single) {
      throw new UsageError(
        '--tracking-number, --carrier and --tracking-url go with an order id; with --file they come from the file',
      );
    }
    if (options.showBuyer)
      throw new UsageError('--show-buyer goes with an order id; --file prints a summary');
    return runFile(deps, options.file, options);
  }
  if (id === undefined) return runGuided(deps, options, single);
  if (
    options.report ||
    options.map ||
    options.ignore ||
    options.encoding ||
    options.channel ||
    options.channelAccount
  )
    throw new UsageError(
      '--report, --map, --ignore, --encoding, --channel and --channel-account go with --file',
    );
  return runSingle(deps, id, options);
}

/** No id and no --file: at a terminal, the orders and their tracking are asked for, then shipped as a file of them would be. */
async function runGuided(deps: GuidedDeps, options: FulfillOptions, single: boolean): Promise<void> {
  guideOrRefuse(
    deps,
    'give an order id and its tracking (svc orders fulfill ord_123 --tracking-number N --carrier C), or --file shipments.csv',
  );
  if (single)
    throw new UsageError(
      "--tracking-number, --carrier and --tracking-url go with an order id; at a terminal svc asks for each order's",
    );
  if (options.map || options.ignore || options.encoding)
    throw new UsageError('--map, --ignore and --encoding go with --file');
  guided.checkSavePath(options.save);
  const entered = await guided.guideShipments(deps, {
    showBuyer: Boolean(options.showBuyer),
    save: options.save,
  });
  if (!entered) return;
  const { shipments } = entered;
  deps.io.messages.info(
    [`Ship ${counted(shipments.length, 'order')}:`, ...guided.planLines(entered)].join('\n'),
  );
  if (options.save)
    deps.io.messages.info(
      `Saved to ${options.save} (svc orders fulfill --file ${options.save} runs it again).`,
    );
  const unresolved = { shipments, settled: new Map(), seen: new Map(), numberLines: 0, listRequests: 0 };
  const plan = fulfillPlan(options.save, unresolved, undefined, options, deps);
  await runBulk(deps, guided.guidedPlan(deps, plan, shipments, options.save), options);
}

async function runSingle(deps: BulkDeps, id: string, options: FulfillOptions): Promise<void> {
  const trackingNumber = options.trackingNumber?.trim() ?? '';
  const carrier = options.carrier?.trim() ?? '';
  if (trackingNumber === '')
    throw new UsageError(
      `--tracking-number is required, e.g. svc orders fulfill ${id} --tracking-number 1Z999AA10123456784 --carrier UPS`,
    );
  if (carrier === '')
    throw new UsageError(
      `--carrier is required, e.g. svc orders fulfill ${id} --tracking-number ${trackingNumber} --carrier UPS`,
    );
  const trackingUrl = options.trackingUrl?.trim() || undefined;
  if (trackingUrl !== undefined && !isHttpUrl(trackingUrl)) {
    throw new UsageError(
      `--tracking-url takes an http(s) URL, e.g. https://www.ups.com/track?tracknum=${trackingNumber}; got "${trackingUrl}"`,
    );
  }
  if (options.dryRun) {
    // As the file form's dry run: what would be sent, checked, and nothing sent.
    const body = fulfillmentBody({ number: trackingNumber, carrier, url: trackingUrl });
    await showVerdict(
      deps,
      body,
      `Dry run: would send ${fulfillmentRequest(id)} ${JSON.stringify(body)}. Nothing was sent.`,
    );
    return;
  }
  const view = await orderView(deps, Boolean(options.showBuyer));
  const client = await deps.client();
  const requests = await fulfillDepsOver(client, () => {});
  const result = await fulfillOne(requests, { line: 0, orderId: id, trackingNumber, carrier, trackingUrl });
  const { outcome, order } = result;
  if (outcome.status === 'failed') {
    // A refusal read back (canceled, shipped elsewhere) says more than the bare 409.
    if (result.error && result.error.status !== 409) throw result.error;
    throw new ApiError(409, {
      type: result.error?.type ?? 'invalid_request_error',
      code: outcome.code ?? 'invalid_state',
      message: outcome.message ?? `order ${id} could not be fulfilled`,
    });
  }
  const note =
    outcome.status === 'skipped'
      ? `Order ${id} was already shipped with tracking ${trackingNumber}; the marketplace was not notified again.`
      : outcome.status === 'simulated'
        ? `Order ${id} would be shipped with ${carrier} ${trackingNumber} (test key: simulated, nothing changed).`
        : `Order ${id} is shipped with ${carrier} ${trackingNumber}; the marketplace is notified.`;
  deps.io.messages.info(note);
  if (order) await deps.io.printer.item(order, { summary: orderLine, view });
}
