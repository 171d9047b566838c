/**
 * Which global flags mean something to each command (docs/guide.md, Global options): --all and
 * --limit to lists, --fields to commands that print the service's resources (whose fields are
 * known), --yes to commands that ask first, the output flags to commands that print data, and
 * the connection flags (--profile, --base-url, retries, timeout) to commands that reach the
 * service or a profile, and --time to commands with a time argument too, as each command's
 * definition says. A flag given to a command it means
 * nothing to is refused (exit 2), and the command's help lists only the global flags it takes.
 */
import type { CommandDefinition, Takes } from '../cmdutil/define.js';

/**
 * What one command's global flags can mean: its definition's `takes` and `fields`, and whether
 * it has a time argument (whose `today` --time utc makes UTC midnight).
 */
export type CommandScope = Takes & Pick<CommandDefinition, 'fields'> & { times?: boolean };

/** The global flags each part of a scope governs, by commander's attribute names. */
const SCOPED_FLAGS = {
  list: ['all', 'limit'],
  fields: ['fields'],
  confirms: ['yes'],
  format: ['output', 'json'],
  data: ['query', 'headers', 'time', 'excel', 'decimalComma'],
  times: ['time'],
  connection: ['profile', 'baseUrl', 'maxRetries', 'requestTimeout'],
} as const;

/** The global flags (attribute names) that mean something to a command with this scope. */
export function flagsFor(scope: CommandScope): Set<string> {
  const output = scope.output ?? 'data';
  const groups: Array<keyof typeof SCOPED_FLAGS | false> = [
    scope.list === true && 'list',
    scope.fields !== undefined && 'fields',
    scope.confirms === true && 'confirms',
    output !== 'none' && 'format',
    output === 'data' && 'data',
    scope.times === true && 'times',
    scope.offline !== true && 'connection',
  ];
  return new Set(groups.flatMap((group) => (group ? SCOPED_FLAGS[group] : [])));
}

/** Whether a global flag (attribute name) is one that scopes govern. */
export function isScoped(flag: string): boolean {
  return Object.values(SCOPED_FLAGS).some((flags) => (flags as readonly string[]).includes(flag));
}
