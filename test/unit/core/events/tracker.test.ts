import { describe, expect, it } from 'vitest';
import type { RawEvent } from '../../../../src/client/resources/events.js';
import { EventTracker, oldestFirst } from '../../../../src/core/events/tracker.js';

function event(id: string, createdAt: string): RawEvent {
  return { id, object: 'event', type: 'order.created', created_at: createdAt, data: { object: {} } };
}

describe('oldestFirst', () => {
  it('sorts by created_at then id and drops repeated ids', () => {
    const sorted = oldestFirst([
      event('evt_c', '2026-11-01T09:00:01.000Z'),
      event('evt_b', '2026-11-01T09:00:00.000Z'),
      event('evt_a', '2026-11-01T09:00:00.000Z'),
      event('evt_b', '2026-11-01T09:00:00.000Z'),
    ]);
    expect(sorted.map((e) => e.id)).toEqual(['evt_a', 'evt_b', 'evt_c']);
  });
});

describe('EventTracker', () => {
  it('asks from --since, then from the newest handled event minus the lookback, never before --since', () => {
    const tracker = new EventTracker('2026-11-01T09:00:00.000Z', 10_000);
    expect(tracker.createdAfter()).toBe('2026-11-01T09:00:00.000Z');
    tracker.done(event('evt_1', '2026-11-01T09:00:05.000Z'));
    expect(tracker.createdAfter()).toBe('2026-11-01T09:00:00.000Z');
    tracker.done(event('evt_2', '2026-11-01T09:01:00.000Z'));
    expect(tracker.createdAfter()).toBe('2026-11-01T09:00:50.000Z');
  });

  it('hands out each event once across polls, including events that share a timestamp', () => {
    const tracker = new EventTracker(undefined, 10_000);
    const at = '2026-11-01T09:00:00.000Z';
    const first = tracker.fresh([event('evt_b', at)]);
    expect(first.map((e) => e.id)).toEqual(['evt_b']);
    tracker.done(first[0]);
    // The next poll returns the same timestamp again (created_after is inclusive) plus newcomers.
    const second = tracker.fresh([event('evt_c', at), event('evt_b', at), event('evt_a', at)]);
    expect(second.map((e) => e.id)).toEqual(['evt_a', 'evt_c']);
  });

  it('keeps an event that was not marked done (receiver down) for the next poll', () => {
    const tracker = new EventTracker(undefined, 10_000);
    const waiting = event('evt_1', '2026-11-01T09:00:00.000Z');
    expect(tracker.fresh([waiting])).toHaveLength(1);
    expect(tracker.fresh([waiting])).toHaveLength(1);
  });

  it('forgets ids older than the lookback window, which no poll can return', () => {
    const tracker = new EventTracker(undefined, 10_000);
    tracker.done(event('evt_old', '2026-11-01T09:00:00.000Z'));
    tracker.done(event('evt_near', '2026-11-01T09:00:55.000Z'));
    tracker.done(event('evt_new', '2026-11-01T09:01:00.000Z'));
    expect(tracker.has('evt_old')).toBe(false);
    expect(tracker.has('evt_near')).toBe(true);
    expect(tracker.size).toBe(2);
  });
});
