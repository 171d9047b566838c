import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  integerFlag,
  parseTime,
  positiveNumberFlag,
  secondsFlag,
  timeFlag,
} from '../../../src/cmdutil/parse.js';

const NOW = Date.parse('2026-11-10T12:00:00.000Z');

describe('integerFlag', () => {
  const limit = integerFlag('--limit', 1);
  const retries = integerFlag('--max-retries', 0, 100);

  it('accepts whole numbers within bounds', () => {
    expect(limit('1')).toBe(1);
    expect(limit('250')).toBe(250);
    expect(limit(' 7 ')).toBe(7);
    expect(retries('0')).toBe(0);
    expect(retries('100')).toBe(100);
  });

  it.each(['0', '-1', '1.5', 'abc', '', ' ', '1e3', '0x10', '+3'])('rejects %j for --limit', (raw) => {
    expect(() => limit(raw)).toThrow(InvalidArgumentError);
  });

  it('rejects values above the maximum', () => {
    expect(() => retries('101')).toThrow(InvalidArgumentError);
  });

  it('names the flag, the range and an example in its message', () => {
    expect(() => limit('x')).toThrow('--limit takes a whole number at least 1, e.g. --limit 1');
    expect(() => retries('-1')).toThrow(
      '--max-retries takes a whole number from 0 to 100, e.g. --max-retries 1',
    );
  });
});

describe('positiveNumberFlag', () => {
  const rate = positiveNumberFlag('--rate');

  it('accepts positive integers and decimals', () => {
    expect(rate('4')).toBe(4);
    expect(rate('0.5')).toBe(0.5);
  });

  it.each(['0', '-1', '', '  ', 'abc', 'Infinity', 'NaN'])('rejects %j', (raw) => {
    expect(() => rate(raw)).toThrow(InvalidArgumentError);
  });

  it('names the flag in its message', () => {
    expect(() => rate('0')).toThrow('--rate takes a positive number, e.g. --rate 4');
  });
});

describe('secondsFlag', () => {
  const deadline = secondsFlag('--request-timeout');
  const interval = secondsFlag('--interval', 0.1);

  it('accepts seconds above the floor up to a day', () => {
    expect(deadline('0.5')).toBe(0.5);
    expect(deadline('86400')).toBe(86_400);
    expect(interval('0.1')).toBe(0.1);
  });

  it.each(['0', '-1', '', 'soon', 'Infinity', '86401', '1e9'])('rejects %j', (raw) => {
    expect(() => deadline(raw)).toThrow(InvalidArgumentError);
  });

  it('rejects a value under its floor, naming the range', () => {
    expect(() => interval('0.0001')).toThrow(
      '--interval takes a number of seconds from 0.1 up to 86400, e.g. --interval 4',
    );
    expect(() => deadline('0')).toThrow('--request-timeout takes a number of seconds above 0 up to 86400');
  });
});

describe('parseTime', () => {
  it('treats ISO times without an offset as UTC', () => {
    expect(parseTime('2026-11-01T09:00:00', NOW)).toBe('2026-11-01T09:00:00.000Z');
    expect(parseTime('2026-11-01T09:00', NOW)).toBe('2026-11-01T09:00:00.000Z');
    expect(parseTime('2026-11-01 09:00:00', NOW)).toBe('2026-11-01T09:00:00.000Z');
    expect(parseTime('2026-11-01T09:00:00.250', NOW)).toBe('2026-11-01T09:00:00.250Z');
  });

  it('applies an explicit offset', () => {
    expect(parseTime('2026-11-01T09:00:00Z', NOW)).toBe('2026-11-01T09:00:00.000Z');
    expect(parseTime('2026-11-01T09:00:00+02:00', NOW)).toBe('2026-11-01T07:00:00.000Z');
    expect(parseTime('2026-11-01T09:00:00-05:30', NOW)).toBe('2026-11-01T14:30:00.000Z');
    expect(parseTime('2026-11-01T09:00:00+0200', NOW)).toBe('2026-11-01T07:00:00.000Z');
  });

  it('reads a date alone as midnight UTC', () => {
    expect(parseTime('2026-11-01', NOW)).toBe('2026-11-01T00:00:00.000Z');
  });

  it('ignores surrounding whitespace', () => {
    expect(parseTime('  2026-11-01  ', NOW)).toBe('2026-11-01T00:00:00.000Z');
    expect(parseTime(' 7d ', NOW)).toBe('2026-11-03T12:00:00.000Z');
  });

  it.each([
    ['90s', '2026-11-10T11:58:30.000Z'],
    ['15m', '2026-11-10T11:45:00.000Z'],
    ['24h', '2026-11-09T12:00:00.000Z'],
    ['7d', '2026-11-03T12:00:00.000Z'],
    ['2w', '2026-10-27T12:00:00.000Z'],
    ['0s', '2026-11-10T12:00:00.000Z'],
  ])('reads the duration %s back from now', (raw, expected) => {
    expect(parseTime(raw, NOW)).toBe(expected);
  });

  it('reads today and yesterday as UTC midnight under --time utc, across a month and a year', () => {
    expect(parseTime('today', NOW, '--since', 'utc')).toBe('2026-11-10T00:00:00.000Z');
    expect(parseTime('Yesterday', NOW, '--since', 'utc')).toBe('2026-11-09T00:00:00.000Z');
    const newYear = Date.parse('2027-01-01T00:30:00.000Z');
    expect(parseTime('yesterday', newYear, '--since', 'utc')).toBe('2026-12-31T00:00:00.000Z');
  });

  it('reads today as midnight in the machine zone by default', () => {
    const local = new Date(NOW);
    const expected = new Date(local.getFullYear(), local.getMonth(), local.getDate()).toISOString();
    expect(parseTime('today', NOW)).toBe(expected);
  });

  it.each([
    'tomorrow',
    'last week',
    '',
    '1y',
    '-5m',
    '1.5h',
    '24H',
    '7 d',
    '2026-13-01',
    '2026-11-01T25:00:00Z',
    '2026-11-1',
    '11/01/2026',
    '2026-02-30',
    '2026-04-31T00:00:00Z',
  ])('rejects %j with a message naming the flag', (raw) => {
    expect(() => parseTime(raw, NOW, '--since')).toThrow(InvalidArgumentError);
    expect(() => parseTime(raw, NOW, '--since')).toThrow(
      /^--since takes an ISO 8601 time .* today, yesterday; got "/,
    );
  });

  it('accepts the last day of a month, including 29 February of a leap year', () => {
    expect(parseTime('2028-02-29', NOW)).toBe('2028-02-29T00:00:00.000Z');
    expect(parseTime('2026-04-30T23:59:59Z', NOW)).toBe('2026-04-30T23:59:59.000Z');
    expect(() => parseTime('2026-02-29', NOW)).toThrow(InvalidArgumentError);
  });

  it('quotes what it got', () => {
    expect(() => parseTime('soon', NOW, '--updated-after')).toThrow('got "soon"');
  });
});

describe('timeFlag', () => {
  it('reads durations against the injected clock', () => {
    const parse = timeFlag('--created-after', () => NOW);
    expect(parse('1h')).toBe('2026-11-10T11:00:00.000Z');
  });

  it('names its flag when rejecting', () => {
    const parse = timeFlag('--created-after', () => NOW);
    expect(() => parse('later')).toThrow(/^--created-after takes/);
  });
});
