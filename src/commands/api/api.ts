import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { HttpMethod, QueryValue } from '../../client/types.js';
import { defineCommand } from '../../cmdutil/define.js';
import { noteCutList } from '../../cmdutil/list-command.js';
import { isStdin } from '../../config/spool.js';
import { IDEMPOTENCY_HEADER } from '../../contract/contract.js';
import { needsKey } from '../../contract/routes.js';
import { apiPath, buildFields, type FieldArg, toQuery } from '../../core/api/fields.js';
import { ApiError, FileError, UsageError } from '../../errors.js';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** A -F or -f field, with its place among both flags' values. */
interface PlacedField extends FieldArg {
  at: number;
}

/** The arguments and flags of `svc api`. */
interface ApiArgs {
  methodOrPath: string;
  path?: string;
  field?: PlacedField[];
  rawField?: PlacedField[];
  input?: string;
  paginate?: boolean;
  /** -H 'Name: value', as typed. */
  header?: string[];
  include?: boolean;
  silent?: boolean;
}

/** Counts the -F and -f values as they are parsed, so that fields keep the order they were typed in. */
let fieldsParsed = 0;

/** Collects a -F (`typed`) or -f value with its place among both flags' values. */
function fieldFlag(typed: boolean) {
  return (assignment: string, previous: unknown): PlacedField[] => [
    ...((previous as PlacedField[] | undefined) ?? []),
    { assignment, typed, at: fieldsParsed++ },
  ];
}

