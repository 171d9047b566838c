/**
 * The whole-file check of `listings publish --file`, before anything is sent: a JSON array or
 * JSON Lines of `{product_id, channel_account_id, overrides?, attributes?}`, each checked
 * against the request schema, no product twice on one account.
 */
import { readFile } from 'node:fs/promises';
import { ListingInput } from '../../api/schemas/listing.js';
import { FileError, UsageError } from '../../errors.js';
import { plural } from '../../words.js';
import { badLinesError } from '../csv/problems.js';
import { JsonSyntaxError, parseJsonFile, parseJsonText } from '../products/json-text.js';
import type { LineProblem } from '../products/product-csv.js';

/** One checked listing to publish. */
export interface PublishItem {
  /** Line where it starts in the file. */
  line: number;
  /** `product_id@channel_account_id`: the report's key. */
  key: string;
  input: ListingInput;
}

/** A file that passed the check. */
export interface CheckedPublishFile {
  path: string;
  format: 'json' | 'jsonl';
  items: PublishItem[];
  accountIds: string[];
}

const FIELDS = new Set(['product_id', 'channel_account_id', 'overrides', 'attributes']);

/** Reads and checks the whole file; throws UsageError naming each bad line (nothing is sent). */
export async function checkPublishFile(path: string, shownPath = path): Promise<CheckedPublishFile> {
  let text: string;
  try {
    text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileError(`no such file: ${shownPath}`);
    throw error;
  }
  const format = text.trimStart().startsWith('[') ? 'json' : 'jsonl';
  const problems: LineProblem[] = [];
  const raw = format === 'json' ? jsonArray(text, shownPath) : jsonLines(text, problems);
  const items: PublishItem[] = [];
  const firstLine = new Map<string, number>();
  for (const { line, value } of raw) {
    const item = checkItem(value, line, problems);
    if (!item) continue;
    const seen = firstLine.get(item.key);
    if (seen !== undefined) {
      problems.push({
        line,
        message: `product ${item.input.product_id} on ${item.input.channel_account_id} is also on line ${seen}; publish it once`,
      });
      continue;
    }
    firstLine.set(item.key, line);
    items.push(item);
  }
  if (problems.length > 0) throw badLinesError(shownPath, problems);
  if (items.length === 0) throw new UsageError(`${shownPath} holds no listings; nothing to publish`);
  const accountIds = [...new Set(items.map((item) => item.input.channel_account_id))];
  return { path: shownPath, format, items, accountIds };
}

function jsonArray(text: string, shownPath: string): { line: number; value: unknown }[] {
  const parsed = parseJsonFile(text, shownPath);
  if (!Array.isArray(parsed.value)) {
    throw new UsageError(
      `${shownPath} must hold a JSON array ([{"product_id": …, "channel_account_id": …}, …]) or JSON Lines; nothing was sent`,
    );
  }
  return parsed.value.map((value, index) => ({ line: parsed.elementLines[index], value }));
}

function jsonLines(text: string, problems: LineProblem[]): { line: number; value: unknown }[] {
  const values: { line: number; value: unknown }[] = [];
  text.split('\n').forEach((rawLine, index) => {
    if (rawLine.trim() === '') return;
    try {
      values.push({ line: index + 1, value: parseJsonText(rawLine).value });
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      problems.push({
        line: index + 1,
        message: `malformed JSON at column ${error.column}: ${error.reason}`,
      });
    }
  });
  return values;
}

function checkItem(value: unknown, line: number, problems: LineProblem[]): PublishItem | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({
      line,
      message: 'expected an object such as {"product_id": "prod_…", "channel_account_id": "chac_…"}',
    });
    return undefined;
  }
  const unknown = Object.keys(value).filter((name) => !FIELDS.has(name));
  if (unknown.length > 0) {
    problems.push({
      line,
      message: `unknown ${plural(unknown.length, 'field')} ${unknown.join(', ')} (a listing takes product_id, channel_account_id, overrides, attributes)`,
    });
    return undefined;
  }
  const parsed = ListingInput.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.map(String).join('.');
    const missing =
      issue.code === 'invalid_type' &&
      (value as Record<string, unknown>)[String(issue.path[0])] === undefined;
    problems.push({
      line,
      message: missing ? `${field} is missing` : `${field || 'item'}: ${issue.message}`,
    });
    return undefined;
  }
  return { line, key: `${parsed.data.product_id}@${parsed.data.channel_account_id}`, input: parsed.data };
}
