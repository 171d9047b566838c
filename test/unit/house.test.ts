/**
 * The house's walls (docs/architecture.md): the emulator shares only the contract with the
 * client, and the contract stands on nothing else.
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

describe('the house', () => {
  it('the emulator imports only the contract (and the words every layer shares)', () => {
    const leaving = importsLeaving('emulator').filter((line) => !/→ (contract\/|words\.js$)/.test(line));
    expect(leaving).toEqual([]);
  });

  it('the contract imports nothing outside itself', () => {
    expect(importsLeaving('contract')).toEqual([]);
  });
});
