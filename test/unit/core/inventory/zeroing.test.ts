import { describe, expect, it } from 'vitest';
import {
  describeZeroing,
  exactZeroingRisk,
  fileZeroingRisk,
  ZEROING_MIN_ROWS,
} from '../../../../src/core/inventory/zeroing.js';

describe('the zeroing guard', () => {
  it('trips above 20% of the SKUs covered, not at 20%', () => {
    expect(exactZeroingRisk(21, 100)).toEqual({ zeroed: 21, of: 100, exact: true });
    expect(exactZeroingRisk(20, 100)).toBeUndefined();
    expect(fileZeroingRisk(2001, 10_000)).toEqual({ zeroed: 2001, of: 10_000, exact: false });
    expect(fileZeroingRisk(0, 10_000)).toBeUndefined();
  });

  it('judged on the file, leaves files of fewer than 50 rows alone; counted from a read, any size trips', () => {
    expect(ZEROING_MIN_ROWS).toBe(50);
    expect(fileZeroingRisk(49, 49)).toBeUndefined();
    expect(fileZeroingRisk(50, 50)).toBeDefined();
    expect(exactZeroingRisk(20, 32)).toEqual({ zeroed: 20, of: 32, exact: true });
    expect(exactZeroingRisk(1, 10)).toBeUndefined();
    expect(exactZeroingRisk(0, 0)).toBeUndefined();
  });

  it('says the count, the share and whether it was counted or judged on the file', () => {
    expect(describeZeroing({ zeroed: 412, of: 1000, exact: true })).toBe(
      'this push would set 412 of 1,000 SKUs (41%) to quantity 0, more than 20%',
    );
    expect(describeZeroing({ zeroed: 77, of: 200, exact: false })).toBe(
      '77 of 200 rows of the file (39%) set quantity 0, more than 20%',
    );
  });
});
