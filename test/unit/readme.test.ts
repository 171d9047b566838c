/**
 * The README is the first ten minutes, one page: its two commands first, exactly, then what
 * they do, logging in against the emulator, the morning list, a push with --dry-run, and where
 * to read more. The long reference lives in docs/guide.md, which the README links.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README', () => {
  it('opens with the two commands, exactly as they were', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
    const commands = firstBlock
      .trim()
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, ''));
    expect(commands).toEqual(['npm ci && npm run demo', 'npm ci && npm test']);
    expect(README.indexOf('```sh')).toBeLessThan(README.indexOf('\n## '));
  });

  it('is one page: the first ten minutes, in order, then where to read more', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(120);
    const start = README.search(/^## .*first ten minutes/im);
    expect(start).toBeGreaterThan(0);
    const page = README.slice(start);
    const steps = [
      /npm run demo/,
      /svc emulator start/,
      /auth login/,
      /orders list --status awaiting_shipment/,
      /inventory push \S+ --dry-run/,
      /\(docs\/guide\.md\)/,
    ].map((pattern) => page.search(pattern));
    for (const at of steps) expect(at).toBeGreaterThan(-1);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
  });

  it('links the guide, which holds the reference that left it', () => {
    const guide = join(ROOT, 'docs', 'guide.md');
    expect(existsSync(guide)).toBe(true);
    const text = readFileSync(guide, 'utf8');
    for (const section of [
      'Global options',
      'Environment',
      'Exit codes',
      'Output',
      'Errors for scripts',
      'Input files',
    ])
      expect(text, section).toMatch(new RegExp(`^## ${section}$`, 'm'));
    expect(README).not.toMatch(/^## (Global options|Exit codes|Errors for scripts)$/m);
  });
});
