/** How a deletion is said. */
import type { Deleted } from '../../contract/schemas/common.js';

/** "Deleted product prod_1": the one line a delete prints for people. */
export function deletedText(kind: string, deleted: Deleted): string {
  return `Deleted ${kind} ${deleted.id}`;
}
