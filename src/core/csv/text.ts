/**
 * Text that is not what it seems, in the files bulk commands read: bytes that are not UTF-8
 * (a Latin-1 file from Excel on Windows), and keys (SKUs, order ids) holding control or
 * invisible characters or edge whitespace, which look right on screen and fail per item.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { type InputProblem, UsageError } from '../../errors.js';

/** How the bytes of an input file can be read. `latin1` is Windows-1252, as the Web's decoders read it. */
export const ENCODINGS = ['utf-8', 'latin1'] as const;
export type TextEncoding = (typeof ENCODINGS)[number];

/** `--encoding` names and what each reads as. */
const ENCODING_NAMES: Record<string, TextEncoding> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  latin1: 'latin1',
  'latin-1': 'latin1',
  'iso-8859-1': 'latin1',
  'windows-1252': 'latin1',
  cp1252: 'latin1',
};

/** The encoding `--encoding NAME` means, or undefined for a name it does not know. */
function encodingNamed(name: string): TextEncoding | undefined {
  return ENCODING_NAMES[name.trim().toLowerCase()];
}

/** What to say when a file is not UTF-8. */
export const NOT_UTF8_HINT =
  'the file is not UTF-8: if it was saved as plain "CSV" by Excel on Windows, run again with --encoding latin1 (or save it as "CSV UTF-8")';

/** A whole (small) file as text: UTF-8 checked, its bad lines as problems; or decoded from `encoding`. */
export async function readText(
  path: string,
  encoding: TextEncoding = 'utf-8',
): Promise<{ text: string; problems: InputProblem[] }> {
  const bytes = await readFile(path);
  if (encoding !== 'utf-8') return { text: new TextDecoder(encoding).decode(bytes), problems: [] };
  const watch = new Utf8Watch();
  watch.onBytes(bytes);
  return { text: bytes.toString('utf8'), problems: await watch.problems(path) };
}

/** `--encoding NAME` as the encoding to read with; UsageError for a name it does not know. */
export function parseEncoding(name: string | undefined): TextEncoding {
  if (name === undefined) return 'utf-8';
  const encoding = encodingNamed(name);
  if (!encoding)
    throw new UsageError(
      `--encoding takes utf-8 or latin1 (Windows-1252, as Excel on Windows saves "CSV"); got "${name}"`,
    );
  return encoding;
}

/** Bytes Windows-1252 leaves undefined, and NUL (UTF-16 or binary): a file holding one is not Windows-1252 text. */
const NOT_CP1252 = new Set([0x00, 0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/**
 * How a file's bytes read when no --encoding is given: `utf-8` when they are UTF-8 (or when they
 * are neither, so that the bad lines are named); `latin1` (Windows-1252) when they are not UTF-8
 * but are Windows-1252, as Excel on Windows saves "CSV". Reads the file once, natively, and
 * once more only when it is not UTF-8.
 */
export async function sniffEncoding(path: string): Promise<TextEncoding> {
  let carry: Buffer = Buffer.alloc(0);
  let utf8 = true;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const cut = bytes.length - incompleteTail(bytes);
    carry = Buffer.from(bytes.subarray(cut));
    if (!isUtf8(bytes.subarray(0, cut))) {
      utf8 = false;
      break;
    }
  }
  if (utf8 && carry.length === 0) return 'utf-8';
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>)
    for (const byte of chunk) if (NOT_CP1252.has(byte)) return 'utf-8';
  return 'latin1';
}

/** A stream turning `encoding` bytes into UTF-8 bytes, for a parser that reads UTF-8. */
export function toUtf8(encoding: TextEncoding): Transform | undefined {
  if (encoding === 'utf-8') return undefined;
  const decoder = new TextDecoder(encoding);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
    },
    flush(callback) {
      callback(null, Buffer.from(decoder.decode(), 'utf8'));
    },
  });
}

/**
 * Watches a file's bytes, as they are read, for sequences that are not UTF-8. The fast path
 * is one native check per chunk; only a chunk that fails is walked byte by byte, and the
 * lines of bad bytes are counted afterwards, only when there are some.
 */
export class Utf8Watch {
  /** Absolute offsets of the first byte of each invalid sequence. */
  readonly badOffsets: number[] = [];
  private carry: Buffer = Buffer.alloc(0);
  private offset = 0;

  /** Feed every chunk of the file in order. */
  readonly onBytes = (chunk: Buffer): void => {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const start = this.offset - this.carry.length;
    const cut = bytes.length - incompleteTail(bytes);
    this.carry = Buffer.from(bytes.subarray(cut));
    this.offset += chunk.length;
    const whole = bytes.subarray(0, cut);
    if (!isUtf8(whole)) for (const at of invalidOffsets(whole)) this.badOffsets.push(start + at);
  };

  /** Call after the last chunk: a sequence cut off by the end of the file is invalid too. */
  end(): void {
    if (this.carry.length > 0) this.badOffsets.push(this.offset - this.carry.length);
    this.carry = Buffer.alloc(0);
  }

  /** One problem per line holding invalid bytes (reads the file again, only when there are some). */
  async problems(path: string): Promise<InputProblem[]> {
    this.end();
    if (this.badOffsets.length === 0) return [];
    const lines = await linesOfOffsets(path, this.badOffsets);
    const problems: InputProblem[] = [];
    for (const [line, byte] of lines) {
      problems.push({
        line,
        code: 'invalid_utf8',
        message: `not UTF-8 text (byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')})`,
      });
    }
    return problems;
  }
}

