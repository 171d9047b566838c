import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJsonText } from '../../../../src/core/products/json-text.js';

function syntaxError(text: string): JsonSyntaxError {
  try {
    parseJsonText(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
  throw new Error('expected a syntax error');
}

describe('parseJsonText', () => {
  it('gives the line each element of a top-level array starts on', () => {
    const text = '\uFEFF[\n  {"a": 1},\n\n  {"b": [1,\n 2]}, "x", 3.5e2, true, null\n]';
    const parsed = parseJsonText(text);
    expect(parsed.value).toEqual([{ a: 1 }, { b: [1, 2] }, 'x', 350, true, null]);
    expect(parsed.elementLines).toEqual([2, 4, 5, 5, 5, 5]);
  });

  it.each([
    ['[\n {"a": 1}\n {"b": 2}\n]', 3, 2, "unexpected '{'; expected ',' or ']'"],
    ['{"a": 1,}', 1, 9, "unexpected '}'; expected a property name in double quotes"],
    ['{\n  "a": "x\n"}', 2, 10, 'unterminated string (a line break inside quotes)'],
    ['[1, 2', 1, 6, "unexpected end of file; expected ',' or ']'"],
    ['{"a": tru}', 1, 7, "unexpected 't'; expected a value"],
    ['[1] [2]', 1, 5, "unexpected '[' after the end of the JSON value"],
    ['', 1, 1, 'the file is empty; expected JSON'],
    ['{"a": "\\q"}', 1, 8, 'a bad escape in a string'],
  ])('%j: line %i column %i', (text, line, column, reason) => {
    const error = syntaxError(text);
    expect({ line: error.line, column: error.column, reason: error.reason }).toEqual({
      line,
      column,
      reason,
    });
  });

  it('agrees with JSON.parse on what is valid', () => {
    for (const text of ['"\\u00e9\\n"', '-0.5', '{"nested": {"deep": [[], {}]}}', ' 0 ']) {
      expect(parseJsonText(text).value).toEqual(JSON.parse(text));
    }
    for (const text of ['01', '1.', '+1', "'a'", '[1,]', '{"a" 1}']) {
      expect(() => JSON.parse(text)).toThrow();
      expect(() => parseJsonText(text)).toThrow(JsonSyntaxError);
    }
  });
});
