/**
 * `svc orders fulfill` at a terminal with no order id and no --file: the orders awaiting
 * shipment to choose from (a checkbox list with search), then each chosen order's carrier and
 * tracking number. It only gathers shipments: they are fulfilled as a --file of them would be
 * (same checks, confirmation, report and summary). With --save the entries are written as they
 * are made, in the --file format, so a session cut short is finished with --file.
 */
import { existsSync } from 'node:fs';
import { listOrders } from '../../client/resources/orders.js';
import { configDir } from '../../config/config-store.js';
import { leftoverShipmentsPath } from '../../config/leftover-shipments.js';
import type { Order } from '../../contract/schemas/order.js';
import { keyTextProblem } from '../../core/csv/text.js';
import type { Shipment } from '../../core/orders/shipments.js';
import { Interrupted, UsageError } from '../../errors.js';
import { writeShipmentsFile } from '../../output/shipments-file.js';
import { orderChoiceRows, orderLabel } from '../../output/views/orders.js';
import { counted, plural } from '../../words.js';
import type { BulkPlan } from '../bulk-command.js';
import type { BulkSession } from '../bulk-session.js';
import type { Deps, Prompts } from '../deps.js';

/** The carriers offered first; any other is typed in. */
const COMMON_CARRIERS = [
  'UPS',
  'USPS',
  'FedEx',
  'DHL',
  'Royal Mail',
  'Canada Post',
  'Australia Post',
  'DPD',
  'GLS',
] as const;

/** The choice that asks for a carrier by name. */
const OTHER = '\u0000other';

/** What the flow uses of the run. */
export type GuideFulfillDeps = Pick<Deps, 'io' | 'globals' | 'client' | 'prompts' | 'now' | 'signal'>;

/** The shipments entered, in the order they were chosen. */
export interface GuidedShipments {
  shipments: Shipment[];
  /** The chosen orders by id (for the plan's lines). */
  orders: Map<string, Order>;
}

/** Refuses a --save path that holds a file already: it may be an earlier session's entries. */
export function checkSavePath(save: string | undefined): void {
  if (save === undefined || !existsSync(save)) return;
  throw new UsageError(
    `${save} exists (an earlier session's shipments?); finish it with svc orders fulfill --file ${save}, or give --save another path`,
  );
}

/**
 * Reads the orders awaiting shipment, asks which to ship, then each one's carrier and tracking
 * number. Undefined when no order awaits shipment. Ctrl-C at any question ends the run with
 * exit 130 and nothing sent; what --save holds by then is said first.
 */
export async function guideShipments(
  deps: GuideFulfillDeps,
  options: { showBuyer: boolean; save?: string },
): Promise<GuidedShipments | undefined> {
  const orders = await awaitingShipment(deps);
  if (orders.length === 0) {
    deps.io.messages.info('No order is awaiting shipment; nothing to fulfill.');
    return undefined;
  }
  const prompts = await deps.prompts();
  const { header, rows } = await orderChoiceRows(orders, {
    showBuyer: options.showBuyer,
    now: deps.now(),
    width: deps.io.columns === undefined ? undefined : Math.max(20, deps.io.columns - 4),
  });
  const chosen = await prompts.searchCheckbox({
    message: `Orders to ship (${counted(orders.length, 'order')} awaiting shipment)`,
    header,
    choices: orders.map((order, index) => ({
      value: order,
      name: rows[index] ?? order.id,
      short: orderLabel(order),
      search: [order.id, rows[index] ?? ''].join(' '),
    })),
    required: 'choose at least one order with space (Ctrl-C to stop)',
    pageSize: Math.min(15, orders.length),
  });
  const shipments: Shipment[] = [];
  try {
    let carrier: string | undefined;
    for (const [index, order] of chosen.entries()) {
      const label = `${orderLabel(order)}${chosen.length > 1 ? ` [${index + 1}/${chosen.length}]` : ''}`;
      carrier = await askCarrier(prompts, label, carrier);
      const trackingNumber = await prompts.input({
        message: `Tracking number for ${label}:`,
        validate: (value) => trackingProblem(value) ?? true,
      });
      // As the file gives them, the entries' lines are their lines in the --save file.
      const line = options.save === undefined ? 0 : shipments.length + 2;
      shipments.push({ line, orderId: order.id, trackingNumber: trackingNumber.trim(), carrier });
      if (options.save !== undefined) writeShipmentsFile(options.save, shipments);
    }
  } catch (error) {
    if (error instanceof Interrupted && options.save !== undefined && shipments.length > 0) {
      const n = shipments.length;
      deps.io.messages.info(
        `The ${counted(n, 'shipment')} entered so far ${plural(n, 'is', 'are')} in ${options.save}; svc orders fulfill --file ${options.save} ships ${plural(n, 'it', 'them')}.`,
      );
    }
    throw error;
  }
  return { shipments, orders: new Map(chosen.map((order) => [order.id, order])) };
}

