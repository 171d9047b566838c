/** GET /orders (orders:read; buyer data included), GET /orders/{id} and POST /orders/{id}/fulfillment. */
import { ERROR_CODES, ERROR_TYPES } from '../../../contract/contract.js';
import { FulfillmentInput } from '../../../contract/schemas/order.js';
import { channelKind } from '../../channel-kinds.js';
import { isoTime } from '../../clock.js';
import type { OrderRecord } from '../../model.js';
import { HttpError, notFound } from '../errors.js';
import { listPage, olderThan, parsePage, parseTimeParam, stringParam } from '../pagination.js';
import type { Handler } from '../router.js';
import { validateBody } from '../validation.js';

/** GET /orders: channel_account_id, channel, status, created_after; updated_at descending. */
export const listOrders: Handler = (store, request) => {
  const { query } = request;
  const page = parsePage(request);
  const accountId = stringParam(query, 'channel_account_id');
  const channel = stringParam(query, 'channel');
  const status = stringParam(query, 'status');
  const createdAfter = parseTimeParam(query, 'created_after');
  // An order is updated at or after its creation, so once updated_at is older than
  // created_after no later order can match (unless the clock ran back for some order).
  const monotonic = store.orders.countOf('updated_before_created', 'yes') === 0;
  const envelope = listPage<OrderRecord>(
    store.orders,
    page,
    [
      ['channel_account_id', accountId],
      ['channel', channel],
      ['status', status],
    ],
    {
      filter: (order) =>
        (accountId === undefined || order.channel_account_id === accountId) &&
        (channel === undefined || order.channel === channel) &&
        (status === undefined || order.status === status) &&
        (createdAfter === undefined || order.created_at >= createdAfter),
      stop: monotonic ? olderThan(createdAfter, (order) => order.updated_at) : undefined,
    },
  );
  return { status: 200, body: envelope };
};

/** GET /orders/{id}. */
export const getOrder: Handler = (store, request) => {
  const order = store.orders.get(request.params.id);
  if (!order) throw notFound(`No such order: ${request.params.id}.`, 'id');
  return { status: 200, body: order };
};

/**
 * POST /orders/{id}/fulfillment (orders:write): only an `awaiting_shipment` order, else 409
 * `invalid_state` (orders move forward only). Live keys ship it (tracking set, `updated_at`
 * bumped, `order.status_changed` emitted); test keys get the same answer and change nothing.
 */
export const fulfillOrder: Handler = (store, request) => {
  const input = validateBody(FulfillmentInput, request.body);
  const { id } = request.params;
  const order = store.orders.get(id);
  if (!order) throw notFound(`No such order: ${id}.`, 'id');
  if (order.status !== 'awaiting_shipment') {
    throw new HttpError(
      409,
      ERROR_TYPES.invalidRequest,
      ERROR_CODES.invalidState,
      `Order ${id} is ${order.status}; only an order awaiting shipment can be fulfilled.`,
    );
  }
  const tracking = {
    number: input.tracking.number,
    carrier: input.tracking.carrier,
    url: input.tracking.url ?? null,
  };
  const change = { status: 'shipped', fulfillment_status: 'fulfilled', tracking };
  if (request.key?.mode === 'test') {
    const simulated = {
      ...structuredClone(order),
      ...change,
      source_status: channelKind(order.channel).sourceStatus.shipped ?? 'shipped',
      updated_at: isoTime(store.now()),
    };
    return { status: 200, body: simulated };
  }
  return { status: 200, body: store.updateOrder(id, change) };
};
