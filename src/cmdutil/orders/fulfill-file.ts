/**
 * `svc orders fulfill --file` (and the shipments entered at a terminal) as the bulk frame runs
 * them: the file checked, channel numbers resolved to orders before anything is sent, then a
 * dry run's verdicts (from reads only) or the live run.
 */

import type { ColumnPlan } from '../../core/csv/columns.js';
import type { FulfilVerdict } from '../../core/orders/fulfill.js';
import { fulfillConfirmation, fulfilWhat, sendFulfilments } from '../../core/orders/fulfill-plan.js';
import type { ResolvedShipments } from '../../core/orders/order-numbers.js';
import type { Shipment } from '../../core/orders/shipments.js';
import { UsageError } from '../../errors.js';
import type { ReportRow } from '../../output/report.js';
import { counted, plural } from '../../words.js';
import type { BulkDeps, BulkPlan } from '../bulk-command.js';
import type { InputDeps } from '../input-file.js';

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
  channel?: string;
  channelAccount?: string;
}

/** Reads in flight at once while a dry run reads the orders its lines name. */
const DRY_RUN_READS = 8;

/** Checks the file, resolves the channel numbers it holds, then runs it (or its dry run). */
export async function runFile(
  deps: BulkDeps & InputDeps,
  path: string,
  options: FulfillOptions,
): Promise<void> {
  const { checkShipmentsFile } = await import('../../core/orders/shipments.js');
  const { describeColumns, parseColumnMap, parseIgnoredColumns } = await import('../../core/csv/columns.js');
  const { SHIPMENT_FIELDS } = await import('../../core/orders/shipments.js');
  const { readInputFile, showColumns } = await import('../input-check.js');
  const map = parseColumnMap(options.map, SHIPMENT_FIELDS, "order_id='Order Number',carrier=Courier");
  const ignore = parseIgnoredColumns(options.ignore);
  const { shipments, plan, emptyRows } = await readInputFile(deps, path, options, (source, encoding) =>
    checkShipmentsFile(source, { map, ignore, encoding }),
  );
  showColumns(deps, describeColumns(plan), emptyRows);
  const resolved = await resolveNumbers(deps, shipments, options);
  const { runBulk } = await import('../bulk-command.js');
  await runBulk(deps, { ...fulfillPlan(path, resolved, plan, options, deps), file: path }, options);
}

/** The file's channel numbers resolved (reads only), said in one line when there were any. */
async function resolveNumbers(
  deps: BulkDeps,
  shipments: Shipment[],
  options: FulfillOptions,
): Promise<ResolvedShipments> {
  const { isOrderId, resolveOrderNumbers } = await import('../../core/orders/order-numbers.js');
  const unresolved = { shipments, settled: new Map(), seen: new Map(), numberLines: 0, listRequests: 0 };
  if (shipments.every((shipment) => isOrderId(shipment.orderId))) {
    if (options.channel || options.channelAccount)
      throw new UsageError(
        '--channel and --channel-account narrow where channel order numbers are looked up; this file names orders by svc id only',
      );
    return unresolved;
  }
  const { checkChannelKinds, checkChannelAccount } = await import('../filter-check.js');
  const route = (param: string) => ({ operation: 'listOrders' as const, param });
  const kinds = await checkChannelKinds(deps, options.channel, route('channel'));
  if (kinds && kinds.length > 1)
    throw new UsageError(
      '--channel takes one kind here; run the file once per kind, or give --channel-account',
    );
  const account = await checkChannelAccount(deps, options.channelAccount, route('channel_account_id'));
  const client = await deps.client();
  const { listOrders } = await import('../../client/resources/orders.js');
  const resolved = await resolveOrderNumbers(shipments, {
    list: (filters, onPage) => listOrders(client, filters, 'all', { onPage, signal: deps.signal }),
    filters: { channel: kinds?.[0], channel_account_id: account },
    now: deps.now(),
  });
  deps.io.messages.info(
    `${plural(resolved.numberLines, '1 line names its order', `${resolved.numberLines} lines name orders`)} by their channel number: resolved with ${counted(resolved.listRequests, 'list request')}.`,
  );
  return resolved;
}

