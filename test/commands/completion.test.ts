/**
 * `svc completion`: the committed scripts are what the command tree generates, and each shell
 * that is installed loads its script and completes commands, statuses and profile names.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, LISTING_STATUSES, ORDER_STATUSES } from '../../src/contract/contract.js';
import { freshConfigDir, runSvc, SVC_BIN } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const COMPLETIONS = join(import.meta.dirname, '..', '..', 'completions');
const FILES = { bash: 'svc.bash', zsh: '_svc', fish: 'svc.fish' } as const;

/**
 * Whether `shell` can be run here. A workstation may lack zsh or fish and skip their tests;
 * CI installs both (.ci/run), so there a missing shell fails the run instead of hiding a skip.
 */
function installed(shell: string): boolean {
  const found = spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
  if (!found && (process.env.CI === 'true' || process.env.CI === '1'))
    throw new Error(
      `${shell} is not installed; CI must run the ${shell} completion tests (.ci/run installs it)`,
    );
  return found;
}

/** A PATH whose `svc` is this checkout's bin/svc, and a config dir with two profiles. */
let env: Record<string, string>;
/** What `svc completion SHELL` printed, and where it was saved to be sourced. */
const scripts: Partial<Record<keyof typeof FILES, string>> = {};
const saved: Partial<Record<keyof typeof FILES, string>> = {};

beforeAll(async () => {
  const binDir = tempDir('svc-completion-bin-');
  symlinkSync(SVC_BIN, join(binDir, 'svc'));
  const configDir = freshConfigDir();
  const config = { current_profile: 'prod', profiles: { prod: { base_url: 'https://x' }, staging: {} } };
  writeFileSync(join(configDir, 'config.json'), JSON.stringify(config));
  chmodSync(join(configDir, 'config.json'), 0o600);
  env = {
    ...(process.env as Record<string, string>),
    PATH: `${binDir}${delimiter}${process.env.PATH}`,
    SVC_CONFIG_DIR: configDir,
    NO_COLOR: '1',
  };
  for (const shell of Object.keys(FILES) as Array<keyof typeof FILES>) {
    const result = await runSvc(['completion', shell]);
    expect(result.code, result.stderr).toBe(0);
    scripts[shell] = result.stdout;
    saved[shell] = join(tempDir('svc-completion-'), FILES[shell]);
    writeFileSync(saved[shell], result.stdout);
  }
});

