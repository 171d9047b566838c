/**
 * Source, tests, scripts and benches point only at documents a clone of the repository has,
 * and a pointer to a section, "(docs/guide.md, Exit codes)" or "(docs/service-contract.md, Keys)",
 * names a heading that exists there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['src', 'test', 'scripts', 'bench'];

/** Every code file of the folders above (bench/tmp holds built copies, not sources). */
function codeFiles(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((path) => /\.(ts|mjs|js|sh)$/.test(path) && !path.startsWith('tmp/'))
      .map((path) => join(ROOT, folder, path)),
  );
}

/** The design documents that lived beside the repository, never in it. */
const OUTSIDE = /\.\.\/shared|shared\/(CLI|api|ARCHITECTURE)\b|\b(CONTRACT|ARCHITECTURE|CLI)\.md/;
/** README or a docs/ page, a comma and a section name, in parentheses (also after a "; " in them). */
const POINTER = /(?<=[(;] ?)(README|docs\/[\w/-]+\.md), ([^().;:,]+)(?=[);])/g;

/** The headings of a Markdown document, without their #s. */
function headings(document: string): Set<string> {
  const text = readFileSync(join(ROOT, document === 'README' ? 'README.md' : document), 'utf8');
  return new Set([...text.matchAll(/^#+ (.+)$/gm)].map((match) => (match[1] ?? '').trim()));
}

describe('pointers to documents', () => {
  const files = codeFiles();

  it('reads the code files', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('name nothing outside the repository', () => {
    const outside = files
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, index) => ({ line, at: `${relative(ROOT, file)}:${index + 1}` })),
      )
      .filter(({ line }) => OUTSIDE.test(line))
      .map(({ at, line }) => `${at}: ${line.trim()}`);
    expect(outside, 'point at README.md or docs/ instead').toEqual([]);
  });

  it('name sections that exist', () => {
    const known = new Map<string, Set<string>>();
    const missing: string[] = [];
    let pointers = 0;
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(POINTER)) {
        const [document = '', section = ''] = [match[1], match[2]?.trim()];
        if (!known.has(document)) known.set(document, headings(document));
        pointers += 1;
        if (!known.get(document)?.has(section))
          missing.push(`${relative(ROOT, file)}: (${document}, ${section})`);
      }
    }
    expect(pointers).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
