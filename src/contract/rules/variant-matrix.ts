/**
 * The dense option matrix rule (docs/service-contract.md, Variants): when any variant has options, every
 * variant has the same option names and the variants cover each combination of the values
 * in use exactly once. Pure, so the CLI checks before sending and the emulator answers 422
 * with the same words.
 */

/** The part of a variant the rule looks at. */
export interface MatrixVariant {
  sku?: string;
  options?: Record<string, string> | null;
}

/** Why a set of variants breaks the rule; `missing` lists the absent combinations. */
export interface MatrixProblem {
  /** `names`: option names differ; `duplicate`: a combination twice; `missing`: holes in the matrix. */
  kind: 'names' | 'duplicate' | 'missing';
  /** Index of the variant the problem is first seen on (for `param`). */
  index: number;
  missing: Record<string, string>[];
  message: string;
}

/** How many missing combinations a message names before it only counts the rest. */
const MISSING_SHOWN = 10;

/** `Color=Red, Size=L`: one combination in option-name order. */
function describeCombination(combo: Record<string, string>, names: readonly string[]): string {
  return names.map((name) => `${name}=${combo[name]}`).join(', ');
}

function hasOptions(variant: MatrixVariant): boolean {
  return variant.options !== undefined && variant.options !== null && Object.keys(variant.options).length > 0;
}

function label(variant: MatrixVariant, index: number): string {
  return variant.sku ? `variant ${index} (SKU ${variant.sku})` : `variant ${index}`;
}

/** The first way `variants` break the dense matrix rule, or undefined when they keep it. */
export function checkVariantMatrix(variants: readonly MatrixVariant[]): MatrixProblem | undefined {
  const first = variants.findIndex(hasOptions);
  if (first < 0) return undefined;
  const names = Object.keys(variants[first].options ?? {}).sort();
  // As JSON, so that one empty name (`[""]`) never reads as no names at all.
  const key = JSON.stringify(names);
  for (let index = 0; index < variants.length; index++) {
    const own = Object.keys(variants[index].options ?? {}).sort();
    if (JSON.stringify(own) !== key) {
      const has = own.length === 0 ? 'no options' : `options ${own.join(', ')}`;
      return {
        kind: 'names',
        index,
        missing: [],
        message: `${label(variants[index], index)} has ${has}, but ${label(variants[first], first)} has options ${names.join(', ')}; every variant needs the same option names`,
      };
    }
  }
  const values = names.map((name) => [
    ...new Set(variants.map((v) => (v.options as Record<string, string>)[name])),
  ]);
  const seen = new Map<string, number>();
  for (let index = 0; index < variants.length; index++) {
    const options = variants[index].options as Record<string, string>;
    const combo = names.map((name) => options[name]).join('\u0000');
    const earlier = seen.get(combo);
    if (earlier !== undefined) {
      return {
        kind: 'duplicate',
        index,
        missing: [],
        message: `${label(variants[index], index)} repeats the combination ${describeCombination(options, names)} of ${label(variants[earlier], earlier)}; each combination appears once`,
      };
    }
    seen.set(combo, index);
  }
  const missing: Record<string, string>[] = [];
  for (const combo of combinations(names, values)) {
    if (!seen.has(names.map((name) => combo[name]).join('\u0000'))) missing.push(combo);
  }
  if (missing.length === 0) return undefined;
  const shown = missing.slice(0, MISSING_SHOWN).map((combo) => `(${describeCombination(combo, names)})`);
  const more = missing.length > MISSING_SHOWN ? ` and ${missing.length - MISSING_SHOWN} more` : '';
  return {
    kind: 'missing',
    index: 0,
    missing,
    message: `the variants do not cover every option combination: missing ${shown.join(', ')}${more}`,
  };
}

function combinations(names: readonly string[], values: readonly string[][]): Record<string, string>[] {
  let combos: Record<string, string>[] = [{}];
  names.forEach((name, position) => {
    combos = combos.flatMap((combo) => values[position].map((value) => ({ ...combo, [name]: value })));
  });
  return combos;
}