/** Runs a shell script with the test PATH and config; returns its stdout lines. */
function shellLines(shell: string, args: string[]): string[] {
  const result = spawnSync(shell, args, { env, encoding: 'utf8', timeout: 20_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

describe('svc completion', () => {
  it.each(Object.entries(FILES))('completions/%s matches what the command tree generates', (shell, file) => {
    const committed = readFileSync(join(COMPLETIONS, file), 'utf8');
    expect(
      scripts[shell as keyof typeof FILES] === committed,
      `completions/${file} is out of date with the commands: run \`npm run completions\` and commit completions/`,
    ).toBe(true);
  });

  it('an unknown shell exits 2 and names the ones there are', async () => {
    const result = await runSvc(['completion', 'tcsh']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("'tcsh' is invalid");
    expect(result.stderr).toContain('bash, zsh, fish');
  });

  it('svc __complete profiles lists saved profile names, one a line', async () => {
    const result = await runSvc(['__complete', 'profiles'], { env: { SVC_CONFIG_DIR: env.SVC_CONFIG_DIR } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('prod\nstaging\n');
  });
});

describe('bash', () => {
  it('accepts the script: source <(svc completion bash) && complete -p svc', () => {
    expect(shellLines('bash', ['-c', 'source <(svc completion bash) && complete -p svc'])).toEqual([
      'complete -F _svc svc',
    ]);
  });

  /** What `_svc` offers for a command line whose last word is being completed. */
  function complete(...words: string[]): string[] {
    const quoted = words.map((word) => `'${word}'`).join(' ');
    const script = [
      `source ${saved.bash}`,
      `COMP_WORDS=(${quoted}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))`,
      '_svc',
      `printf '%s\\n' "\${COMPREPLY[@]}"`,
    ].join('\n');
    return shellLines('bash', ['-c', script]);
  }

  it('completes nouns, verbs and flags from the command tree', () => {
    expect(complete('svc', 'or')).toEqual(['orders']);
    expect(complete('svc', 'orders', '')).toEqual(['list', 'get', 'fulfill', 'help']);
    expect(complete('svc', 'orders', 'list', '--st')).toEqual(['--status']);
    expect(complete('svc', 'products', 'images', '')).toEqual(['list', 'add', 'remove', 'reorder', 'help']);
  });

  it('completes the statuses of the noun, output formats and event types', () => {
    expect(complete('svc', 'orders', 'list', '--status', '')).toEqual([...ORDER_STATUSES]);
    expect(complete('svc', '-o', 'json', 'listings', 'list', '--status', '')).toEqual([...LISTING_STATUSES]);
    expect(complete('svc', 'orders', 'list', '--output', '=', 'nd')).toEqual(['ndjson']);
    expect(complete('svc', 'events', 'list', '--type', 'order.')).toEqual(
      EVENT_TYPES.filter((type) => type.startsWith('order.')),
    );
    // A comma-separated list completes its last item.
    expect(complete('svc', 'webhooks', 'create', '--events', 'order.created,prod')).toEqual([
      'order.created,product.updated',
      'order.created,product.deleted',
    ]);
    expect(complete('svc', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('completes profile names from the config, after --profile and for profiles use', () => {
    expect(complete('svc', '--profile', '')).toEqual(['prod', 'staging']);
    expect(complete('svc', 'profiles', 'use', 'st')).toEqual(['staging']);
  });

  it('completes file names where a command reads a file, and nothing for an id', () => {
    const dir = tempDir('svc-completion-files-');
    writeFileSync(join(dir, 'stock.csv'), 'sku,quantity\n');
    expect(complete('svc', 'inventory', 'push', join(dir, 'st'))).toEqual([join(dir, 'stock.csv')]);
    expect(complete('svc', 'products', 'images', 'add', 'prod_1', join(dir, 'st'))).toEqual([
      join(dir, 'stock.csv'),
    ]);
    expect(complete('svc', 'products', 'images', 'add', join(dir, 'st'))).toEqual([]);
  });
});

describe('zsh', () => {
  const hasZsh = installed('zsh');

  it.skipIf(!hasZsh)('parses the script (zsh -n); skipped when zsh is not installed', () => {
    shellLines('zsh', ['-n', saved.zsh ?? '']);
  });

  it.skipIf(!hasZsh)('offers commands with descriptions, statuses and profiles (zsh installed)', () => {
    // The completion system's builtins are replaced by recorders: this checks what the
    // script asks zsh to offer, not zsh's own menu.
    const script = [
      'compdef() { :; }',
      `source ${saved.zsh}`,
      `_describe() { print -rl -- "\${(@P)\${@[-1]}}"; }`,
      'compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@"; }',
      '_files() { print -r -- FILES; }',
      'complete() { words=("$@"); CURRENT=$#words; _svc; }',
      'print -r -- "--- status"; complete svc orders list --status ""',
      'print -r -- "--- verbs"; complete svc orders ""',
      'print -r -- "--- profiles"; complete svc profiles remove ""',
      'print -r -- "--- file"; complete svc products upsert ""',
    ].join('\n');
    const lines = shellLines('zsh', ['-f', '-c', script]);
    const section = (name: string) => {
      const start = lines.indexOf(`--- ${name}`) + 1;
      const end = lines.findIndex((line, index) => index >= start && line.startsWith('--- '));
      return lines.slice(start, end === -1 ? undefined : end);
    };
    expect(section('status')).toEqual([...ORDER_STATUSES]);
    expect(section('verbs')).toContain('list:list orders, newest activity first');
    expect(section('profiles')).toEqual(['prod', 'staging']);
    expect(section('file')).toEqual(['FILES']);
  });
});

describe('fish', () => {
  const hasFish = installed('fish');

  it.skipIf(!hasFish)('parses the script (fish --no-execute); skipped when fish is not installed', () => {
    shellLines('fish', ['--no-execute', saved.fish ?? '']);
  });

  it.skipIf(!hasFish)('completes verbs, statuses and profiles (fish installed)', () => {
    const candidates = (line: string) =>
      shellLines('fish', ['-c', `source ${saved.fish}; complete -C '${line}'`]).map(
        (entry) => entry.split('\t')[0],
      );
    expect(candidates('svc orders ')).toEqual(['fulfill', 'get', 'help', 'list']);
    expect(candidates('svc orders list --status ')).toEqual([...ORDER_STATUSES].sort());
    expect(candidates('svc profiles use ')).toEqual(['prod', 'staging']);
  });
});