/** How many bytes at the end of `bytes` start a UTF-8 sequence that the next chunk completes. */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}

/** Offsets of the first byte of every invalid sequence (the slow path, for a chunk that failed). */
function invalidOffsets(bytes: Buffer): number[] {
  const bad: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      bad.push(i);
      i++;
    } else i += length;
  }
  return bad;
}

/** Length of the valid UTF-8 sequence at `i`, or 0 (overlongs, surrogates and > U+10FFFF are invalid). */
function sequenceLength(bytes: Buffer, i: number): number {
  const first = bytes[i];
  if (first < 0x80) return 1;
  const continuation = (at: number, low = 0x80, high = 0xbf) =>
    at < bytes.length && bytes[at] >= low && bytes[at] <= high;
  if (first >= 0xc2 && first <= 0xdf) return continuation(i + 1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    const low = first === 0xe0 ? 0xa0 : 0x80;
    const high = first === 0xed ? 0x9f : 0xbf;
    return continuation(i + 1, low, high) && continuation(i + 2) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const low = first === 0xf0 ? 0x90 : 0x80;
    const high = first === 0xf4 ? 0x8f : 0xbf;
    return continuation(i + 1, low, high) && continuation(i + 2) && continuation(i + 3) ? 4 : 0;
  }
  return 0;
}

/**
 * The physical line (header = 1) of each offset, with the byte found there: line breaks are
 * `\r\n`, `\n` and a lone `\r`, as a person sees them. Offsets must be ascending.
 */
export async function linesOfOffsets(path: string, offsets: readonly number[]): Promise<Map<number, number>> {
  const lines = new Map<number, number>();
  let line = 1;
  let position = 0;
  let next = 0;
  let afterCr = false;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length && next < offsets.length; i++, position++) {
      const byte = chunk[i];
      if (afterCr && byte !== 0x0a) line++;
      afterCr = byte === 0x0d;
      if (byte === 0x0a) line++;
      while (next < offsets.length && offsets[next] === position) {
        if (!lines.has(line)) lines.set(line, byte);
        next++;
      }
    }
    if (next >= offsets.length) break;
  }
  return lines;
}

/**
 * Row problems on lines that are not UTF-8 say less than the encoding problem itself: those go.
 * `usedOnly` (a file whose every used cell is checked, so that a bad byte in one is a row
 * problem already): bad bytes on a line without one are in a column svc ignores, and never stop
 * a run.
 */
export function withEncodingProblems(
  rows: InputProblem[],
  allEncoding: InputProblem[],
  options: { usedOnly?: boolean } = {},
): InputProblem[] {
  const rowLines = new Set(rows.map((problem) => problem.line));
  const encoding = options.usedOnly
    ? allEncoding.filter((problem) => rowLines.has(problem.line))
    : allEncoding;
  if (encoding.length === 0) return rows;
  const badLines = new Set(encoding.map((problem) => problem.line));
  return [...encoding, ...rows.filter((problem) => !badLines.has(problem.line))].sort(
    (a, b) => a.line - b.line,
  );
}

/** Names of the characters people paste without seeing. */
const CHARACTER_NAMES: Record<number, string> = {
  0: 'NUL',
  9: 'tab',
  10: 'line feed',
  13: 'carriage return',
  160: 'no-break space',
  173: 'soft hyphen',
  8203: 'zero-width space',
  8204: 'zero-width non-joiner',
  8205: 'zero-width joiner',
  8206: 'left-to-right mark',
  8207: 'right-to-left mark',
  8288: 'word joiner',
  8239: 'narrow no-break space',
  65279: 'byte order mark',
  65533: 'replacement character, left by a wrong encoding',
};

/** Control and format characters, line and paragraph separators, spaces other than U+0020, and U+FFFD. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\uFFFD]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

/**
 * What is wrong with a key's text (a SKU, an order id), or undefined: control or invisible
 * characters anywhere, or whitespace at either end. Keys compare exactly, so `" X "` is not
 * `"X"`, and the service would answer "not found" for each.
 */
export function keyTextProblem(what: string, value: string): string | undefined {
  if (isPlainKey(value)) return undefined;
  const hidden = HIDDEN.exec(value);
  if (hidden) {
    const code = hidden[0].codePointAt(0) ?? 0;
    const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    const name = CHARACTER_NAMES[code];
    return `${what} ${visible(value)} holds an invisible or control character (${hex}${name ? ` ${name}` : ''}) at position ${hidden.index + 1}; retype it or clean the file`;
  }
  if (/^\s|\s$/.test(value)) {
    return `${what} ${visible(value)} has spaces at its start or end; remove them (keys compare exactly)`;
  }
  return undefined;
}

/**
 * Whether a key is printable ASCII with no space at either end: nothing keyTextProblem looks
 * for can be in it, and a loop over its characters costs a tenth of the two regular expressions
 * (a million-row file checks a million keys).
 */
export function isPlainKey(value: string): boolean {
  const last = value.length - 1;
  if (last < 0 || value.charCodeAt(0) === 0x20 || value.charCodeAt(last) === 0x20) return false;
  for (let i = 0; i <= last; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x20 || unit > 0x7e) return false;
  }
  return true;
}

/** A value in quotes with its hidden characters written as \u{…}, so a message shows them. */
function visible(value: string): string {
  return `"${value.replace(HIDDEN_ALL, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`)}"`;
}
