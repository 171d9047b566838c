import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../../src/contract/schemas/operation.js';
import { endOfFollow, type Followed, operationFailure } from '../../../../src/core/operations/follow.js';
import { PartialFailure, StillPending } from '../../../../src/errors.js';

const operation = (id: string, status: string, results: string[] = []): Operation =>
  ({
    id,
    object: 'operation',
    status,
    created_at: '2026-11-01T09:00:00.000Z',
    results: results.map((result) => ({ status: result })),
  }) as Operation;

function followed(operations: Operation[]): Followed {
  const terminal = ['succeeded', 'partial', 'failed'];
  return {
    operations,
    pending: operations.filter((op) => !terminal.includes(op.status)),
    failed: operations.filter((op) => op.status === 'partial' || op.status === 'failed'),
    timeoutSeconds: 30,
  };
}

describe('endOfFollow: one mapping from how a follow ended to the exit', () => {
  it('pending at the timeout is exit 8, before any failure: failures are not final yet', () => {
    const end = () =>
      endOfFollow(followed([operation('op_1', 'processing'), operation('op_2', 'failed')]), { message: 'x' });
    expect(end).toThrow(StillPending);
    expect(end).toThrow('1 of 2 operations still pending after 30 s; `svc operations wait op_1`');
  });

  it('one operation still pending names it and how to keep waiting', () => {
    expect(() => endOfFollow(followed([operation('op_1', 'pending')]))).toThrow(
      'op_1 is still pending after 30 s; run `svc operations wait op_1` again to keep waiting',
    );
  });

  it('a failure the follower words is exit 3; nothing to say is the end of it', () => {
    const done = followed([operation('op_1', 'succeeded')]);
    expect(() => endOfFollow(done, { message: '2 SKUs refused', details: ['line 2: A'] })).toThrow(
      PartialFailure,
    );
    expect(() => endOfFollow(done)).not.toThrow();
  });

  it('operationFailure counts the failed channel results of an operation that ended partial', () => {
    const ended = followed([operation('op_1', 'partial', ['succeeded', 'failed', 'failed'])]);
    expect(operationFailure(ended)?.message).toBe('op_1 ended partial: 2 of 3 channel results failed');
    expect(operationFailure(followed([operation('op_1', 'succeeded')]))).toBeUndefined();
  });
});