/** `svc api METHOD PATH`: like `gh api`, for any endpoint, authenticated and paced like every other command. */
export const command = defineCommand<ApiArgs>({
  path: ['api'],
  group: 'Setup',
  rank: 7,
  description: 'send an authenticated request to any endpoint and print the answer',
  args: [
    { name: 'method-or-path', description: 'GET, POST, PATCH, PUT or DELETE (or just a path, meaning GET)' },
    { name: 'path', description: 'path below /rest/v1, e.g. /orders', optional: true },
  ],
  flags: [
    {
      flags: '-F, --field <key=value>',
      description: 'typed field: numbers, true, false, null, @file',
      parse: fieldFlag(true),
    },
    { flags: '-f, --raw-field <key=value>', description: 'string field', parse: fieldFlag(false) },
    { flags: '--input <file>', description: 'request body from a JSON file, or - for standard input' },
    {
      flags: '--paginate',
      description: 'follow next_cursor and print every item of a list (also --all; --limit N stops at N)',
    },
    {
      flags: '-H, --header <name:value>',
      description: 'add a request header (repeatable); never Authorization, which the key sets',
      parse: (header, headers) => [...((headers as string[] | undefined) ?? []), header],
    },
    {
      flags: '-i, --include',
      description: 'print the HTTP status and the response headers (X-RateLimit-*…) before the body',
    },
    { flags: '--silent', description: 'do not print the response body' },
  ],
  takes: {
    list: true,
    asAnswered: true,
    writes: 'the answer as JSON, as the service sent it; another format only when asked',
  },
  notes: [
    'On GET the fields go to the query string; otherwise into a JSON body. A -F value is a number',
    'only when it reads back exactly as typed (12, -3.25; not 007, -0, 9.50 or 12345678901234567890,',
    'which go as strings). An --input body is checked to parse, then sent byte for byte (a UTF-8',
    'byte order mark is taken off).',
  ],
  examples: [
    'svc api GET /orders -F limit=5 -f status=awaiting_shipment',
    "svc api GET /orders --paginate --query 'length(@)'",
    'svc api GET /inventory/SKU-1 -i --silent     # status and X-RateLimit-* headers only',
    'svc api PATCH /inventory/SKU-1 -F quantity=12 -f price=9.50',
    'svc api GET /orders --paginate -o ndjson > orders.ndjson',
  ],
  /** Sends one request (or crawls a list) and prints the JSON it got. */
  async run(options, deps) {
    const [rawMethod, rawPath] =
      options.path === undefined
        ? ['GET', options.methodOrPath]
        : [options.methodOrPath.toUpperCase(), options.path];
    const assignments = [...(options.field ?? []), ...(options.rawField ?? [])].sort((a, b) => a.at - b.at);
    const method = rawMethod as HttpMethod;
    if (!METHODS.includes(method))
      throw new UsageError(`unknown method "${rawMethod}"; use one of ${METHODS.join(', ')}`);
    const [path, search] = splitQuery(apiPath(rawPath));
    // Standard input is read once, from the run's stream, when a value or the body names it.
    const stdinNamed = [
      options.input ?? '',
      ...assignments.map((field) => field.assignment.split('=@')[1] ?? ''),
    ];
    const stdin = stdinNamed.some(isStdin) ? await readAll(deps.io.stdin) : undefined;
    const read = (path: string) => (isStdin(path) && stdin ? stdin : readLocal(path));
    const fields = buildFields(assignments, (path) => read(path).toString('utf8'));
    const body = options.input !== undefined ? readJsonBody(options.input, read) : undefined;
    const fieldsInQuery = method === 'GET' || body !== undefined;
    const query: Record<string, QueryValue> = { ...search, ...(fieldsInQuery ? toQuery(fields) : {}) };
    const requestBody = fieldsInQuery || Object.keys(fields).length === 0 ? undefined : fields;
    // --all is the global name of --paginate; --limit counts the items of such a crawl.
    const paginate = options.paginate || deps.globals.all === true;
    if (deps.globals.limit !== undefined && !paginate)
      throw new UsageError(
        `--limit counts the items of a crawl: add --paginate, or ask one page of that size with -F limit=${deps.globals.limit}`,
      );
    if (paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
    if (paginate && options.include)
      throw new UsageError('--include shows one answer; it cannot take --paginate (drop one of them)');
    const { idempotencyKey, headers } = parseHeaders(options.header ?? []);

    // The endpoint table loads with the client, not with the help.
    const auth = needsKey(method, path);
    const client = await deps.client({ auth });
    // JSON unless a format was asked for; a query's scalars one a line (tsv when piped).
    const printer = deps.io.query ? deps.io.printer : deps.io.printerDefaulting('json');
    if (paginate) {
      const limit = deps.globals.limit ?? 'all';
      const items = client.list(path, query, undefined, { limit });
      let count = 0;
      if (options.silent) for await (const _ of items) count++;
      else count = await printer.list(items, { columns: [], fields: [] });
      noteCutList(deps, items, count, 'items');
      return;
    }
    const include = options.include
      ? async (status: number, answer: Record<string, string>) =>
          printer.text(await statusAndHeaders(status, answer))
      : undefined;
    const response = await client
      .request({
        method,
        path,
        query,
        body: requestBody,
        jsonBytes: body,
        headers,
        idempotencyKey,
        auth,
        // The live service dedupes PATCH by Idempotency-Key; other raw writes are not repeated blindly.
        repeatable: method === 'GET' || method === 'PATCH' || method === 'PUT',
      })
      .catch(async (error: unknown) => {
        if (include && error instanceof ApiError && error.headers) await include(error.status, error.headers);
        throw error;
      });
    if (include) await include(response.status, response.headers);
    if (response.body === undefined || options.silent) return;
    if (deps.io.query) await printer.value(deps.io.query.apply(response.body));
    else await printer.json(response.body, 2);
  },
});

/**
 * -H 'Name: value' headers; Authorization is refused (the key is never given on the command
 * line), and an Idempotency-Key becomes the request's own key, kept across retries.
 */
function parseHeaders(raw: readonly string[]): {
  headers: Record<string, string>;
  idempotencyKey?: string;
} {
  const headers: Record<string, string> = {};
  let idempotencyKey: string | undefined;
  for (const header of raw) {
    const colon = header.indexOf(':');
    const name = header.slice(0, colon).trim();
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(
        `-H "${header}" is not a header; use -H 'Name: value', e.g. -H 'Accept-Language: fr'`,
      );
    const value = header.slice(colon + 1).trim();
    if (name.toLowerCase() === 'authorization')
      throw new UsageError(
        '-H Authorization is refused: the key is never given on the command line (it would show in ps and shell history); use SVC_API_KEY or svc auth login',
      );
    if (name.toLowerCase() === IDEMPOTENCY_HEADER) idempotencyKey = value;
    else headers[name] = value;
  }
  return { headers, idempotencyKey };
}

/** `HTTP/1.1 200 OK` and the answer's headers, as `curl -i` and `gh api -i` print them. */
async function statusAndHeaders(status: number, headers: Record<string, string>): Promise<string> {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)))
    lines.push(`${headerCase(name)}: ${value}`);
  return `${lines.join('\n')}\n`;
}

/** `x-ratelimit-remaining` as `X-Ratelimit-Remaining`. */
function headerCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}

function splitQuery(path: string): [string, Record<string, string>] {
  const at = path.indexOf('?');
  if (at < 0) return [path, {}];
  return [path.slice(0, at), Object.fromEntries(new URLSearchParams(path.slice(at + 1)))];
}

/** A local file's bytes, or the FileError (exit 2) that names it. */
function readLocal(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new FileError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Everything a stream holds, to its end. */
async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  } catch (error) {
    throw new FileError(`cannot read standard input: ${(error as Error).message}`);
  }
  return Buffer.concat(chunks);
}

/**
 * The --input body as the bytes to send: checked to be UTF-8 JSON, then sent as given, so big
 * numbers, duplicate keys and spacing reach the service untouched. A UTF-8 byte order mark is
 * taken off: JSON text carries none (RFC 8259), and it is the one thing JSON.parse refuses
 * that is not part of the body.
 */
function readJsonBody(path: string, read: (path: string) => Buffer): Uint8Array {
  const source = isStdin(path) ? 'standard input' : path;
  let bytes = read(path);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(
      `--input ${source} is not UTF-8, as a JSON body must be; convert it (iconv -t UTF-8)`,
    );
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input ${source} is not valid JSON: ${(error as Error).message}`);
  }
  return bytes;
}
