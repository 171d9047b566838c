/**
 * The house's walls (docs/architecture.md): the emulator shares only the contract with the
 * client, the contract stands on nothing else, a command is one file, and no import runs in a circle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

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

describe('the house', () => {
  it('a command is registered in one place: the kit builds each from its definition file', async () => {
    // commander's `.command(` is called by the builder alone.
    const registering = sourceFiles().filter((file) =>
      /\.command\(/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(registering).toEqual(['cli/command-builder.ts']);
    // The manifest is exactly the files that define a command or a noun (the build writes it).
    const { manifestFiles } = (await import(join(SRC, '..', 'scripts', 'manifest.mjs'))) as {
      manifestFiles: () => Map<string, string>;
    };
    const expected = manifestFiles();
    for (const [path, text] of expected) expect(readFileSync(path, 'utf8'), path).toBe(text);
    const written = readdirSync(join(SRC, 'commands', 'manifest')).map((name) =>
      join(SRC, 'commands', 'manifest', name),
    );
    expect(written.filter((path) => !expected.has(path))).toEqual([]);
    // No command is defined outside src/commands.
    const elsewhere = sourceFiles().filter(
      (file) =>
        !file.startsWith('commands/') &&
        /^export const (command|noun)\b/m.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(elsewhere).toEqual([]);
  });

  it('no file imports itself through others: no import circle, type-only ones included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(300);
    expect(firstCircle(graph)).toBeUndefined();
  });

  it('the emulator imports only the contract (and the words every layer shares)', () => {
    const leaving = importsLeaving('emulator').filter((line) => !/→ (contract\/|words\.js$)/.test(line));
    expect(leaving).toEqual([]);
  });

  it('the contract imports nothing outside itself', () => {
    expect(importsLeaving('contract')).toEqual([]);
  });
});
