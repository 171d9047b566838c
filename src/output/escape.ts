/**
 * Text from the service or a file never drives the terminal: control characters (C0, DEL,
 * C1) are shown as escapes in human output, and escaped losslessly in JSON.
 */

// Cc is C0, DEL and C1 (0x9b is a CSI); multi-line human text keeps its line breaks.
const CONTROL = /\p{Cc}/gu;
const CONTROL_BUT_NEWLINE = /(?!\n)\p{Cc}/gu;
const NAMED: Record<string, string> = {
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\u0007': '\\a',
  '\u001b': '\\e',
};

function escapeOne(char: string): string {
  return NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/** One line for people: every control character escaped (`\e`, `\n`, `\x9b`). */
export function escapeLine(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

/** Text for people that may span lines: control characters escaped, line breaks kept. */
export function escapeText(text: string): string {
  return text.replace(CONTROL_BUT_NEWLINE, escapeOne);
}

/**
 * JSON.stringify, with DEL and C1 written as \u escapes too (it escapes C0 itself; the only raw
 * control left in its output is the indentation's line break): the same data, safe on a terminal.
 */
export function jsonText(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(
    CONTROL_BUT_NEWLINE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
