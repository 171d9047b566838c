/**
 * Text from the service or a file never drives the terminal: control characters (C0, DEL,
 * C1) are shown as escapes in human output, and escaped losslessly in JSON.
 */

// C0 but the line break, which multi-line human text keeps, plus DEL and C1 (0x9b is a CSI).
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\u0007': '\\a', '\u001b': '\\e' };

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

// JSON.stringify escapes C0 already; DEL and C1 it leaves raw.
const RAW_IN_JSON = /[\u007f-\u009f]/g;

/** JSON.stringify, with DEL and C1 written as \u escapes too: the same data, safe on a terminal. */
export function jsonText(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(
    RAW_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
