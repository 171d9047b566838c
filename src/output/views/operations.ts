/** How operations are shown. */
import type { Operation } from '../../contract/schemas/operation.js';
import type { View } from '../view.js';

/** Operations: what propagated where, and how it ended. */
export const operationsView: View<Operation> = {
  columns: [
    { header: 'ID', cell: (o) => o.id },
    { header: 'TYPE', cell: (o) => o.type ?? '', shrink: true },
    { header: 'STATUS', cell: (o) => o.status },
    { header: 'RESOURCE', cell: (o) => o.resource_id ?? '', drop: 1 },
    { header: 'RESULTS', cell: (o) => resultCounts(o), shrink: true },
    { header: 'CREATED', time: (o) => o.created_at, drop: 2 },
  ],
  fields: ['id', 'type', 'status', 'resource_type', 'resource_id', 'results', 'created_at', 'completed_at'],
};

/** "2 succeeded, 1 failed": per-status counts of an operation's results. */
function resultCounts(operation: Operation): string {
  const counts = new Map<string, number>();
  for (const result of operation.results ?? [])
    counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
}

/** "op_1 listing.update on list_2: failed" and one line per channel result. */
export function operationText(operation: Operation): string {
  const what = [operation.type, operation.resource_id ? `on ${operation.resource_id}` : '']
    .filter(Boolean)
    .join(' ');
  const head = `${operation.id}${what ? ` ${what}` : ''}: ${operation.status}${operation.completed_at ? ` (completed ${operation.completed_at})` : ''}`;
  const results = operation.results ?? [];
  if (results.length === 0) return `${head}\n  no channel results (nothing listed to propagate to)`;
  const lines = results.map((item) => {
    const target = [item.channel_account_id, item.listing_id, item.sku].filter(Boolean).join(' ');
    const error = item.error ? ` ${item.error.code}: ${item.error.message ?? ''}`.trimEnd() : '';
    return `  ${target.padEnd(40)} ${item.status}${error}`;
  });
  return [head, ...lines].join('\n');
}
