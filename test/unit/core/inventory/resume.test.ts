import { describe, expect, it } from 'vitest';
import type { Journal, JournalLookup } from '../../../../src/config/journal.js';
import { decideResume, type ResumeRequest } from '../../../../src/core/inventory/resume.js';
import { UsageError } from '../../../../src/errors.js';

const journal = (data: Partial<Journal['data']>): Journal =>
  ({
    data: {
      map: null,
      encoding: 'utf-8',
      total_batches: 10,
      batch_size: 100,
      updated_at: '2026-11-01T09:00:00Z',
      ...data,
    },
    confirmedCount: 4,
  }) as unknown as Journal;

const found = (data: Partial<Journal['data']> = {}): JournalLookup => ({
  state: 'found',
  journal: journal(data),
});
const damaged: JournalLookup = { state: 'damaged', file: '/c/journals/x.json', problem: 'batch_size 0' };
const none: JournalLookup = { state: 'none' };

function request(overrides: Partial<ResumeRequest> = {}): ResumeRequest {
  return {
    resume: true,
    path: 'stock.csv',
    map: null,
    encoding: 'utf-8',
    changedSince: () => [],
    ...overrides,
  };
}

describe('decideResume (inventory push --resume)', () => {
  it('resumes the journal found when the file is read the same way, saying how far it got', () => {
    const decision = decideResume(found(), request());
    expect(decision.journal).toBeDefined();
    expect(decision.info).toBe('Resuming: 4 of 10 batches (of 100) were confirmed on 2026-11-01T09:00:00Z.');
  });

  it('refuses a resume with another --map or --encoding, and a damaged journal (exit 2)', () => {
    expect(() => decideResume(found({ map: 'sku=Item' }), request())).toThrow(
      /with --map sku=Item, this run with no --map/,
    );
    expect(() => decideResume(found({ encoding: 'latin1' }), request())).toThrow(
      /resume with --encoding latin1/,
    );
    expect(() => decideResume(damaged, request())).toThrow(UsageError);
  });

  it('with nothing to resume pushes the whole file, saying whether the file changed since', () => {
    expect(decideResume(none, request()).info).toBe(
      'No interrupted push of stock.csv to resume; pushing the whole file.',
    );
    const changed = decideResume(
      none,
      request({ changedSince: () => [{ updated_at: '2026-11-01T08:00:00Z' }] }),
    );
    expect(changed).toEqual({
      info: 'stock.csv changed since the interrupted push of 2026-11-01T08:00:00Z; pushing the whole file.',
    });
  });

  it('without --resume starts over, warning when a journal (even a damaged one) is replaced', () => {
    expect(decideResume(found(), request({ resume: false })).warning).toMatch(
      /exists \(4 of 10 batches confirmed\); starting over/,
    );
    expect(decideResume(damaged, request({ resume: false })).warning).toMatch(
      /is damaged \(batch_size 0\); starting over/,
    );
    expect(decideResume(none, request({ resume: false }))).toEqual({});
  });

  it('--changed-only resumes only a changed-only journal (and the reverse), and says how many rows it selected', () => {
    const selected = found({ selection: { rows: 370, sha256: 'ab' } });
    expect(decideResume(selected, request({ changedOnly: true })).info).toBe(
      'Resuming: 4 of 10 batches (of 100) of the 370 rows that differed were confirmed on 2026-11-01T09:00:00Z.',
    );
    expect(() => decideResume(selected, request())).toThrow(
      /sent only the rows that differed \(--changed-only\); resume with --changed-only/,
    );
    expect(() => decideResume(found(), request({ changedOnly: true }))).toThrow(
      /sent every row; resume without --changed-only/,
    );
    expect(decideResume(none, request({ changedOnly: true })).info).toBe(
      'No interrupted push of stock.csv to resume; pushing the rows that differ from the store.',
    );
  });
});
