/**
 * The whole-file check of `listings publish --file`, before anything is sent: a JSON array or
 * JSON Lines of `{product_id, channel_account_id, overrides?, attributes?}`, each checked
 * against the request schema, no product twice on one account.
 */
import { ListingInput } from '../../contract/schemas/listing.js';
import { UsageError } from '../../errors.js';
import { plural } from '../../words.js';
import { badLinesError } from '../csv/problems.js';
import { readText, type TextEncoding, withEncodingProblems } from '../csv/text.js';
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

/**
 * Reads and checks the whole file (UTF-8, or `encoding`); throws UsageError naming each bad
 * line, and the item of a line that holds several (nothing is sent).
 */
export async function checkPublishFile(
  path: string,
  shownPath = path,
  encoding: TextEncoding = 'utf-8',
): Promise<CheckedPublishFile> {
  const read = await readText(path, encoding);
  const text = read.text.replace(/^\uFEFF/, '');
  const format = text.trimStart().startsWith('[') ? 'json' : 'jsonl';
  const problems: LineProblem[] = [];
  const raw = format === 'json' ? jsonArray(text, shownPath) : jsonLines(text, problems);
  const items: PublishItem[] = [];
  const firstLine = new Map<string, number>();
  for (const { line, where, value } of raw) {
    const item = checkItem(value, line, where, problems);
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
  const all = withEncodingProblems(problems, read.problems);
  if (all.length > 0) throw badLinesError(shownPath, all);
  if (items.length === 0) throw new UsageError(`${shownPath} holds no listings; nothing to publish`);
  const accountIds = [...new Set(items.map((item) => item.input.channel_account_id))];
  return { path: shownPath, format, items, accountIds };
}

/** One element of the file: its line, how a message names it, and its value. */
interface RawItem {
  line: number;
  /** `line 1, item 3:` for an element sharing its line with others; else empty. */
  where: string;
  value: unknown;
}

function jsonArray(text: string, shownPath: string): RawItem[] {
  const parsed = parseJsonFile(text, shownPath);
  if (!Array.isArray(parsed.value)) {
    throw new UsageError(
      `${shownPath} must hold a JSON array ([{"product_id": …, "channel_account_id": …}, …]) or JSON Lines; nothing was sent`,
    );
  }
  const lines = parsed.elementLines;
  const shared = new Set(lines.filter((line, index) => lines.indexOf(line) !== index));
  return parsed.value.map((value, index) => ({
    line: lines[index],
    where: shared.has(lines[index]) ? `item ${index + 1}: ` : '',
    value,
  }));
}

function jsonLines(text: string, problems: LineProblem[]): RawItem[] {
  const values: RawItem[] = [];
  text.split('\n').forEach((rawLine, index) => {
    if (rawLine.trim() === '') return;
    try {
      values.push({ line: index + 1, where: '', value: parseJsonText(rawLine).value });
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

function checkItem(
  value: unknown,
  line: number,
  where: string,
  problems: LineProblem[],
): PublishItem | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({
      line,
      message: `${where}expected an object such as {"product_id": "prod_…", "channel_account_id": "chac_…"}`,
    });
    return undefined;
  }
  const unknown = Object.keys(value).filter((name) => !FIELDS.has(name));
  if (unknown.length > 0) {
    problems.push({
      line,
      message: `${where}unknown ${plural(unknown.length, 'field')} ${unknown.join(', ')} (a listing takes product_id, channel_account_id, overrides, attributes)`,
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
      message: `${where}${missing ? `${field} is missing` : `${field || 'item'}: ${issue.message}`}`,
    });
    return undefined;
  }
  return { line, key: `${parsed.data.product_id}@${parsed.data.channel_account_id}`, input: parsed.data };
}