/** Every order awaiting shipment, oldest first (the longest waiting is shipped first). */
async function awaitingShipment(deps: GuideFulfillDeps): Promise<Order[]> {
  deps.io.messages.info('Reading the orders awaiting shipment…');
  const orders: Order[] = [];
  const client = await deps.client();
  for await (const order of listOrders(client, { status: 'awaiting_shipment' }, 'all', {
    signal: deps.signal,
  }))
    orders.push(order);
  return orders.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** The carrier: one of the common ones (the last chosen first in line), or one typed in. */
async function askCarrier(prompts: Prompts, label: string, last: string | undefined): Promise<string> {
  const common: readonly string[] = COMMON_CARRIERS;
  const picked = await prompts.select({
    message: `Carrier for ${label}:`,
    choices: [
      ...common.map((name) => ({ name, value: name })),
      ...(last !== undefined && !common.includes(last) ? [{ name: last, value: last }] : []),
      { name: 'Other…', value: OTHER },
    ],
    default: last,
    pageSize: common.length + 2,
  });
  if (picked !== OTHER) return picked;
  const typed = await prompts.input({
    message: 'Carrier name:',
    validate: (value) => textProblem('carrier', value) ?? true,
  });
  return typed.trim();
}

/** Why a typed tracking number cannot be sent, or undefined. */
function trackingProblem(value: string): string | undefined {
  return textProblem('tracking number', value);
}

function textProblem(what: string, value: string): string | undefined {
  const text = value.trim();
  if (text === '') return `type the ${what} (Ctrl-C to stop; nothing is sent)`;
  return keyTextProblem(what, text);
}

/** The plan's lines: each order with the carrier and tracking it is shipped with. */
export function planLines(guided: GuidedShipments): string[] {
  return guided.shipments.map((shipment) => {
    const order = guided.orders.get(shipment.orderId);
    return `  ${order ? orderLabel(order) : shipment.orderId}: ${shipment.carrier} ${shipment.trackingNumber}`;
  });
}

/**
 * The shipments file's plan, as the guided run states it: the same bulk run, but a stop after
 * sending names what was done and the --file command that finishes the rest (the --save file,
 * or a file of the orders not yet shipped, written then).
 */
export function guidedPlan(
  deps: Pick<Deps, 'env' | 'now'>,
  plan: BulkPlan,
  shipments: readonly Shipment[],
  save: string | undefined,
): BulkPlan {
  let session: BulkSession | undefined;
  return {
    ...plan,
    send: (running, client) => {
      session = running;
      return plan.send(running, client);
    },
    stopNote: async () => {
      const done = new Set(['updated', 'skipped', 'simulated']);
      const rest = shipments.filter((_, index) => !done.has(session?.ledger.statusOf(index) ?? ''));
      const file = save ?? saveRest(deps, rest);
      return `stopped before the end with ${counted(shipments.length - rest.length, 'order')} of ${shipments.length} shipped; \`svc orders fulfill --file ${file}\` finishes the rest (orders already shipped with the same tracking count as skipped)`;
    },
  };
}

/** Writes the orders not yet shipped to a file under the config dir, for the --file that finishes them. */
function saveRest(deps: Pick<Deps, 'env' | 'now'>, rest: readonly Shipment[]): string {
  const path = leftoverShipmentsPath(configDir(deps.env), deps.now());
  writeShipmentsFile(path, rest);
  return path;
}
