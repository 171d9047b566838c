import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { HttpMethod, QueryValue } from '../../api/types.js';
import type { Context } from '../../cmdutil/context.js';
import { apiPath, buildFields, type FieldArg, toQuery } from '../../core/api/fields.js';
import { UsageError } from '../../errors.js';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** Options of `svc api`. */
export interface ApiOptions {
  field: FieldArg[];
  input?: string;
  paginate?: boolean;
}

/** `svc api METHOD PATH`: like `gh api`, for any endpoint. */
export function requestCommand(program: Command, ctx: Context, run = runApi): Command {
  // -F and -f share one list so that fields keep the order they were typed in.
  const fields: FieldArg[] = [];
  const collect = (typed: boolean) => (assignment: string) => {
    fields.push({ assignment, typed });
    return fields;
  };
  return program
    .command('api')
    .description('send an authenticated request to any endpoint and print the answer')
    .argument('<method-or-path>', 'GET, POST, PATCH, PUT or DELETE (or just a path, meaning GET)')
    .argument('[path]', 'path below /rest/v1, e.g. /orders')
    .option('-F, --field <key=value>', 'typed field: numbers, true, false, null, @file', collect(true))
    .option('-f, --raw-field <key=value>', 'string field', collect(false))
    .option('--input <file>', 'request body from a JSON file, or - for standard input')
    .option('--paginate', 'follow next_cursor and print every item of a list')
    .addHelpText(
      'after',
      [
        '',
        'On GET the fields go to the query string; otherwise into a JSON body.',
        '',
        'Examples:',
        '  svc api GET /orders -F limit=5 -f status=awaiting_shipment',
        '  svc api PATCH /inventory/SKU-1 -F quantity=12 -f price=9.50',
        '  svc api GET /orders --paginate -o ndjson > orders.ndjson',
      ].join('\n'),
    )
    .action(
      async (first: string, second: string | undefined, options: { input?: string; paginate?: boolean }) => {
        const [method, path] = second === undefined ? ['GET', first] : [first.toUpperCase(), second];
        await run(ctx, method, path, { field: fields, input: options.input, paginate: options.paginate });
      },
    );
}

/** Sends one request (or crawls a list) and prints the JSON it got. */
export async function runApi(
  ctx: Context,
  rawMethod: string,
  rawPath: string,
  options: ApiOptions,
): Promise<void> {
  const method = rawMethod as HttpMethod;
  if (!METHODS.includes(method))
    throw new UsageError(`unknown method "${rawMethod}"; use one of ${METHODS.join(', ')}`);
  const [path, search] = splitQuery(apiPath(rawPath));
  const fields = buildFields(options.field, readValueFile);
  const body = options.input !== undefined ? readJsonBody(options.input) : undefined;
  const fieldsInQuery = method === 'GET' || body !== undefined;
  const query: Record<string, QueryValue> = { ...search, ...(fieldsInQuery ? toQuery(fields) : {}) };
  const requestBody = body ?? (fieldsInQuery || Object.keys(fields).length === 0 ? undefined : fields);
  if (options.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');

  const client = await ctx.client({ auth: !['/status', '/health'].includes(path) });
  if (options.paginate) {
    const limit = ctx.globals.limit ?? 'all';
    await ctx
      .printerDefaulting('json')
      .list(client.list(path, query, undefined, { limit }), { columns: [], fields: [] });
    return;
  }
  const response = await client.request({
    method,
    path,
    query,
    body: requestBody,
    auth: !['/status', '/health'].includes(path),
    // The live service dedupes PATCH by Idempotency-Key; other raw writes are not repeated blindly.
    repeatable: method === 'GET' || method === 'PATCH' || method === 'PUT',
  });
  if (response.body !== undefined) await ctx.printer.json(response.body, 2);
}

function splitQuery(path: string): [string, Record<string, string>] {
  const at = path.indexOf('?');
  if (at < 0) return [path, {}];
  return [path.slice(0, at), Object.fromEntries(new URLSearchParams(path.slice(at + 1)))];
}

function readValueFile(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${path === '-' ? 'standard input' : path}: ${(error as Error).message}`,
    );
  }
}

function readJsonBody(path: string): unknown {
  const text = readValueFile(path);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input ${path} is not valid JSON: ${(error as Error).message}`);
  }
}