/** A shipments file (or the shipments entered at a terminal, `path` their --save file) as the bulk frame runs it. */
export function fulfillPlan(
  path: string | undefined,
  resolved: ResolvedShipments,
  columns: ColumnPlan | undefined,
  options: FulfillOptions,
  deps: BulkDeps,
): BulkPlan {
  const { shipments, settled } = resolved;
  const toSend = shipments.length - settled.size;
  return {
    noun: 'orders',
    total: shipments.length,
    items: () => shipments.map((shipment) => ({ line: shipment.line, key: shipment.orderId })),
    report: options.report,
    dryRun: () => showFulfilDryRun(deps, path, resolved, columns, options.report),
    confirmation: fulfillConfirmation(toSend),
    action: 'fulfillment',
    send: (session, client) => sendFulfilments(client, resolved, session),
    verb: 'Fulfilled',
    rerunNote: '; orders already shipped with the same tracking count as skipped',
  };
}

/** What the live run would do with each line, from reads only: the dry run's verdicts, as its report holds them. */
async function predict(
  deps: BulkDeps,
  resolved: ResolvedShipments,
): Promise<{ rows: ReportRow[]; reads: number }> {
  const { isPerOrderError, predictFulfilment } = await import('../../core/orders/fulfill.js');
  const { targetOf } = await import('../../core/orders/order-numbers.js');
  const { getOrder } = await import('../../client/resources/orders.js');
  const client = await deps.client();
  let reads = 0;
  const verdictOf = async (shipment: Shipment, index: number): Promise<FulfilVerdict> => {
    const early = resolved.settled.get(index);
    if (early)
      return {
        status: early.status === 'skipped' ? 'would_skip' : 'would_fail',
        code: early.code,
        message: early.message,
      };
    const id = targetOf(shipment);
    const known = resolved.seen.get(id);
    if (known) return predictFulfilment(shipment, known);
    reads += 1;
    try {
      return predictFulfilment(shipment, await getOrder(client, id));
    } catch (error) {
      if (isPerOrderError(error)) return predictFulfilment(shipment, error);
      throw error;
    }
  };
  const rows: ReportRow[] = [];
  const { shipments } = resolved;
  for (let start = 0; start < shipments.length; start += DRY_RUN_READS) {
    const slice = shipments.slice(start, start + DRY_RUN_READS);
    const verdicts = await Promise.all(slice.map((shipment, at) => verdictOf(shipment, start + at)));
    verdicts.forEach((verdict, at) => {
      const shipment = slice[at];
      rows.push({ line: shipment.line > 0 ? shipment.line : undefined, key: shipment.orderId, ...verdict });
    });
  }
  return { rows, reads };
}

/** The dry run: every line's verdict (reads only), the plan, and the report of the verdicts. */
async function showFulfilDryRun(
  deps: BulkDeps,
  path: string | undefined,
  resolved: ResolvedShipments,
  columns: ColumnPlan | undefined,
  report: string | undefined,
): Promise<void> {
  const { showDryRun } = await import('../bulk-command.js');
  const { rows, reads } = await predict(deps, resolved);
  const count = (status: string) => rows.filter((row) => row.status === status).length;
  const send = count('would_send');
  const skip = count('would_skip');
  const fail = count('would_fail');
  const sample = rows.slice(0, 5);
  const shipmentOf = (at: number): Shipment | undefined => resolved.shipments[at];
  await showDryRun(
    deps,
    {
      plan: {
        file: path ?? null,
        ...(columns && {
          columns: Object.fromEntries(columns.used.map(({ field, header }) => [field, header])),
          ignored_columns: columns.ignored,
        }),
        orders: rows.length,
        would_send: send,
        would_skip: skip,
        would_fail: fail,
        requests: send,
        write_quota: 0,
        order_numbers: { lines: resolved.numberLines, list_requests: resolved.listRequests },
        reads: resolved.listRequests + reads,
        first_rows: sample.map((row, at) => {
          const s = shipmentOf(at);
          return {
            line: row.line ?? null,
            order_id: s?.orderId ?? row.key,
            resolved_id: s?.target ?? null,
            tracking_number: s?.trackingNumber ?? null,
            carrier: s?.carrier ?? null,
            tracking_url: s?.trackingUrl ?? null,
            verdict: row.status,
            message: row.message ?? null,
          };
        }),
      },
      what: fulfilWhat(send, skip, fail),
      heading: 'First rows',
      first: sample.map((row, at) => {
        const s = shipmentOf(at);
        const where = row.line !== undefined ? `line ${row.line}: ` : '';
        const to = s?.target ? ` → ${s.target}` : '';
        const what =
          row.status === 'would_send'
            ? `${s?.carrier ?? ''} ${s?.trackingNumber ?? ''}${s?.trackingUrl ? ` ${s.trackingUrl}` : ''}`
            : `${row.status.replace('_', ' ')}: ${row.message ?? ''}`;
        return `${where}${row.key}${to} ${what}`;
      }),
      rows,
    },
    report,
  );
}
