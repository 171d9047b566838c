import type { ApiClient } from '../../client/client.js';
import type { BulkDeps, BulkPlan } from '../../cmdutil/bulk-command.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { idArg } from '../../cmdutil/resource-commands.js';
import type { ColumnPlan } from '../../core/csv/columns.js';
import type { FulfillDeps } from '../../core/orders/fulfill.js';
import type { Shipment } from '../../core/orders/shipments.js';
import { ApiError, UsageError } from '../../errors.js';
import { counted } from '../../words.js';
import { orderView, SHOW_BUYER_HELP } from './buyer.js';

/** Flags of `svc orders fulfill`. */
export interface FulfillOptions {
  trackingNumber?: string;
  carrier?: string;
  trackingUrl?: string;
  file?: string;
  dryRun?: boolean;
  report?: string;
  map?: string;
  ignore?: string;
  encoding?: string;
  showBuyer?: boolean;
  save?: string;
}

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
        'CSV with a header: order_id,tracking_number,carrier[,tracking_url] (- for standard input)',
    },
    {
      flags: '--dry-run',
      description:
        'check the file, what was entered or the tracking, and show what would be sent; send nothing',
    },
    { flags: '--report <out.csv>', description: 'write line,key,status,code,message for every order' },
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
      description: 'with --file: utf-8 (default) or latin1 (Windows-1252, as Excel on Windows saves "CSV")',
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
    'tools export them); --map names other columns; the columns read and left out are named first.',
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
type GuidedDeps = BulkDeps & Pick<Deps, 'env'>;

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
  if (options.report || options.map || options.ignore || options.encoding)
    throw new UsageError('--report, --map, --ignore and --encoding go with --file');
  return runSingle(deps, id, options);
}

/** No id and no --file: at a terminal, the orders and their tracking are asked for, then shipped as a file of them would be. */
async function runGuided(deps: GuidedDeps, options: FulfillOptions, single: boolean): Promise<void> {
  const { guideOrRefuse } = await import('../../cmdutil/guide.js');
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
  const guided = await import('./fulfill-guided.js');
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
  const { runBulk } = await import('../../cmdutil/bulk-command.js');
  const plan = fulfillPlan(options.save, shipments, undefined, options);
  await runBulk(deps, guided.guidedPlan(deps, plan, shipments, options.save), options);
}

async function runSingle(deps: BulkDeps, id: string, options: FulfillOptions): Promise<void> {
  const { isHttpUrl } = await import('../../core/orders/shipments.js');
  const { orderLine } = await import('../../output/views/orders.js');
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
    const { fulfillmentBody, fulfillmentRequest } = await import('../../client/resources/orders.js');
    const body = fulfillmentBody({ number: trackingNumber, carrier, url: trackingUrl });
    const { showVerdict } = await import('../../cmdutil/verdict.js');
    await showVerdict(
      deps,
      body,
      `Dry run: would send ${fulfillmentRequest(id)} ${JSON.stringify(body)}. Nothing was sent.`,
    );
    return;
  }
  const view = await orderView(deps, Boolean(options.showBuyer));
  const client = await deps.client();
  const { fulfillOne } = await import('../../core/orders/fulfill.js');
  const requests = await depsFor(client, () => {});
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

async function runFile(deps: BulkDeps, path: string, options: FulfillOptions): Promise<void> {
  const { inputFile } = await import('../../cmdutil/input-file.js');
  const { checkShipmentsFile } = await import('../../core/orders/shipments.js');
  const { parseEncoding } = await import('../../core/csv/text.js');
  const { describeColumns, parseColumnMap, parseIgnoredColumns } = await import('../../core/csv/columns.js');
  const { SHIPMENT_FIELDS } = await import('../../core/orders/shipments.js');
  const { checkInput, showColumns } = await import('../../cmdutil/input-check.js');
  const encoding = parseEncoding(options.encoding);
  const map = parseColumnMap(options.map, SHIPMENT_FIELDS, "order_id='Order Number',carrier=Courier");
  const ignore = parseIgnoredColumns(options.ignore);
  const source = await inputFile(deps, path, { '--report': options.report });
  const { shipments, plan, emptyRows } = await checkInput(path, options.report, () =>
    checkShipmentsFile(source, { map, ignore, encoding }),
  );
  showColumns(deps, describeColumns(plan), emptyRows);
  const { runBulk } = await import('../../cmdutil/bulk-command.js');
  await runBulk(deps, { ...fulfillPlan(path, shipments, plan, options), file: path }, options);
}

/** A shipments file (or the shipments entered at a terminal, `path` their --save file) as the bulk frame runs it. */
function fulfillPlan(
  path: string | undefined,
  shipments: Shipment[],
  columns: ColumnPlan | undefined,
  options: FulfillOptions,
): BulkPlan {
  const orders = counted(shipments.length, 'order');
  const sample = shipments.slice(0, 5);
  return {
    noun: 'orders',
    total: shipments.length,
    items: () => shipments.map((shipment) => ({ line: shipment.line, key: shipment.orderId })),
    report: options.report,
    dryRun: {
      plan: {
        file: path ?? null,
        ...(columns && {
          columns: Object.fromEntries(columns.used.map(({ field, header }) => [field, header])),
          ignored_columns: columns.ignored,
        }),
        orders: shipments.length,
        requests: shipments.length,
        write_quota: 0,
        first_rows: sample.map((s) => ({
          line: s.line,
          order_id: s.orderId,
          tracking_number: s.trackingNumber,
          carrier: s.carrier,
          tracking_url: s.trackingUrl ?? null,
        })),
      },
      what: `${orders} would be fulfilled in ${counted(shipments.length, 'request')} (no daily write quota)`,
      heading: 'First rows',
      first: sample.map(
        (s) =>
          `${s.line > 0 ? `line ${s.line}: ` : ''}${s.orderId} ${s.carrier} ${s.trackingNumber}${s.trackingUrl ? ` ${s.trackingUrl}` : ''}`,
      ),
    },
    confirmation: `Mark ${orders} shipped with a LIVE key (${counted(shipments.length, 'request')}; each marketplace notifies its buyer)`,
    action: 'fulfillment',
    send: async (session, client) => {
      const { fulfillShipments } = await import('../../core/orders/fulfill.js');
      await fulfillShipments(shipments, {
        ...session.runOptions,
        deps: await depsFor(client, () => session.countRequest()),
        settle: (outcome) => session.record([outcome]),
      });
    },
    verb: 'Fulfilled',
    rerunNote: '; orders already shipped with the same tracking count as skipped',
  };
}

/** The two requests over the client (each counted), and the key's mode. */
async function depsFor(client: ApiClient, count: () => void): Promise<FulfillDeps> {
  const { fulfillOrder, getOrder } = await import('../../client/resources/orders.js');
  return {
    fulfill: (orderId, tracking, idempotencyKey) => {
      count();
      return fulfillOrder(client, orderId, tracking, { idempotencyKey });
    },
    get: (orderId) => {
      count();
      return getOrder(client, orderId);
    },
    simulated: !client.live,
  };
}
