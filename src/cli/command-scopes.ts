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

const order = () => schemaFieldsOf(async () => (await import('../contract/schemas/order.js')).Order);
const fixed = (fields: readonly string[]) => async () => fields;

/** Every command by its path below `svc`. */
export const COMMAND_SCOPES: Readonly<Record<string, CommandScope>> = {
  'inventory push': { confirms: true },
  'inventory set': {
    fields: () =>
      schemaFieldsOf(async () => (await import('../contract/schemas/inventory.js')).InventoryItem),
  },
  'inventory export': { list: true, fields: fixed(['sku', 'quantity', 'price']) },
  'inventory diff': {},
  'orders list': { list: true, fields: order },
  'orders get': { fields: order },
  'orders fulfill': { confirms: true },
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
