/**
 * `--override k=v` and `--attribute k=v`, typed by the function that types `svc api -F` values
 * (a number only when it reads back exactly as typed; true, false, null, @file), with `a[b]` nesting. Overrides the API defines as text (title,
 * category_id, policy ids…) keep the text as typed: category 11457 is an id, not a number.
 */
import { readFileSync } from 'node:fs';
import { isStdin } from '../../config/spool.js';
import { FileError, UsageError } from '../../errors.js';
import { buildFields, type ReadValueFile } from '../api/fields.js';

/** The override fields the API reference names (docs/service-contract.md); others are sent as given, with a warning. */
const KNOWN_OVERRIDES = [
  'title',
  'description',
  'category_id',
  'shipping_policy_id',
  'return_policy_id',
  'payment_policy_id',
] as const;

const TEXT_OVERRIDES = new Set<string>(KNOWN_OVERRIDES);

/** Reads `@file` values; a missing file is a usage error naming the flag. */
function readValueFile(flag: string): ReadValueFile {
  return (path) => {
    try {
      return readFileSync(isStdin(path) ? 0 : path, 'utf8');
    } catch (error) {
      throw new FileError(`${flag}: cannot read ${path}: ${(error as Error).message}`);
    }
  };
}

/** The object built from `--override` or `--attribute` assignments; UsageError names a malformed one. */
export function parseAssignments(
  flag: '--override' | '--attribute',
  assignments: readonly string[],
  readFile: ReadValueFile = readValueFile(flag),
): Record<string, unknown> {
  const example = flag === '--override' ? '--override title="Blue mug"' : '--attribute color=Navy';
  const fields = assignments.map((assignment) => {
    const eq = assignment.indexOf('=');
    const name = eq > 0 ? assignment.slice(0, eq) : '';
    if (eq <= 0 || name.trim() === '') {
      throw new UsageError(
        `${flag} "${assignment}" needs the form key=value, e.g. ${example}; nothing was sent`,
      );
    }
    const value = assignment.slice(eq + 1);
    const textual = flag === '--override' && TEXT_OVERRIDES.has(name.replace(/\[.*$/, ''));
    // A text field keeps what was typed unless it names a file to read.
    const typed = !textual || value.startsWith('@');
    return { assignment, typed };
  });
  try {
    return buildFields(fields, readFile);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${flag}: ${error.message}`);
    throw error;
  }
}

/** Override names the API reference does not document (sent anyway; the service may know them). */
export function unknownOverrides(overrides: Record<string, unknown>): string[] {
  return Object.keys(overrides).filter((name) => !TEXT_OVERRIDES.has(name));
}
