/** What --fields accepts for a command: the field paths of a schema, or a fixed list. */
import type { ZodType } from 'zod';

/** The field paths of the schema `load` resolves to (loaded only when --fields is given). */
export function schemaFields(load: () => Promise<ZodType>): () => Promise<readonly string[]> {
  return async () => {
    const [{ schemaFields: fieldsOf }, schema] = await Promise.all([
      import('../contract/schemas/fields.js'),
      load(),
    ]);
    return fieldsOf(schema);
  };
}

/** A fixed list of field paths (what a command prints of its own). */
export function fixedFields(fields: readonly string[]): () => Promise<readonly string[]> {
  return async () => fields;
}
