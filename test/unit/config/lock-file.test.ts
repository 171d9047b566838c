/** svc's one kind of lock on disk (journals and shared pacing): made exclusively, broken one way. */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockFile } from '../../../src/config/lock-file.js';
import { tempDir } from '../../helpers/temp-dir.js';

function freshLock(): LockFile {
  return new LockFile(join(tempDir('svc-lock-'), 'a.lock'));
}

describe('a lock file', () => {
  it('is made once, 0600, holding what its holder wrote', () => {
    const lock = freshLock();
    expect(lock.create('111 1 1')).toBe(true);
    expect(lock.create('222 2 2')).toBe(false);
    expect(readFileSync(lock.path, 'utf8')).toBe('111 1 1');
    expect(statSync(lock.path).mode & 0o777).toBe(0o600);
    expect(lock.find()).toEqual({ content: '111 1 1', modifiedAt: expect.any(Number) });
  });

  it('is found as nothing once gone', () => {
    const lock = freshLock();
    expect(lock.find()).toBeUndefined();
    lock.create('x');
    lock.remove();
    expect(lock.find()).toBeUndefined();
  });

  it('is removed only while it holds what was seen, leaving nothing set aside', () => {
    const lock = freshLock();
    lock.create('stale holder');
    expect(lock.removeIf('stale holder')).toBe(true);
    expect(existsSync(lock.path)).toBe(false);
    // Gone already (another process broke it first): taking it may be tried again.
    expect(lock.removeIf('stale holder')).toBe(true);
    expect(readdirSync(join(lock.path, '..'))).toEqual([]);
  });

  it('keeps the fresh lock that replaced a stale one between the look and the break', () => {
    const lock = freshLock();
    lock.create('dead holder');
    const seen = lock.find();
    // Meanwhile another process broke the stale lock and took it.
    lock.remove();
    lock.create('live holder');
    expect(lock.removeIf(seen?.content ?? '')).toBe(true);
    expect(readFileSync(lock.path, 'utf8')).toBe('live holder');
    expect(readdirSync(join(lock.path, '..'))).toEqual(['a.lock']);
  });

  it('of two processes that judge one lock stale, only the first breaks it', () => {
    const lock = freshLock();
    lock.create('dead holder');
    const first = lock.find()?.content ?? '';
    const second = lock.find()?.content ?? '';
    expect(lock.removeIf(first)).toBe(true);
    expect(lock.create('first breaker')).toBe(true);
    // The second acts on what it saw before: the first breaker's lock stays.
    lock.removeIf(second);
    expect(lock.create('second breaker')).toBe(false);
    expect(readFileSync(lock.path, 'utf8')).toBe('first breaker');
  });

  it('an empty one is found by its age alone; one that cannot be read says why', () => {
    const lock = freshLock();
    writeFileSync(lock.path, '');
    expect(lock.find()).toEqual({ content: '', modifiedAt: statSync(lock.path).mtimeMs });
    lock.remove();
    mkdirSync(lock.path);
    expect(lock.find()).toMatchObject({ content: '', unreadable: { code: 'EISDIR' } });
  });
});
