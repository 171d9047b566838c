/**
 * The lookup tables every generated script shares, in shell-neutral form: which flags take
 * a value, and what each flag value or positional argument completes to. Scripts key them
 * as `PATH|FLAG` (`orders list|--status`) and `PATH|#N` (the Nth argument, from 1).
 */
import { type CommandTree, commandsOf, flagNames, type ValueSource } from '../command-tree.js';

/** A key a script matches against `PATH|FLAG` or `PATH|#N`. */
export type KeyPattern =
  /** One command's flag or argument: `orders list|--status`, `completion|#1`. */
  | { kind: 'exact'; path: string; key: string }
  /** Every argument of a command from its variadic one on. */
  | { kind: 'rest'; path: string }
  /** A global flag under any command. */
  | { kind: 'global'; key: string };

/** Keys that share one way of completing, tried in order (the first match wins). */
export interface ValueRule {
  patterns: KeyPattern[];
  value: ValueSource;
}

/** Every flag that takes a value, as `PATH|FLAG` keys (globals as `*|FLAG`). */
export function valueFlags(tree: CommandTree): KeyPattern[] {
  const patterns: KeyPattern[] = [];
  for (const { path, command } of commandsOf(tree)) {
    for (const option of command.options) {
      if (option.value) for (const key of flagNames(option)) patterns.push({ kind: 'exact', path, key });
    }
  }
  for (const option of tree.globalOptions) {
    if (option.value) for (const key of flagNames(option)) patterns.push({ kind: 'global', key });
  }
  return patterns;
}

/**
 * What each flag value and argument completes to: exact keys first, then variadic rests, then
 * globals, so a specific rule always wins over a wildcard. Free-text keys appear only where
 * a wildcard would otherwise claim them (an id before a variadic file list).
 */
export function valueRules(tree: CommandTree): ValueRule[] {
  const globalKeys = new Set(tree.globalOptions.flatMap((option) => flagNames(option)));
  const exact: Array<[KeyPattern, ValueSource]> = [];
  const rests: Array<[KeyPattern, ValueSource]> = [];
  const globals: Array<[KeyPattern, ValueSource]> = [];

  for (const { path, command } of commandsOf(tree)) {
    for (const option of command.options) {
      if (!option.value) continue;
      for (const key of flagNames(option)) {
        if (option.value.kind !== 'none' || globalKeys.has(key)) {
          exact.push([{ kind: 'exact', path, key }, option.value]);
        }
      }
    }
    const variadicAt = command.arguments.findIndex((argument) => argument.variadic);
    command.arguments.forEach((argument, index) => {
      if (argument.variadic) {
        if (argument.value.kind !== 'none') rests.push([{ kind: 'rest', path }, argument.value]);
        return;
      }
      if (argument.value.kind !== 'none' || index < variadicAt) {
        exact.push([{ kind: 'exact', path, key: `#${index + 1}` }, argument.value]);
      }
    });
  }
  for (const option of tree.globalOptions) {
    if (!option.value || option.value.kind === 'none') continue;
    for (const key of flagNames(option)) globals.push([{ kind: 'global', key }, option.value]);
  }
  return [...group(exact), ...group(rests), ...group(globals)];
}

/** Merges keys that complete the same way into one rule, in order of first appearance. */
function group(entries: Array<[KeyPattern, ValueSource]>): ValueRule[] {
  const rules = new Map<string, ValueRule>();
  for (const [pattern, value] of entries) {
    const id = JSON.stringify(value);
    const rule = rules.get(id);
    if (rule) rule.patterns.push(pattern);
    else rules.set(id, { patterns: [pattern], value });
  }
  return [...rules.values()];
}

/** A word in single quotes, as bash and zsh read it. */
export function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The `case` pattern (bash and zsh) of a lookup key. */
export function casePattern(pattern: KeyPattern): string {
  if (pattern.kind === 'exact') return quote(`${pattern.path}|${pattern.key}`);
  if (pattern.kind === 'rest') return `${quote(`${pattern.path}|#`)}*`;
  return `*${quote(`|${pattern.key}`)}`;
}
