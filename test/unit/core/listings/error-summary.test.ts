import { describe, expect, it } from 'vitest';
import type { Listing } from '../../../../src/contract/schemas/listing.js';
import { ErrorSummary, NO_CODE, UNKNOWN_CHANNEL } from '../../../../src/core/listings/error-summary.js';

let counter = 0;
function listing(account: string, channel: string | null, codes: string[], updatedAt: string): Listing {
  return {
    id: `lst_${++counter}`,
    object: 'listing',
    product_id: 'prod_1',
    channel_account_id: account,
    channel,
    status: 'error',
    issues: codes.map((code) => ({ code, severity: 'error', message: code })),
    updated_at: updatedAt,
  } as Listing;
}

describe('ErrorSummary', () => {
  it('counts a listing once under each distinct code, by channel kind, most first, with oldest and newest', () => {
    const summary = new ErrorSummary();
    summary.add(listing('chac_e1', 'etsy', ['photo_required_for_channel'], '2026-01-02T00:00:00.000Z'));
    summary.add(listing('chac_e2', 'etsy', ['photo_required_for_channel'], '2026-01-05T00:00:00.000Z'));
    summary.add(
      listing(
        'chac_b1',
        'ebay',
        ['category_invalid', 'category_invalid', 'title_too_long'],
        '2026-01-03T00:00:00.000Z',
      ),
    );
    summary.add(listing('chac_e1', 'etsy', [], '2026-01-04T00:00:00.000Z'));
    expect(summary.listings).toBe(4);
    expect(summary.groups(false)).toEqual([
      {
        error_code: 'photo_required_for_channel',
        channel: 'etsy',
        listings: 2,
        oldest_updated_at: '2026-01-02T00:00:00.000Z',
        newest_updated_at: '2026-01-05T00:00:00.000Z',
        retry: 'svc listings retry --error-code photo_required_for_channel --channel etsy',
      },
      expect.objectContaining({ error_code: NO_CODE, channel: 'etsy', listings: 1, retry: '' }),
      expect.objectContaining({ error_code: 'category_invalid', channel: 'ebay', listings: 1 }),
      expect.objectContaining({ error_code: 'title_too_long', channel: 'ebay', listings: 1 }),
    ]);
    const byAccount = summary.groups(true);
    expect(byAccount.filter((g) => g.error_code === 'photo_required_for_channel')).toEqual([
      expect.objectContaining({
        channel_account_id: 'chac_e1',
        listings: 1,
        retry:
          'svc listings retry --error-code photo_required_for_channel --channel etsy --channel-account chac_e1',
      }),
      expect.objectContaining({ channel_account_id: 'chac_e2', listings: 1 }),
    ]);
  });

  it('asks for the kinds its listings did not say, and quotes what a shell would split', () => {
    const summary = new ErrorSummary();
    summary.add(listing('chac_x', null, ["it's broken"], '2026-01-01T00:00:00.000Z'));
    expect(summary.accountsWithoutKind()).toEqual(['chac_x']);
    expect(summary.groups(false)[0]).toMatchObject({
      channel: UNKNOWN_CHANNEL,
      retry: `svc listings retry --error-code 'it'\\''s broken'`,
    });
    expect(summary.groups(false, new Map([['chac_x', 'amazon']]))[0]).toMatchObject({
      channel: 'amazon',
      retry: `svc listings retry --error-code 'it'\\''s broken' --channel amazon`,
    });
  });
});
