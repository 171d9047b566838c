/** A product body read from a JSON file (create, update --file), with line numbers on mistakes. */
import { readFile } from 'node:fs/promises';
import { FileError, UsageError } from '../../errors.js';
import { plural } from '../../words.js';
import { type BodyProblem, describeProblem, PRODUCT_FIELDS } from './check.js';
import { parseJsonFile } from './json-text.js';

/** The JSON object in `path` (`shownPath` names it in messages); UsageError when it is not one. */
export async function readBodyFile(path: string, shownPath = path): Promise<Record<string, unknown>> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new FileError(`no such file: ${shownPath}`);
    throw new FileError(`cannot read ${shownPath}: ${error.message}`);
  });
  const { value } = parseJsonFile(text, shownPath);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(
      `${shownPath} must hold one JSON object ({"title": …}); for many products use svc products upsert`,
    );
  }
  return value as Record<string, unknown>;
}

/** Top-level keys the CLI does not know; they are sent as they are (the service may know them). */
export function unknownFields(body: Record<string, unknown>, extra: readonly string[] = []): string[] {
  return Object.keys(body).filter((key) => !PRODUCT_FIELDS.includes(key) && !extra.includes(key));
}

/** UsageError listing each problem of a body. */
export function bodyProblemsError(what: string, problems: readonly BodyProblem[]): UsageError {
  return new UsageError(
    `${what}: ${problems.length} ${plural(problems.length, 'problem')}; fix ${plural(problems.length, 'it', 'them')} and run again (nothing was sent)`,
    problems.map(describeProblem),
  );
}
