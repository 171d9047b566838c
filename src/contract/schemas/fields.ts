/**
 * The fields of a resource as --fields names them, read from its zod schema: every key, nested
 * ones as dot paths (`buyer.address.city`), the keys of an array's objects after the array's
 * name (`lines.sku`). What a schema lists is what the service documents; `svc api` shows the rest.
 */
import type { ZodType } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, ZodType>;
  innerType?: ZodType;
  element?: ZodType;
  options?: ZodType[];
  in?: ZodType;
  getter?: () => ZodType;
}

const defOf = (schema: ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every field path of `schema`, parents before their children, in the schema's order. */
export function schemaFields(schema: ZodType, prefix = '', depth = 0): string[] {
  const shape = objectShape(schema);
  if (!shape || depth > 6) return [];
  const fields: string[] = [];
  for (const [key, child] of Object.entries(shape)) {
    const path = prefix ? `${prefix}.${key}` : key;
    fields.push(path, ...(isRecord(child) ? [`${path}.*`] : schemaFields(child, path, depth + 1)));
  }
  return fields;
}

/** Whether `field` names a path of `fields`, `*` standing for any key of an open map (`attributes.*`). */
export function knownField(field: string, fields: readonly string[]): boolean {
  if (fields.includes(field)) return true;
  return fields.some(
    (known) =>
      known.endsWith('.*') && field.startsWith(known.slice(0, -1)) && field.length > known.length - 1,
  );
}

/** Whether the schema is an open map (`z.record`), seen through optional and nullable. */
function isRecord(schema: ZodType): boolean {
  const def = defOf(schema);
  if (def.type === 'record') return true;
  return (
    ['optional', 'nullable'].includes(def.type) && def.innerType !== undefined && isRecord(def.innerType)
  );
}

/** The shape of an object schema, seen through optional, nullable, arrays, unions and pipes. */
function objectShape(schema: ZodType): Record<string, ZodType> | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return def.shape;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return def.innerType && objectShape(def.innerType);
    case 'array':
      return def.element && objectShape(def.element);
    case 'pipe':
      return def.in && objectShape(def.in);
    case 'lazy':
      return def.getter && objectShape(def.getter());
    case 'union': {
      const shapes = (def.options ?? []).map(objectShape).filter((shape) => shape !== undefined);
      return shapes.length > 0 ? Object.assign({}, ...shapes) : undefined;
    }
    default:
      return undefined;
  }
}
