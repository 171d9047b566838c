import { describe, expect, it } from 'vitest';
import { DueQueue } from '../../../../src/emulator/sim/due-queue.js';

describe('DueQueue', () => {
  it('pops only due items, earliest first, arrival order breaking ties', () => {
    const queue = new DueQueue<{ dueMs: number; seq: number; name: string }>();
    const pushed = [
      { dueMs: 30, seq: 0, name: 'c' },
      { dueMs: 10, seq: 1, name: 'a' },
      { dueMs: 20, seq: 2, name: 'b1' },
      { dueMs: 20, seq: 3, name: 'b2' },
      { dueMs: 50, seq: 4, name: 'late' },
    ];
    for (const item of pushed) queue.push(item);
    const popped: string[] = [];
    for (let item = queue.popDue(30); item; item = queue.popDue(30)) popped.push(item.name);
    expect(popped).toEqual(['a', 'b1', 'b2', 'c']);
    expect(queue.size).toBe(1);
    expect(queue.popDue(49)).toBeUndefined();
    expect(queue.popDue(50)?.name).toBe('late');
  });

  it('agrees with a sort over many random items, including items pushed while popping', () => {
    const queue = new DueQueue<{ dueMs: number; seq: number }>();
    let seq = 0;
    let state = 7;
    const random = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const all: { dueMs: number; seq: number }[] = [];
    for (let i = 0; i < 500; i++) {
      const item = { dueMs: Math.floor(random() * 100), seq: seq++ };
      all.push(item);
      queue.push(item);
    }
    const out: { dueMs: number; seq: number }[] = [];
    for (let item = queue.popDue(1000); item; item = queue.popDue(1000)) {
      out.push(item);
      if (out.length % 50 === 0) {
        const extra = { dueMs: item.dueMs + 1, seq: seq++ };
        all.push(extra);
        queue.push(extra);
      }
    }
    const ordered = [...out].sort((a, b) => a.dueMs - b.dueMs || a.seq - b.seq);
    expect(out).toEqual(ordered);
    expect(out).toHaveLength(all.length);
  });
});
