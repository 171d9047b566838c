// The small files svc rewrites on every request (the pacing record, the quota count): changed
// under their lock and overwritten in place, never replaced (a replaced file makes ext4 flush).
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockedFile } from '../../../src/config/locked-file.js';
import { tempDir } from '../../helpers/temp-dir.js';

function lockedIn(dir: string): LockedFile {
  return new LockedFile(join(dir, 'count.json'), join(dir, 'count.lock'));
}

describe('LockedFile', () => {
  it('makes the file 0600, rewrites it in place, and a shorter text leaves nothing of the longer', async () => {
    const dir = tempDir('svc-locked-');
    const file = lockedIn(dir);
    expect(await file.update((text) => ({ text: 'a long first text', result: text }))).toBe('');
    const made = statSync(file.path);
    expect(made.mode & 0o777).toBe(0o600);
    expect(await file.update((text) => ({ text: 'short', result: text }))).toBe('a long first text');
    expect(readFileSync(file.path, 'utf8')).toBe('short');
    expect(statSync(file.path).ino).toBe(made.ino);
    expect(existsSync(join(dir, 'count.lock'))).toBe(false);
  });

  it('leaves the file as it was when a change writes nothing', async () => {
    const file = lockedIn(tempDir('svc-locked-'));
    await file.update(() => ({ text: '{"spent":3}', result: undefined }));
    expect(await file.update((text) => ({ result: text.length }))).toBe(11);
    expect(await file.read()).toBe('{"spent":3}');
  });

  it('takes a file another made readable to others back to 0600', async () => {
    const dir = tempDir('svc-locked-');
    const file = lockedIn(dir);
    writeFileSync(file.path, 'x');
    chmodSync(file.path, 0o644);
    await file.update((text) => ({ text: `${text}y`, result: undefined }));
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(file.path, 'utf8')).toBe('xy');
  });

  it('reads nothing, and makes nothing, where no file or folder is yet', async () => {
    const dir = join(tempDir('svc-locked-'), 'not-yet');
    expect(await lockedIn(dir).read()).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
  });

  it('counts every change of several writers at once exactly once', async () => {
    const dir = tempDir('svc-locked-');
    const writers = Array.from({ length: 4 }, () => lockedIn(dir));
    const add = (file: LockedFile) =>
      file.update((text) => ({ text: String(Number(text || '0') + 1), result: undefined }));
    await Promise.all(writers.flatMap((file) => Array.from({ length: 25 }, () => add(file))));
    expect(await writers[0]?.read()).toBe('100');
  });
});
