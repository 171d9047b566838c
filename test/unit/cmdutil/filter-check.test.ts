import { describe, expect, it } from 'vitest';
import { checkFilterValue, closestValue } from '../../../src/cmdutil/filter-check.js';
import { EVENT_TYPE_FILTER, ISSUE_CODE_FILTER, STATUS_FILTERS } from '../../../src/contract/filter-values.js';
import { UsageError } from '../../../src/errors.js';

describe('closestValue', () => {
  const orders = STATUS_FILTERS.orders.values;
  it('sets case, dashes and spaces aside', () => {
    expect(closestValue('awaiting-shipment', orders)).toBe('awaiting_shipment');
    expect(closestValue('Partially Refunded', orders)).toBe('partially_refunded');
  });
  it('names the nearest value for a typo, and none when nothing is near', () => {
    expect(closestValue('cancelled', orders)).toBe('canceled');
    expect(closestValue('order.create', EVENT_TYPE_FILTER.values)).toBe('order.created');
    expect(closestValue('etsyy', ['amazon', 'ebay', 'etsy'])).toBe('etsy');
    expect(closestValue('hpsipde', orders)).toBeUndefined();
    expect(closestValue('x', orders)).toBeUndefined();
  });
  it('names the one value whose start is near a long value typed short', () => {
    expect(closestValue('photo_requird', ISSUE_CODE_FILTER.values)).toBe('photo_required_for_channel');
    expect(closestValue('missing_required', ISSUE_CODE_FILTER.values)).toBe('missing_required_attribute');
    // Two values start that way: neither is named.
    expect(closestValue('awaiting', orders)).toBeUndefined();
    expect(closestValue('pho', ISSUE_CODE_FILTER.values)).toBeUndefined();
  });
});

describe('checkFilterValue', () => {
  it('returns a valid value and refuses any other with the list and the svc api way', () => {
    expect(checkFilterValue('--status', 'shipped', STATUS_FILTERS.orders)).toBe('shipped');
    const refused = () =>
      checkFilterValue('--status', 'new value', STATUS_FILTERS.orders, {
        operation: 'listOrders',
        param: 'status',
      });
    expect(refused).toThrow(UsageError);
    expect(refused).toThrow(
      /valid: awaiting_payment, .*partially_refunded\); `svc api GET \/orders -f status='new value'`/,
    );
  });
});
