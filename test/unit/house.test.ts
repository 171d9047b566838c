/**
 * The house's walls (docs/architecture.md): the emulator shares only the contract with the
 * client, the contract stands on nothing else, a command is one file, and no import runs in a circle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '../../src/contract/operations.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Every module a file under `dir` imports from outside `dir`, as paths below src/. */
function importsLeaving(dir: string): string[] {
  const root = join(SRC, dir);
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.ts'),
  );
  return files.flatMap((file) => {
    const code = readFileSync(join(root, file), 'utf8');
    return [...code.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)]
      .map((match) => relative(SRC, resolve(join(root, file), '..', match[1] ?? '')))
      .filter((target) => !target.startsWith(`${dir}/`))
      .map((target) => `${dir}/${file} → ${target}`);
  });
}

/** What each file below src/ imports (static, type-only and dynamic), as paths below src/. */
function importGraph(): Map<string, string[]> {
  return new Map(
    sourceFiles().map((file) => {
      const code = readFileSync(join(SRC, file), 'utf8');
      const targets = [...code.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((match) =>
        relative(SRC, resolve(join(SRC, file), '..', match[1] ?? '')).replace(/\.js$/, '.ts'),
      );
      return [file, targets];
    }),
  );
}

/** The first import circle found (a → b → … → a), if any. */
function firstCircle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    const at = path.indexOf(file);
    if (at >= 0) return [...path.slice(at), file];
    if (done.has(file)) return undefined;
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      const circle = visit(target);
      if (circle) return circle;
    }
    path.pop();
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return undefined;
}

/** Every .ts file below src/, as paths below src/. */
function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
}

