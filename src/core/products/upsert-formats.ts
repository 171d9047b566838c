/** The formats `products upsert` reads (light: the command's flags name them at start-up). */
export const UPSERT_FORMATS = ['json', 'jsonl', 'csv'] as const;
export type UpsertFormat = (typeof UPSERT_FORMATS)[number];
