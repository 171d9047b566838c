/**
 * Which global flags mean something to each command (README, Global options): --all and
 * --limit to lists, --fields to commands that print the service's resources (whose fields are
 * known), --yes to commands that ask first, the output flags to commands that print data, and
 * the connection flags (--profile, --base-url, retries, timeout) to commands that reach the
 * service or a profile. A
 * flag given to a command it means nothing to is refused (exit 2), and the command's help
 * lists only the global flags it takes. Every command has an entry (a test checks).
 */
import type { ZodType } from 'zod';

/** What one command's global flags can mean. */
export interface CommandScope {
  /** A list: --all and --limit choose how much of it. */
  list?: boolean;
  /** The field paths of what it prints, for --fields (checked, and listed by --fields help). */
  fields?: () => Promise<readonly string[]>;
  /** It asks before acting: --yes answers. */
  confirms?: boolean;
  /**
   * What it prints: `data` (the default) takes every output flag; `lines` (its own lines, or
   * one JSON object per event) only -o and --json; `none` (a script, a server) none of them.
   */
  output?: 'data' | 'lines' | 'none';
  /** It reaches neither the service nor a profile (a local check, the emulator, a script): no connection flags. */
  offline?: boolean;
}

/** The global flags each part of a scope governs, by commander's attribute names. */
export const SCOPED_FLAGS = {
  list: ['all', 'limit'],
  fields: ['fields'],
  confirms: ['yes'],
  format: ['output', 'json'],
  data: ['query', 'headers', 'time'],
  connection: ['profile', 'baseUrl', 'maxRetries', 'requestTimeout'],
} as const;

async function schemaFieldsOf(load: () => Promise<ZodType>): Promise<readonly string[]> {
  const [{ schemaFields }, schema] = await Promise.all([import('../contract/schemas/fields.js'), load()]);
  return schemaFields(schema);
}

const listing = () => schemaFieldsOf(async () => (await import('../contract/schemas/listing.js')).Listing);
const product = () => schemaFieldsOf(async () => (await import('../contract/schemas/product.js')).Product);
const image = () => schemaFieldsOf(async () => (await import('../contract/schemas/product.js')).Image);
const event = () => schemaFieldsOf(async () => (await import('../contract/schemas/event.js')).Event);
const webhook = () =>
  schemaFieldsOf(async () => (await import('../contract/schemas/webhook-endpoint.js')).WebhookEndpoint);
const deleted = () => schemaFieldsOf(async () => (await import('../contract/schemas/common.js')).Deleted);
const channels = () => import('../contract/schemas/channel-account.js');
const fixed = (fields: readonly string[]) => async () => fields;

/** Every command by its path below `svc`. */
export const COMMAND_SCOPES: Readonly<Record<string, CommandScope>> = {
  'auth login': {},
  'auth status': {},
  'auth logout': {},
  'profiles list': { fields: fixed(['name', 'current', 'base_url', 'key', 'mode']) },
  'profiles use': { offline: true },
  'profiles remove': { offline: true },
  doctor: {},
  status: {
    fields: () => schemaFieldsOf(async () => (await import('../contract/schemas/status.js')).Status),
  },
  health: {
    fields: () => schemaFieldsOf(async () => (await import('../contract/schemas/status.js')).Health),
  },
  version: { fields: fixed(['version', 'node', 'platform']), offline: true },
  api: { list: true },
  'channels list': { fields: () => schemaFieldsOf(async () => (await channels()).ChannelAccountSummary) },
  'channels get': { fields: () => schemaFieldsOf(async () => (await channels()).ChannelAccount) },
  'channels policies': { fields: () => schemaFieldsOf(async () => (await channels()).Policy) },
  'channels categories': {
    list: true,
    fields: () => schemaFieldsOf(async () => (await channels()).Category),
  },
  'channels schema': {},
  'products list': { list: true, fields: product },
  'products get': { fields: product },
  'products create': { fields: product },
  'products update': { fields: product },
  'products delete': { confirms: true, fields: deleted },
  'products upsert': { confirms: true },
  'products images list': { fields: image },
  'products images add': { fields: image },
  'products images remove': { fields: image },
  'products images reorder': { fields: image },
  'files upload': {
    fields: () => schemaFieldsOf(async () => (await import('../contract/schemas/file.js')).File),
  },
  'listings list': { list: true, fields: listing },
  'listings get': { fields: listing },
  'listings publish': { confirms: true },
  'listings update': {},
  'listings resync': {},
  'listings delist': { confirms: true },
  'listings retry': { confirms: true },
  'listings errors': {
    fields: fixed([
      'error_code',
      'channel',
      'channel_account_id',
      'listings',
      'oldest_updated_at',
      'newest_updated_at',
      'retry',
    ]),
  },
  'events list': { list: true, fields: event },
  'events replay': { output: 'lines' },
  'events listen': { output: 'lines' },
  'webhooks list': { list: true, fields: webhook },
  'webhooks create': { fields: webhook },
  'webhooks update': { fields: webhook },
  'webhooks delete': { confirms: true, fields: deleted },
  'webhooks verify': { output: 'lines', offline: true },
  'emulator start': { output: 'lines', offline: true },
  completion: { output: 'none', offline: true },
  __complete: { output: 'none', offline: true },
  __docs: { output: 'none', offline: true },
};

/** The global flags (attribute names) that mean something to a command with this scope. */
export function flagsFor(scope: CommandScope): Set<string> {
  const output = scope.output ?? 'data';
  const groups: Array<keyof typeof SCOPED_FLAGS | false> = [
    scope.list === true && 'list',
    scope.fields !== undefined && 'fields',
    scope.confirms === true && 'confirms',
    output !== 'none' && 'format',
    output === 'data' && 'data',
    scope.offline !== true && 'connection',
  ];
  return new Set(groups.flatMap((group) => (group ? SCOPED_FLAGS[group] : [])));
}

/** Whether a global flag (attribute name) is one that scopes govern. */
export function isScoped(flag: string): boolean {
  return Object.values(SCOPED_FLAGS).some((flags) => (flags as readonly string[]).includes(flag));
}
