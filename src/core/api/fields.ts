/** `svc api` fields, as `gh api` takes them: -F typed, -f raw, `a[b]` nesting and `a[]` arrays. */
import { UsageError } from '../../errors.js';

/** One `key=value` argument and whether its value is typed (-F) or a raw string (-f). */
export interface FieldArg {
  assignment: string;
  typed: boolean;
}

/** Reads `@file` values (`@-` is standard input). */
export type ReadValueFile = (path: string) => string;

/**
 * Types a -F value (and an --override or --attribute one): true, false, null, @file for a
 * file's content, and a number only when it reads back exactly as typed; anything a JSON
 * number would change (`007`, `-0`, `9.50`, `12345678901234567890`) stays the string typed.
 */
export function typedValue(raw: string, readFile: ReadValueFile): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(raw) && String(Number(raw)) === raw) return Number(raw);
  if (raw.startsWith('@')) return readFile(raw.slice(1));
  return raw;
}

/** Splits `items[0][sku]` or `tags[]` into its keys (`''` marks an append). */
export function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match)
    throw new UsageError(
      `field name "${key}" is malformed; use name, name[sub] or name[] (e.g. -F tags[]=red)`,
    );
  const rest = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]);
  return [match[1], ...rest];
}

/** Builds one object from the fields, in order. */
export function buildFields(args: readonly FieldArg[], readFile: ReadValueFile): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const { assignment, typed } of args) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) {
      throw new UsageError(
        `field "${assignment}" needs the form key=value (e.g. -F quantity=5 or -f note=hello)`,
      );
    }
    const value = typed ? typedValue(assignment.slice(eq + 1), readFile) : assignment.slice(eq + 1);
    assign(result, keyPath(assignment.slice(0, eq)), value);
  }
  return result;
}

function assign(target: Record<string, unknown> | unknown[], keys: string[], value: unknown): void {
  const [key, ...rest] = keys;
  if (Array.isArray(target)) {
    if (key !== '') throw new UsageError('cannot mix name[] and name[key] for the same field');
    if (rest.length === 0) target.push(value);
    else {
      const child: Record<string, unknown> | unknown[] = rest[0] === '' ? [] : {};
      target.push(child);
      assign(child, rest, value);
    }
    return;
  }
  if (key === '') throw new UsageError('cannot mix name[] and name[key] for the same field');
  if (rest.length === 0) {
    target[key] = value;
    return;
  }
  const wantArray = rest[0] === '';
  let child = target[key];
  if (child === undefined) {
    child = wantArray ? [] : {};
    target[key] = child;
  } else if (typeof child !== 'object' || child === null) {
    // As gh does: a field set to a value cannot also take nested keys (they would silently replace it).
    throw new UsageError(`field "${key}" is given both a value and nested keys; use one form`);
  } else if (Array.isArray(child) !== wantArray) {
    throw new UsageError('cannot mix name[] and name[key] for the same field');
  }
  assign(child as Record<string, unknown> | unknown[], rest, value);
}

/** Fields as query parameters: scalars as text, anything nested as JSON. */
export function toQuery(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key,
      typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value),
    ]),
  );
}

/** The API path from what the user typed: `/orders`, `orders`, `/rest/v1/orders` or a full URL. */
export function apiPath(raw: string): string {
  let path = raw;
  if (/^https?:\/\//i.test(path)) {
    const url = new URL(path);
    path = `${url.pathname}${url.search}`;
  }
  if (!path.startsWith('/')) path = `/${path}`;
  return path.replace(/^\/rest\/v1(?=\/|$)/, '') || '/';
}
