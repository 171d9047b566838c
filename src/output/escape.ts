/**
 * Text from the service or a file never drives the terminal: control characters (C0, DEL,
 * C1) and bidi overrides and isolates are shown as escapes in human output, and escaped
 * losslessly in JSON. The boundary (boundary.ts) decides where each applies.
 */

// Cc is C0, DEL and C1 (0x9b is a CSI); U+202A–U+202E and U+2066–U+2069 reorder what follows
// them (a buyer name could reverse what a table shows). Multi-line human text keeps its breaks.
const UNSAFE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;
const UNSAFE_BUT_NEWLINE = /(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;
const NAMED: Record<string, string> = {
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\u0007': '\\a',
  '\u001b': '\\e',
};

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  if (code > 0xff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return NAMED[char] ?? `\\x${code.toString(16).padStart(2, '0')}`;
}

/** One line for people: every control and bidi character escaped (`\e`, `\n`, `\x9b`, `\u202e`). */
export function escapeLine(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** Text for people that may span lines: control and bidi characters escaped, line breaks kept. */
export function escapeText(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, escapeOne);
}

/**
 * JSON.stringify, with DEL, C1 and bidi characters written as \u escapes too (it escapes C0
 * itself; the only raw control left in its output is the indentation's line break): the same
 * data, safe on a terminal.
 */
export function jsonText(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(
    UNSAFE_BUT_NEWLINE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Text svc composed itself, its own colours included: written as it is, where a plain string
 * would be escaped whole. Data goes in only through `paint` and `styledLines`, escaped on the way.
 */
export class Styled {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** Lines of Styled text joined by line breaks. */
export function styledLines(lines: ReadonlyArray<Styled | string>): Styled {
  return new Styled(lines.map((line) => (line instanceof Styled ? line.text : escapeLine(line))).join('\n'));
}

/** `text` in SGR colour `code` when `color`, as it is otherwise. */
export function paint(code: number, text: string | Styled, color: boolean): Styled {
  const inner = text instanceof Styled ? text.text : escapeLine(text);
  return new Styled(color ? `\u001b[${code}m${inner}\u001b[0m` : inner);
}

/** What reaches the terminal of a text for people: Styled as composed, a plain string escaped. */
export function terminalText(text: string | Styled): string {
  return text instanceof Styled ? text.text : escapeText(text);
}
