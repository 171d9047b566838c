/** JSON as people read it on a terminal: indented, keys and values coloured unless NO_COLOR. */
import { jsonText } from './escape.js';

const KEY = 34;
const STRING = 32;
const LITERAL = 33;
const NULL = 90;

/** `value` indented by two spaces; coloured as jq and gh colour it when `color`. */
export function prettyJson(value: unknown, color: boolean): string {
  if (!color) return jsonText(value, 2);
  return paint(value, '');
}

function paint(value: unknown, indent: string): string {
  if (value === null || value === undefined) return sgr(NULL, 'null');
  if (typeof value === 'string') return sgr(STRING, jsonText(value));
  if (typeof value === 'number' || typeof value === 'boolean') return sgr(LITERAL, jsonText(value));
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${paint(item, inner)}`).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, v]) => `${inner}${sgr(KEY, jsonText(key))}: ${paint(v, inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

function sgr(code: number, text: string): string {
  return `\u001b[${code}m${text}\u001b[0m`;
}

/** Every line of `text` after the first indented by `indent` (an item nested in a list). */
export function indentAfterFirst(text: string, indent: string): string {
  return text.replaceAll('\n', `\n${indent}`);
}
