/**
 * Checks of a product body before anything is sent: the shared zod schema, at most 20
 * images, SKUs unique within the product, and the dense option matrix. Every problem is
 * listed, each with the field it is about, so a file can be fixed in one pass.
 */
import type { z } from 'zod';
import { IMAGES_PER_PRODUCT_MAX } from '../../contract/contract.js';
import { checkVariantMatrix } from '../../contract/rules/variant-matrix.js';
import { ProductInput, ProductUpdate } from '../../contract/schemas/product.js';

/** One problem of a body; `path` is the field as the API names it (`variants[2].price`). */
export interface BodyProblem {
  path: string;
  message: string;
}

/** The checked body, or what is wrong with it. */
export type BodyCheck<T> = { ok: true; value: T } | { ok: false; problems: BodyProblem[] };

/** The fields a product body may carry (PATCH adds `expected_updated_at`). */
export const PRODUCT_FIELDS = Object.keys(ProductInput.shape);

/** `items[3].price` from a zod path. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out;
}

/** Checks a create (or upsert item) body. */
export function checkProductInput(raw: unknown): BodyCheck<ProductInput> {
  return checkBody(ProductInput, raw);
}

/** Checks an update body. */
export function checkProductUpdate(raw: unknown): BodyCheck<ProductUpdate> {
  return checkBody(ProductUpdate, raw);
}

function checkBody<T extends ProductInput | ProductUpdate>(schema: z.ZodType<T>, raw: unknown): BodyCheck<T> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problems: [{ path: '', message: 'a product must be a JSON object' }] };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => ({
        path: fieldPath(issue.path),
        // zod says "expected string, received undefined" for a field that is simply missing.
        message: /received undefined$/.test(issue.message) ? 'required' : issue.message,
      })),
    };
  }
  const problems = semanticProblems(parsed.data);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: parsed.data };
}

/** What the schema cannot see: the image limit, SKUs twice in one product, the option matrix. */
function semanticProblems(body: Partial<ProductInput>): BodyProblem[] {
  const problems: BodyProblem[] = [];
  if (body.images && body.images.length > IMAGES_PER_PRODUCT_MAX) {
    problems.push({
      path: 'images',
      message: `${body.images.length} images; a product holds at most ${IMAGES_PER_PRODUCT_MAX}`,
    });
  }
  if (body.variants) {
    const first = new Map<string, number>();
    body.variants.forEach((variant, index) => {
      const earlier = first.get(variant.sku);
      if (earlier === undefined) first.set(variant.sku, index);
      else
        problems.push({
          path: `variants[${index}].sku`,
          message: `SKU ${variant.sku} is already variants[${earlier}]`,
        });
    });
    const matrix = checkVariantMatrix(body.variants);
    if (matrix)
      problems.push({
        path: matrix.kind === 'missing' ? 'variants' : `variants[${matrix.index}]`,
        message: matrix.message,
      });
  }
  return problems;
}

/** "variants[2].price: Invalid input" or just the message when the path is empty. */
export function describeProblem(problem: BodyProblem): string {
  return problem.path ? `${problem.path}: ${problem.message}` : problem.message;
}
