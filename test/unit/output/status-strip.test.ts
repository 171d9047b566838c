import { describe, expect, it } from 'vitest';
import { statusHistory, statusStrip, worstIncidents } from '../../../src/output/status-strip.js';

const at = (i: number) => new Date(Date.UTC(2026, 10, 20) + i * 30 * 60_000).toISOString();
const buckets = (ratios: number[]) => ratios.map((up_ratio, i) => ({ t: at(i), up_ratio }));

describe('the status strip', () => {
  it('draws a character per bucket: full up, half degraded, low down', () => {
    expect(statusStrip(buckets([1, 0.95, 0.5, 1]), 80, false).text).toBe('█▄▁█');
  });

  it('fits the width, each character the worst of its buckets', () => {
    expect(statusStrip(buckets([1, 1, 1, 0.5, 1, 1]), 3, false).text).toBe('█▁█');
  });

  it('colours the states on a terminal', () => {
    expect(statusStrip(buckets([1, 0.5]), 80, true).text).toBe('\u001b[32m█\u001b[0m\u001b[31m▁\u001b[0m');
  });

  it('lists the worst incidents, runs of buckets below up, lowest first', () => {
    const incidents = worstIncidents(buckets([1, 0.97, 0.96, 1, 0.6, 1, 0.99]), 2);
    expect(incidents).toEqual([
      { start: at(4), end: at(5), lowest: 0.6, buckets: 1 },
      { start: at(1), end: at(3), lowest: 0.96, buckets: 2 },
    ]);
    const lines = statusHistory(buckets([1, 0.97, 0.96, 1, 0.6, 1, 0.99]), 60, false);
    expect(lines).toContain('worst incidents');
    expect(lines).toContain('  2026-11-20 02:00–02:30 UTC  lowest 60.0% up, 1 half-hour');
  });
});
