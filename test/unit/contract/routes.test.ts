import { describe, expect, it } from 'vitest';
import { matchRoute, notFoundAdvice } from '../../../src/contract/routes.js';

describe('matchRoute', () => {
  it('prefers a literal segment over an id', () => {
    expect(matchRoute('POST', '/products/batch')).toMatchObject({
      kind: 'route',
      route: { pattern: '/products/batch' },
    });
    expect(matchRoute('GET', '/products/batch')).toMatchObject({
      kind: 'route',
      route: { pattern: '/products/{id}' },
    });
  });
  it('tells an unknown path from a method the path does not take', () => {
    expect(matchRoute('GET', '/nope')).toEqual({ kind: 'none' });
    expect(matchRoute('GET', '/orders/ord_1/fulfillment')).toMatchObject({ kind: 'method' });
    expect(matchRoute('GET', '/orders?status=shipped')).toMatchObject({ kind: 'route' });
  });
});

describe('notFoundAdvice', () => {
  it('names the list of valid ids, or says the route does not exist', () => {
    expect(notFoundAdvice('get', '/listings/list_1')).toBe(
      'check the id (svc listings list shows valid ones)',
    );
    expect(notFoundAdvice('PATCH', '/inventory/A%20B')).toBe(
      'check the SKU (svc inventory export shows valid ones)',
    );
    expect(notFoundAdvice('GET', '/v2/orders')).toMatch(/^GET \/v2\/orders is not a route of the API/);
  });
});
