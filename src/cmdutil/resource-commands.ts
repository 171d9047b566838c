/**
 * Commands that differ only in their noun, made by one factory each: an id argument checked
 * the same way everywhere, `get` that prints one resource in full, `delete` that asks first, a
 * list without filters.
 */

import type { ApiClient } from '../client/client.js';
import { ID_PREFIXES, type IdKind } from '../contract/contract.js';
import type { Deleted } from '../contract/schemas/common.js';
import type { View } from '../output/view.js';
import type { WebTarget } from './browser.js';
import type { ArgSpec, CommandDefinition, FlagSpec, Takes } from './define.js';
import type { Deps } from './deps.js';
import { schemaFields } from './fields.js';
import { fromArray, type ListItems, printList } from './list-command.js';

/** The `<id>` argument of a resource of `kind`; an id without its prefix exits 2, naming `list`. */
export function idArg(kind: IdKind, list: string, name = 'id'): ArgSpec {
  const prefix = ID_PREFIXES[kind];
  return { name, description: `${kind} id (${prefix}…)`, id: { prefix, noun: kind, list } };
}

/** What sets one `get` apart from its siblings. */
export interface GetSpec<T> {
  /** ['orders', 'get']. */
  path: readonly string[];
  rank?: number;
  description: string;
  kind: IdKind;
  /** The command that lists them, named when an id is malformed. */
  list: string;
  fields: () => Promise<readonly string[]>;
  /** Reads the resource (importing its resource module lazily). */
  fetch: (client: ApiClient, id: string) => Promise<T>;
  examples: readonly string[];
  notes?: readonly string[];
  flags?: readonly FlagSpec[];
  /**
   * The view it is printed with, chosen before the request, so that flags it refuses send
   * nothing (default: the printer's detail view).
   */
  view?: (deps: Pick<Deps, 'io' | 'globals'>, args: Record<string, unknown>) => Promise<View<T>>;
  /** What --web opens (the command gains the flag): the resource's page on its channel. */
  web?: (item: T) => WebTarget;
  /** Prints the resource (default: the printer's detail view); may read more to say more. */
  show?: (
    item: T,
    deps: Pick<Deps, 'io' | 'client' | 'signal'>,
    args: Record<string, unknown>,
  ) => Promise<void>;
}

/** `--web` of the get commands that have a page on a channel. */
const WEB_FLAG: FlagSpec = {
  flags: '--web',
  description: 'open it on its channel in a browser; without one (or in CI) print its URL',
};

/** `svc NOUN get ID`: one resource in full. */
export function getCommand<T>(spec: GetSpec<T>): CommandDefinition<{ id: string } & Record<string, unknown>> {
  return {
    path: spec.path,
    rank: spec.rank,
    description: spec.description,
    args: [idArg(spec.kind, spec.list)],
    flags: spec.web ? [...(spec.flags ?? []), WEB_FLAG] : spec.flags,
    fields: spec.fields,
    notes: spec.notes,
    examples: spec.examples,
    async run(args, deps) {
      const view = await spec.view?.(deps, args);
      const item = await spec.fetch(await deps.client(), args.id);
      if (args.web && spec.web) return (await import('./browser.js')).openWeb(deps, spec.web(item));
      if (spec.show) await spec.show(item, deps, args);
      else await deps.io.printer.item(item, { view });
    },
  };
}

/** What sets one `delete` apart from its siblings. */
export interface DeleteSpec {
  /** ['products', 'delete']. */
  path: readonly string[];
  rank?: number;
  description: string;
  kind: IdKind;
  /** The command that lists them, named when an id is malformed. */
  list: string;
  examples: readonly string[];
  notes?: readonly string[];
  /** What a terminal is asked before deleting; built only there, so it may read the resource. */
  question: (id: string, deps: Pick<Deps, 'client'>) => string | Promise<string>;
  /** Deletes it (importing its resource module lazily), answering the service's deletion record. */
  remove: (client: ApiClient, id: string) => Promise<Deleted>;
}

/**
 * `svc NOUN delete ID`: --yes goes ahead, a terminal is asked `question`, anything else is
 * refused (exit 2, nothing sent); then the deletion record, said as "Deleted KIND ID".
 */
export function deleteCommand(spec: DeleteSpec): CommandDefinition<{ id: string }> {
  return {
    path: spec.path,
    rank: spec.rank,
    description: spec.description,
    args: [idArg(spec.kind, spec.list)],
    takes: { confirms: true },
    fields: schemaFields(async () => (await import('../contract/schemas/common.js')).Deleted),
    notes: spec.notes,
    examples: spec.examples,
    async run({ id }, deps) {
      const { confirmDestructive } = await import('./confirm.js');
      const action = { verb: 'delete', target: `${spec.kind} ${id}` };
      if (!(await confirmDestructive(deps, action, () => spec.question(id, deps)))) {
        deps.io.messages.info('Nothing deleted.');
        return;
      }
      const deleted = await spec.remove(await deps.client(), id);
      const { deletedText } = await import('../output/views/deleted.js');
      await deps.io.printer.item(deleted, { summary: (answer) => deletedText(spec.kind, answer) });
    },
  };
}

/** What sets one list without filters apart from its siblings. */
export interface ListSpec<T> {
  /** ['channels', 'list']. */
  path: readonly string[];
  rank?: number;
  description: string;
  /** The resource whose items it lists (`channels policies chac_…`): its `<id>` argument. */
  of?: { kind: IdKind; list: string };
  /** `{ list: true }` when the service pages it (--all and --limit). */
  takes?: Takes;
  fields: () => Promise<readonly string[]>;
  /**
   * Reads the items (importing its resource module lazily): the whole array the service
   * answers, or a paged list of at most `limit`; `id` is the `of` resource's.
   */
  fetch: (
    client: ApiClient,
    id: string | undefined,
    limit: number | 'all',
  ) => Promise<readonly T[] | ListItems<T>>;
  view: View<T>;
  /** What the items are called in "No … found" and a list cut short: "channel accounts". */
  noun: string;
  examples: readonly string[];
  notes?: readonly string[];
}

/** `svc NOUN list` (or `svc NOUN items ID`): every item, no filters, printed as a list. */
export function listCommand<T>(spec: ListSpec<T>): CommandDefinition<{ id?: string }> {
  return {
    path: spec.path,
    rank: spec.rank,
    description: spec.description,
    args: spec.of ? [idArg(spec.of.kind, spec.of.list)] : undefined,
    takes: spec.takes,
    fields: spec.fields,
    notes: spec.notes,
    examples: spec.examples,
    async run({ id }, deps) {
      const items = await spec.fetch(await deps.client(), id, deps.io.listLimit);
      await printList(deps, isArray(items) ? fromArray(items) : items, spec.view, spec.noun);
    },
  };
}

function isArray<T>(items: readonly T[] | ListItems<T>): items is readonly T[] {
  return Array.isArray(items);
}
