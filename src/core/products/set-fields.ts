/**
 * `products update --set k=v`: product fields from the command line. Dot paths reach nested
 * fields (`weight.value=1.5`), `tags=a,b` gives a list, `vat_rate` is a number, everything
 * else a string. Variants and images are arrays that replace the product's whole set, so
 * they come from --file or `svc products images`, never from a single --set.
 */
import { UsageError } from '../../errors.js';
import { buildFields } from '../api/fields.js';
import { PRODUCT_FIELDS } from './check.js';

const WHOLE_ARRAYS: Record<string, string> = {
  variants: "variants replace the product's whole variant set: put them in a JSON file and use --file",
  images: 'use svc products images add | remove | reorder',
};
const NUMBERS = new Set(['vat_rate']);

/** The update body the `--set` assignments describe; throws UsageError naming a bad one. */
export function parseSetFields(assignments: readonly string[]): Record<string, unknown> {
  const args = assignments.map((assignment) => {
    const eq = assignment.indexOf('=');
    if (eq <= 0)
      throw new UsageError(`--set "${assignment}" needs the form field=value, e.g. --set title="Blue mug"`);
    const key = assignment.slice(0, eq);
    const [top, ...rest] = key.split('.');
    const name = top.replace(/\[.*$/, '');
    if (WHOLE_ARRAYS[name]) throw new UsageError(`--set cannot change ${name}: ${WHOLE_ARRAYS[name]}`);
    if (!PRODUCT_FIELDS.includes(name)) {
      throw new UsageError(
        `--set ${name}: unknown product field; fields are ${PRODUCT_FIELDS.filter((f) => !WHOLE_ARRAYS[f]).join(', ')}`,
      );
    }
    const bracketed = `${top}${rest.map((part) => `[${part}]`).join('')}`;
    return { assignment: `${bracketed}=${assignment.slice(eq + 1)}`, typed: false };
  });
  const body = buildFields(args, () => '');
  for (const name of NUMBERS) {
    const value = body[name];
    // Left as text when it is not a number, so the schema check names it.
    if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) body[name] = Number(value);
  }
  if (typeof body.tags === 'string') {
    body.tags = body.tags
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
  }
  return body;
}
