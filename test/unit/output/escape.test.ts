import { describe, expect, it } from 'vitest';
import { escapeLine, escapeText, jsonText } from '../../../src/output/escape.js';

describe('escapeLine and escapeText', () => {
  it('shows every control character as an escape, named where there is a common name', () => {
    expect(escapeLine('a\u001b[31mb\u0007c\td\re\nf\u0000g\u007fh\u009bi')).toBe(
      'a\\e[31mb\\ac\\td\\re\\nf\\x00g\\x7fh\\x9bi',
    );
  });

  it('escapeText keeps line breaks (multi-line text for people) and escapes the rest', () => {
    expect(escapeText('one\ntwo\u001b]0;title\u0007')).toBe('one\ntwo\\e]0;title\\a');
  });

  it('leaves printable text alone, accents, emoji and right-to-left scripts included', () => {
    const text = 'Café – 東京 🍵 שלום \\ "quoted"';
    expect(escapeLine(text)).toBe(text);
  });
});

describe('jsonText', () => {
  it('writes DEL and C1 characters as \\u escapes, so the JSON parses back to the same data', () => {
    const value = { title: 'a\u009bb\u007fc\u001bd' };
    const text = jsonText(value);
    expect(text).toBe('{"title":"a\\u009bb\\u007fc\\u001bd"}');
    expect(JSON.parse(text)).toEqual(value);
    expect(jsonText(value, 2)).toContain('\n  "title"');
  });
});
