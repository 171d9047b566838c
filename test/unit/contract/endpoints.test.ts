// The endpoint table without zod (src/contract/endpoints.ts) is the table's: the same routing
// facts, and answer checks that say yes exactly when the result schema they come from does: for
// every operation, on values grown from its schema, valid ones and ones broken at any depth (a
// required field gone, a field of the wrong type, null, a number that is not an integer,
// unknown fields and values).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ENDPOINTS } from '../../../src/contract/endpoints.js';
import { OPERATIONS } from '../../../src/contract/operations.js';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  values?: unknown[];
  checks?: unknown[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A key that is absent from its object (an optional or a required one left out). */
const ABSENT = Symbol('absent');

/** Values that sit on the edges of what the result schemas take. */
const EDGES = fc.constantFrom<unknown>(
  null,
  undefined,
  '',
  0,
  -0,
  1.5,
  2 ** 53,
  -(2 ** 53) + 1,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  {},
  '3.1.0',
  { constructor: 'x' },
);

/** Values grown from `schema`: mostly what it takes, sometimes broken at this level. */
function grown(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const valid = validOf(schema, depth);
  return fc.oneof(
    { weight: 40, arbitrary: valid },
    { weight: 1, arbitrary: EDGES },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

function validOf(schema: z.ZodType, depth: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return fc.string({ maxLength: 4 });
    case 'boolean':
      return fc.boolean();
    case 'number':
      return def.checks?.length
        ? fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constant(Number.MAX_SAFE_INTEGER))
        : fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'optional':
      return fc.oneof(fc.constant(undefined), grown(def.innerType!, depth));
    case 'nullable':
      return fc.oneof(fc.constant(null), grown(def.innerType!, depth));
    case 'array':
      return depth > 4 ? fc.constant([]) : fc.array(grown(def.element!, depth + 1), { maxLength: 3 });
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 3 }), grown(def.valueType!, depth + 1), { maxKeys: 3 });
    case 'object': {
      const fields = Object.entries(def.shape ?? {}).map(([key, child]) =>
        fc
          .oneof(
            { weight: 60, arbitrary: depth > 4 ? fc.constant(ABSENT) : grown(child, depth + 1) },
            { weight: 1, arbitrary: fc.constant(ABSENT) },
          )
          .map((value) => [key, value] as const),
      );
      const unknown = fc.dictionary(
        fc.string({ maxLength: 6 }).filter((key) => !(key in (def.shape ?? {}))),
        fc.jsonValue({ maxDepth: 1 }),
        { maxKeys: 2 },
      );
      return fc.tuple(fc.tuple(...fields), unknown).map(([known, extra]) => {
        const object: Record<string, unknown> = {};
        for (const [key, value] of known) if (value !== ABSENT) object[key] = value;
        // Unknown fields are kept wherever they come (JSON.parse gives own properties, even __proto__).
        return Object.assign(JSON.parse(JSON.stringify(extra)) as object, object);
      });
    }
    default:
      throw new Error(`no arbitrary for a zod ${def.type}`);
  }
}

const withResults = Object.values(OPERATIONS).filter(
  (operation): operation is typeof operation & { result: z.ZodType } =>
    'result' in operation && !!operation.result,
);

describe('the endpoint table without zod', () => {
  it('is what scripts/endpoints.mjs makes of the endpoint table now (npm run build writes it)', async () => {
    const script = new URL('../../../scripts/endpoints.mjs', import.meta.url).href;
    const { endpointsText, ENDPOINTS_FILE } = (await import(script)) as {
      endpointsText: () => Promise<string>;
      ENDPOINTS_FILE: string;
    };
    expect(readFileSync(ENDPOINTS_FILE, 'utf8'), 'src/contract/endpoints.ts: run npm run build').toBe(
      await endpointsText(),
    );
  });

  it("holds every operation with the table's routing facts, and a check for each result schema", () => {
    const facts = ['id', 'method', 'path', 'scope', 'quota', 'repeatable', 'paging'] as const;
    for (const operation of Object.values(OPERATIONS)) {
      const endpoint = ENDPOINTS[operation.id as keyof typeof ENDPOINTS];
      const { passes, ...routing } = endpoint;
      const expected = Object.fromEntries(
        facts
          .filter((fact) => fact in operation)
          .map((fact) => [fact, operation[fact as keyof typeof operation]]),
      );
      expect(routing, operation.id).toEqual(expected);
      expect(typeof passes, operation.id).toBe('result' in operation ? 'function' : 'undefined');
    }
    expect(Object.keys(ENDPOINTS)).toEqual(Object.keys(OPERATIONS));
  });

  for (const operation of withResults) {
    const passes = ENDPOINTS[operation.id as keyof typeof ENDPOINTS].passes!;
    const seen = { accepted: 0, refused: 0 };
    it(`${operation.id}: says yes exactly when its zod result schema does`, () => {
      fc.assert(
        fc.property(grown(operation.result), (value) => {
          const zodSays = operation.result.safeParse(value).success;
          seen[zodSays ? 'accepted' : 'refused'] += 1;
          expect(passes(value)).toBe(zodSays);
        }),
        { numRuns: 300 },
      );
    });
    it(`${operation.id}: the values tried held both answers zod takes and answers it refuses`, () => {
      expect(seen.accepted).toBeGreaterThan(10);
      expect(seen.refused).toBeGreaterThan(10);
    });
  }

  it('on any JSON value, each check agrees with its schema', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        for (const operation of withResults) {
          const { passes } = ENDPOINTS[operation.id as keyof typeof ENDPOINTS];
          expect(passes!(value)).toBe(operation.result.safeParse(value).success);
        }
      }),
      { numRuns: 300 },
    );
  });
});
