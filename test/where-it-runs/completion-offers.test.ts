/**
 * Completion offers only what a command accepts: in bash, zsh and fish, the flags offered
 * after `svc PATH -` are flags the command's help lists (the flags it takes), so a completed
 * flag is never refused with exit 2 (fish used to offer --limit for inventory push).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const COMMANDS = ['inventory push', 'orders list', 'orders get', 'webhooks verify', 'api', 'completion'];
const scratch = () => tempDir('svc-completion-offers-');

/** Whether `shell` runs here (CI installs zsh and fish, and fails rather than skip). */
function installed(shell: string): boolean {
  const found = spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
  if (!found && (process.env.CI === 'true' || process.env.CI === '1'))
    throw new Error(`${shell} is not installed`);
  return found;
}

/** The flags `svc PATH --help` lists: its own and the global ones it takes. */
const accepted = new Map<string, Set<string>>();

beforeAll(async () => {
  for (const path of COMMANDS) {
    const help = await runSvc([...path.split(' '), '--help']);
    expect(help.code, help.stderr).toBe(0);
    const flags = new Set<string>();
    for (const match of help.stdout.matchAll(/^ {2}(?:(-\w), )?(--[\w-]+)/gm)) {
      if (match[1]) flags.add(match[1]);
      if (match[2]) flags.add(match[2]);
    }
    accepted.set(path, flags);
  }
});

/** The script `svc completion SHELL` prints, saved to be sourced; removed after the test. */
async function script(shell: string): Promise<string> {
  const result = await runSvc(['completion', shell]);
  expect(result.code, result.stderr).toBe(0);
  const path = join(scratch(), `svc.${shell}`);
  writeFileSync(path, result.stdout);
  return path;
}

function lines(shell: string, args: string[]): string[] {
  const result = spawnSync(shell, args, { encoding: 'utf8', timeout: 20_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

/** Checks what a shell offers after `svc PATH -` against the command's help. */
function expectOnlyAccepted(offered: (path: string) => string[]): void {
  for (const path of COMMANDS) {
    const flags = offered(path).filter((flag) => flag.startsWith('-'));
    expect(flags.length, path).toBeGreaterThan(0);
    const refused = flags.filter((flag) => !accepted.get(path)?.has(flag));
    expect(refused, `svc ${path} offers flags it refuses`).toEqual([]);
  }
  expect(offered('orders list')).toContain('--limit');
  expect(offered('inventory push')).not.toContain('--limit');
}

describe('completion offers only flags the command takes', () => {
  it('bash', async () => {
    const saved = await script('bash');
    expectOnlyAccepted((path) =>
      lines('bash', [
        '-c',
        [
          `source ${saved}`,
          `COMP_WORDS=(svc ${path} -); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))`,
          '_svc',
          `printf '%s\\n' "\${COMPREPLY[@]}"`,
        ].join('\n'),
      ]),
    );
  });

  it.skipIf(!installed('zsh'))('zsh (installed)', async () => {
    const saved = await script('zsh');
    expectOnlyAccepted((path) =>
      lines('zsh', [
        '-f',
        '-c',
        [
          'compdef() { :; }',
          `source ${saved}`,
          `_describe() { print -rl -- "\${(@P)\${@[-1]}}"; }`,
          `words=(svc ${path} -); CURRENT=$#words; _svc`,
        ].join('\n'),
      ]).map((entry) => entry.split(':')[0] ?? ''),
    );
  });

  it.skipIf(!installed('fish'))('fish (installed)', async () => {
    const saved = await script('fish');
    expectOnlyAccepted((path) =>
      lines('fish', ['-c', `source ${saved}; complete -C 'svc ${path} -'`]).map(
        (entry) => entry.split('\t')[0] ?? '',
      ),
    );
  });
});

describe("-o's help", () => {
  it('says what a command with a format of its own writes', async () => {
    const help = await runSvc(['inventory', 'export', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(
      /-o, --output <format> +table, json, ndjson, csv or tsv; without it: csv whatever the terminal/,
    );
    const list = await runSvc(['orders', 'list', '--help']);
    expect(list.stdout.replace(/\s+/g, ' ')).toMatch(
      /-o, --output <format> +table, json, ndjson, csv or tsv \(default: table on a terminal, tsv when piped\)/,
    );
  });
});
