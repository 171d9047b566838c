/**
 * The layers of the house as docs/architecture.md draws them: each imports only itself and the
 * layers below it (type-only and dynamic imports included); use cases and the client print
 * nothing and know nothing of commander or the run's context; one file speaks undici.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Top to bottom, as the picture in docs/architecture.md. `base`: the files directly in src/. */
const LAYERS = [
  'cli',
  'commands',
  'cmdutil',
  'output',
  'library',
  'core',
  'client',
  'config',
  'contract',
  'base',
] as const;
type Layer = (typeof LAYERS)[number];

/** The entries of the package stand above every layer; the emulator stands beside them (its own wall). */
const OUTSIDE = new Set(['index.ts', 'emulator-entry.ts', 'globals.d.ts']);

function layerOf(file: string): Layer | 'emulator' | undefined {
  if (OUTSIDE.has(file)) return undefined;
  const top = file.split('/')[0] ?? '';
  if (top === file) return 'base';
  if (top === 'emulator') return 'emulator';
  return (LAYERS as readonly string[]).includes(top) ? (top as Layer) : undefined;
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
}

/** Every relative import of `file` (static, type-only, dynamic), as paths below src/, and every package it names. */
function importsOf(file: string): { local: string[]; packages: string[] } {
  const code = readFileSync(join(SRC, file), 'utf8');
  const specifiers = [...code.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] ?? '');
  return {
    local: specifiers
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => relative(SRC, resolve(join(SRC, file), '..', spec)).replace(/\.js$/, '.ts')),
    packages: specifiers.filter((spec) => !spec.startsWith('.')),
  };
}

/** `svc emulator`'s verbs and their flag parser: the only code outside it that reaches the emulator. */
const EMULATOR_USERS = ['commands/emulator/', 'cmdutil/emulator/'];

/** Every import that runs up the picture, or into the emulator from anywhere but `svc emulator`'s verbs. */
function importsUpward(): string[] {
  return sourceFiles().flatMap((file) => {
    const layer = layerOf(file);
    if (layer === undefined || layer === 'emulator') return [];
    return importsOf(file)
      .local.filter((target) => {
        const targetLayer = layerOf(target);
        if (targetLayer === 'emulator') return !EMULATOR_USERS.some((dir) => file.startsWith(dir));
        if (targetLayer === undefined) return true;
        return LAYERS.indexOf(targetLayer) < LAYERS.indexOf(layer);
      })
      .map((target) => `${file} → ${target}`);
  });
}

describe('the layers', () => {
  it('each layer imports only itself and the layers below it in the picture', () => {
    expect(sourceFiles().filter((file) => layerOf(file) === undefined && !OUTSIDE.has(file))).toEqual([]);
    expect(importsUpward()).toEqual([]);
  });

  it('finds an import that runs up the picture (the check can fail)', () => {
    const upward = (file: string, target: string) => {
      const [from, to] = [layerOf(file), layerOf(target)] as [Layer, Layer];
      return LAYERS.indexOf(to) < LAYERS.indexOf(from);
    };
    expect(upward('core/bulk.ts', 'output/printer.ts')).toBe(true);
    expect(upward('client/client.ts', 'core/bulk.ts')).toBe(true);
    expect(upward('output/printer.ts', 'cmdutil/define.ts')).toBe(true);
    expect(upward('output/views/orders.ts', 'core/outcomes.ts')).toBe(false);
  });

  it('src/commands/ holds only command definitions: each file exports a command or a noun', () => {
    const others = sourceFiles()
      .filter((file) => file.startsWith('commands/'))
      .filter((file) => !/^export const (command|noun)\b/m.test(readFileSync(join(SRC, file), 'utf8')));
    expect(others).toEqual([]);
  });

  it('src/core/ and src/client/ print nothing and know neither commander nor the run’s context', () => {
    const speaking = sourceFiles()
      .filter((file) => file.startsWith('core/') || file.startsWith('client/'))
      .filter((file) => {
        const code = readFileSync(join(SRC, file), 'utf8');
        const { packages } = importsOf(file);
        return (
          /\bconsole\.|process\.(stdout|stderr)\.write/.test(code) ||
          packages.some((name) => name === 'commander' || name.startsWith('@inquirer/') || name === 'ora')
        );
      });
    expect(speaking).toEqual([]);
  });

  it('src/output/ is the only layer that writes to a stream', () => {
    // The keyring helper answers its parent on stdout (a child's protocol, not output for people).
    const protocols = new Set(['config/keyring.ts']);
    const writing = sourceFiles()
      .filter((file) => !file.startsWith('output/') && !file.startsWith('emulator/') && !protocols.has(file))
      .filter((file) =>
        /\bconsole\.(log|error|warn|info)\(|process\.(stdout|stderr)\.write\(/.test(
          readFileSync(join(SRC, file), 'utf8'),
        ),
      );
    expect(writing).toEqual([]);
  });

  it('only the transport speaks undici', () => {
    const users = sourceFiles().filter((file) =>
      importsOf(file).packages.some((name) => name === 'undici' || name.startsWith('undici/')),
    );
    expect(users.every((file) => file.startsWith('client/transport'))).toBe(true);
    expect(users.length).toBeGreaterThan(0);
  });
});
