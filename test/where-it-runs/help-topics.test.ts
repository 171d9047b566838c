/**
 * Help that answers: `svc help environment` (every variable src/ reads), `svc help exit-codes`,
 * `svc help formats`, from the source the man page's ENVIRONMENT and EXIT STATUS come from;
 * bare `svc` and a bare noun print their help on stdout and exit 0.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/svc.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The environment variables the CLI's code reads (the emulator's own process aside). */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  const patterns = [
    /\benv\??\.([A-Z][A-Z0-9_]+)/g,
    /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
    /['"`]((?:SVC|HTTPS?|NO|ALL|GITHUB|XDG|NODE)_[A-Z0-9_]+)['"`]/g,
  ];
  for (const file of sources(join(ROOT, 'src'))) {
    if (file.includes(join('src', 'emulator'))) continue;
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) names.add(match[1] ?? '');
  }
  // Names of svc's own, not variables: an error code of the help script.
  names.delete('SVC_OUTSIDE_HELP');
  return names;
}

describe('svc help TOPIC', () => {
  it('environment lists every variable src/ reads, each with its meaning', async () => {
    const result = await runSvc(['help', 'environment']);
    expect(result.code, result.stderr).toBe(0);
    const read = variablesRead();
    expect(read.size).toBeGreaterThan(10);
    for (const name of read) expect(result.stdout, name).toMatch(new RegExp(`\\b${name}\\b`));
    expect(result.stdout).toMatch(/SVC_MAX_RETRIES\s+as --max-retries \(default 5\)/);
  });

  it('exit-codes and formats', async () => {
    const codes = await runSvc(['help', 'exit-codes']);
    expect(codes.code).toBe(0);
    for (const code of ['0', '1', '2', '3', '4', '5', '6', '8', '130, 143'])
      expect(codes.stdout).toMatch(new RegExp(`^  ${code}\\s+\\S`, 'm'));
    const formats = await runSvc(['help', 'formats']);
    expect(formats.code).toBe(0);
    expect(formats.stdout).toContain('field<TAB>value');
    expect(formats.stdout).toContain('CSV input');
  });

  it('answers from the help script bin/svc runs, too', async () => {
    const result = await runSvc(['help', 'environment'], { process: true });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('SVC_API_KEY');
  });

  it('an unknown topic names the topics', async () => {
    const result = await runSvc(['help', 'enviroment']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('help topics: environment, exit-codes, formats');
  });
});

describe('the man page', () => {
  const page = readFileSync(join(ROOT, 'man', 'svc.1'), 'utf8');

  it('has ENVIRONMENT and EXIT STATUS from the same source as svc help', () => {
    expect(page).toMatch(/^\.SH ENVIRONMENT$/m);
    expect(page).toMatch(/^\.SH EXIT STATUS$/m);
    expect(page).toMatch(/^\.SH FORMATS$/m);
    expect(page).toContain('\\fBSVC_PACING_URL\\fR');
    // Which global options apply to which kind of command.
    expect(page).toMatch(/lists +\\-\\-all, \\-L\/\\-\\-limit/);
  });

  it('man -l shows those sections', () => {
    const man = spawnSync('man', ['-l', join(ROOT, 'man', 'svc.1')], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' },
    });
    if (man.error) return; // man is not installed here; the roff text is checked above
    expect(man.status).toBe(0);
    expect(man.stdout).toMatch(/^ENVIRONMENT$/m);
    expect(man.stdout).toMatch(/^EXIT STATUS$/m);
  });
});

describe('bare svc and a bare noun', () => {
  it('print their help on stdout and exit 0, in-process and from bin/svc', async () => {
    for (const args of [[], ['orders'], ['products', 'images']]) {
      for (const process of [false, true]) {
        const result = await runSvc(args, { process });
        expect(result.code, `${args.join(' ')} ${process}`).toBe(0);
        expect(result.stdout).toMatch(new RegExp(`^Usage: svc ${args.join(' ')}`.trimEnd()));
        expect(result.stderr).toBe('');
      }
    }
  });
});
