/** GET /products and GET /products/{id}. */
import { notFound } from '../errors.js';
import type { ProductRecord } from '../model.js';
import { paginate, parsePage, parseTimeParam } from '../pagination.js';
import type { Handler } from '../router.js';

const byUpdatedAt = { key: (item: { updated_at: string }) => item.updated_at, direction: 'desc' as const };

/** GET /products: `updated_after` inclusive, updated_at descending. */
export const listProducts: Handler = (store, request) => {
  const page = parsePage(request.query);
  const updatedAfter = parseTimeParam(request.query, 'updated_after');
  const envelope = paginate<ProductRecord>(
    store.products.values(),
    byUpdatedAt,
    page,
    (product) => updatedAfter === undefined || product.updated_at >= updatedAfter,
  );
  return {
    status: 200,
    body: { ...envelope, data: envelope.data.map((product) => store.productView(product)) },
  };
};

/** GET /products/{id}. */
export const getProduct: Handler = (store, request) => {
  const product = store.products.get(request.params.id);
  if (!product) throw notFound(`No such product: ${request.params.id}.`, 'id');
  return { status: 200, body: store.productView(product) };
};