/** The text of every string and template literal of a source, each `${…}` as `{}`; comments are not read. */
function literalsOf(code: string): string[] {
  const source = ts.createSourceFile('file.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const texts: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    else if (ts.isTemplateExpression(node))
      texts.push(node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join(''));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

const TEMPLATES = API_OPERATIONS.map((operation) => operation.path.split('/').filter(Boolean));
const METHOD_BESIDE_PATH = /\b(GET|POST|PATCH|PUT|DELETE|HEAD)\s+\//;

/** Whether a path (`{}` for what the code fills in) is, or begins, a path of the endpoint table. */
function isTablePath(text: string): boolean {
  const path = text.startsWith('{}/') ? text.slice(2) : text;
  if (!path.startsWith('/')) return false;
  const segments = path.split('?')[0].split('/').filter(Boolean);
  if (segments.length === 0 || segments[0] === '{}') return false;
  return TEMPLATES.some(
    (template) =>
      segments.length <= template.length &&
      segments.every(
        (segment, index) =>
          segment === '{}' || template[index] === segment || template[index].startsWith('{'),
      ),
  );
}

/** The literals of `code` that write a method and path, or a path of the endpoint table, themselves. */
function endpointsWrittenOut(code: string): string[] {
  // Parsing is slow: a file without a quote before a slash writes no path.
  if (!/['"`]\//.test(code) && !METHOD_BESIDE_PATH.test(code)) return [];
  return literalsOf(code).filter(
    // A command line of `svc api` (its help's examples) is what a person types, not a request svc makes.
    (text) => !text.startsWith('svc api ') && (METHOD_BESIDE_PATH.test(text) || isTablePath(text)),
  );
}

/** How many `await import(` src/commands may keep: a definition imports what it uses at its top. */
const MAX_LAZY_IMPORTS = 20;

/** Each `await import(` of a source (its line), and whether the line above is a comment giving its reason. */
function lazyImports(code: string): { line: number; reason: boolean }[] {
  const lines = code.split('\n');
  return lines.flatMap((text, index) =>
    [...text.matchAll(/await import\(/g)].map(() => ({
      line: index + 1,
      reason: /^\s*\/\/\s*\S.{8,}/.test(lines[index - 1] ?? ''),
    })),
  );
}

describe('the house', () => {
  it('a method and path are written in the endpoint table alone (src/contract/)', () => {
    // The detector sees each way of writing one out, and not words that only look like one.
    expect(endpointsWrittenOut("client.request({ method: 'GET', path: '/orders' })")).toEqual(['/orders']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test holds a template
    expect(endpointsWrittenOut('const p = `/orders/${id}/fulfillment`;')).toEqual(['/orders/{}/fulfillment']);
    expect(endpointsWrittenOut("itemPath('/inventory', sku)")).toEqual(['/inventory']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test holds a template
    expect(endpointsWrittenOut('say(`would send POST /v2/${what}`)')).toEqual(['would send POST /v2/{}']);
    expect(
      endpointsWrittenOut("say('--paginate works with GET only'); open('/tmp/x'); // GET /orders"),
    ).toEqual([]);
    const found = sourceFiles()
      .filter((file) => !file.startsWith('contract/'))
      .flatMap((file) =>
        endpointsWrittenOut(readFileSync(join(SRC, file), 'utf8')).map((text) => `${file}: ${text}`),
      );
    expect(found).toEqual([]);
  });

  it('a command is registered in one place: the kit builds each from its definition file', async () => {
    // commander's `.command(` is called by the builder alone.
    const registering = sourceFiles().filter((file) =>
      /\.command\(/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(registering).toEqual(['cli/command-builder.ts']);
    // The manifest is what the files that define a command or a noun say now (the build writes it).
    const { manifestText, MANIFEST } = (await import(join(SRC, '..', 'scripts', 'manifest.mjs'))) as {
      manifestText: () => Promise<string>;
      MANIFEST: string;
    };
    expect(readFileSync(MANIFEST, 'utf8'), 'src/cli/manifest.ts: run npm run build').toBe(
      await manifestText(),
    );
    // No command is defined outside src/commands.
    const elsewhere = sourceFiles().filter(
      (file) =>
        !file.startsWith('commands/') &&
        /^export const (command|noun)\b/m.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(elsewhere).toEqual([]);
  });

  it('commands import like ordinary modules: at most 20 `await import(` under src/commands, each with its reason', () => {
    // The detector counts each lazy import and its reason, the comment line just above it.
    expect(lazyImports("const { a } = await import('./a.js');")).toEqual([{ line: 1, reason: false }]);
    expect(lazyImports("// only the --web branch opens a browser\nconst b = await import('open');")).toEqual([
      { line: 2, reason: true },
    ]);
    const found = sourceFiles()
      .filter((file) => file.startsWith('commands/'))
      .flatMap((file) =>
        lazyImports(readFileSync(join(SRC, file), 'utf8')).map((lazy) => ({
          ...lazy,
          at: `${file}:${lazy.line}`,
        })),
      );
    expect(found.length, found.map((lazy) => lazy.at).join(', ')).toBeLessThanOrEqual(MAX_LAZY_IMPORTS);
    expect(found.filter((lazy) => !lazy.reason).map((lazy) => lazy.at)).toEqual([]);
  });

  it('no file imports itself through others: no import circle, type-only ones included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(300);
    expect(firstCircle(graph)).toBeUndefined();
  });

  it('commands and the library reach the service only through the client: nothing else imports undici or the transport', () => {
    const senders = sourceFiles().filter(
      (file) =>
        !file.startsWith('client/') &&
        /from '(undici|[^']*\/transport\.js)'/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(senders).toEqual([]);
    // The library's resources call the client's one entry, as the commands' resources do.
    expect(readFileSync(join(SRC, 'library', 'resources.ts'), 'utf8')).toMatch(/client\.call/);
  });

  it('the emulator imports only the contract (and the words every layer shares)', () => {
    const leaving = importsLeaving('emulator').filter((line) => !/→ (contract\/|words\.js$)/.test(line));
    expect(leaving).toEqual([]);
  });

  it('the contract imports nothing outside itself', () => {
    expect(importsLeaving('contract')).toEqual([]);
  });
});
