/** GET /orders (orders:read; buyer data included) and GET /orders/{id}. */
import { notFound } from '../errors.js';
import type { OrderRecord } from '../model.js';
import { paginate, parsePage, parseTimeParam, stringParam } from '../pagination.js';
import type { Handler } from '../router.js';

/** GET /orders: channel_account_id, channel, status, created_after; updated_at descending. */
export const listOrders: Handler = (store, request) => {
  const { query } = request;
  const page = parsePage(query);
  const accountId = stringParam(query, 'channel_account_id');
  const channel = stringParam(query, 'channel');
  const status = stringParam(query, 'status');
  const createdAfter = parseTimeParam(query, 'created_after');
  const envelope = paginate<OrderRecord>(
    store.orders.values(),
    { key: (order) => order.updated_at, direction: 'desc' },
    page,
    (order) =>
      (accountId === undefined || order.channel_account_id === accountId) &&
      (channel === undefined || order.channel === channel) &&
      (status === undefined || order.status === status) &&
      (createdAfter === undefined || order.created_at >= createdAfter),
  );
  return { status: 200, body: envelope };
};

/** GET /orders/{id}. */
export const getOrder: Handler = (store, request) => {
  const order = store.orders.get(request.params.id);
  if (!order) throw notFound(`No such order: ${request.params.id}.`, 'id');
  return { status: 200, body: order };
};
