/**
 * Commands that differ only in their noun, made by one factory each: an id argument checked
 * the same way everywhere, `get` that prints one resource in full.
 */
import type { ApiClient } from '../client/client.js';
import { ID_PREFIXES, type IdKind } from '../contract/contract.js';
import type { View } from '../output/view.js';
import type { ArgSpec, CommandDefinition, FlagSpec } from './define.js';
import type { Deps } from './deps.js';

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
  /** Prints the resource (default: the printer's detail view). */
  show?: (item: T, deps: Pick<Deps, 'io'>, args: Record<string, unknown>) => Promise<void>;
}

/** `svc NOUN get ID`: one resource in full. */
export function getCommand<T>(spec: GetSpec<T>): CommandDefinition<{ id: string } & Record<string, unknown>> {
  return {
    path: spec.path,
    rank: spec.rank,
    description: spec.description,
    args: [idArg(spec.kind, spec.list)],
    flags: spec.flags,
    fields: spec.fields,
    notes: spec.notes,
    examples: spec.examples,
    async run(args, deps) {
      const view = await spec.view?.(deps, args);
      const item = await spec.fetch(await deps.client(), args.id);
      if (spec.show) await spec.show(item, deps, args);
      else await deps.io.printer.item(item, { view });
    },
  };
}
