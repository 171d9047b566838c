/**
 * The command reference (docs/commands/*.md, man/svc.1) is what the command tree generates,
 * as completions are: a command or flag changed without `npm run docs` fails here.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/svc.js';

const ROOT = join(import.meta.dirname, '..', '..');
const STALE = 'is out of date with the commands: run `npm run docs` and commit docs/commands/ and man/';

/** What `svc __docs` generates: file path in the repository to its content. */
let generated: Record<string, string>;

beforeAll(async () => {
  const result = await runSvc(['__docs'], { env: { COLUMNS: '80' } });
  expect(result.code, result.stderr).toBe(0);
  generated = JSON.parse(result.stdout) as Record<string, string>;
});

describe('command reference', () => {
  it('docs/commands/ holds exactly the pages the command tree generates', () => {
    const committed = readdirSync(join(ROOT, 'docs', 'commands')).map((name) => `docs/commands/${name}`);
    const pages = Object.keys(generated).filter((path) => path.startsWith('docs/commands/'));
    expect(committed.sort(), `docs/commands/ ${STALE}`).toEqual(pages.sort());
    expect(pages).toEqual(expect.arrayContaining(['docs/commands/README.md', 'docs/commands/orders.md']));
  });

  it('each committed page and man/svc.1 match what the command tree generates', () => {
    const stale = Object.entries(generated)
      .filter(([path, text]) => readFileSync(join(ROOT, path), 'utf8') !== text)
      .map(([path]) => path);
    expect(stale, `${stale.join(', ')} ${STALE}`).toEqual([]);
  });

  it('the index links every page, and every page documents its commands with examples', () => {
    const index = generated['docs/commands/README.md'] ?? '';
    for (const path of Object.keys(generated)) {
      const page = path.replace('docs/commands/', '');
      if (path.startsWith('docs/commands/') && page !== 'README.md') expect(index).toContain(`](${page})`);
    }
    const orders = generated['docs/commands/orders.md'] ?? '';
    expect(orders).toContain('## svc orders list');
    expect(orders).toContain('| `--status <status>` |');
    expect(orders).toContain('svc orders list --since-last accounting -o csv');
    expect(generated['docs/commands/inventory.md']).toContain(
      '| `--timeout <s>` | with --wait: give up after S seconds, then exit 8 | `300` |',
    );
  });

  it('holds nothing of the machine or the day it was made on', () => {
    const text = Object.values(generated).join('\n');
    expect(text).not.toContain(ROOT);
    expect(text).not.toMatch(/\b20\d\d-\d\d-\d\d\b(?!T)/);
  });

  it('man -l renders the man page without a warning', () => {
    const man = spawnSync('man', ['-l', join(ROOT, 'man', 'svc.1')], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' },
    });
    if (man.error) return; // man is not installed here
    expect(man.stderr).toBe('');
    expect(man.status).toBe(0);
    expect(man.stdout).toMatch(/^SVC\(1\)/);
    expect(man.stdout).toContain('svc orders list [options]');
    expect(man.stdout).toContain('--since-last <name>');
  });
});
