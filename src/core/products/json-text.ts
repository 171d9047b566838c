/**
 * JSON read with line numbers: the file's first syntax error as `line L column C`, and the
 * line each element of a top-level array starts on (for per-item messages and reports).
 * JSON.parse alone gives neither reliably across Node versions.
 */
import { UsageError } from '../../errors.js';

/** A syntax error at a 1-based line and column. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`line ${line} column ${column}: ${reason}`);
  }
}

/** A parsed document and, when it is an array, the line each element starts on. */
export interface ParsedJson {
  value: unknown;
  elementLines: number[];
}

/** Parses `text` (a UTF-8 BOM is ignored); throws JsonSyntaxError at the first mistake. */
export function parseJsonText(text: string): ParsedJson {
  const source = text.replace(/^\uFEFF/, '');
  const scanner = new Scanner(source);
  const offsets = scanner.document();
  const lines = lineStarts(source);
  return { value: JSON.parse(source), elementLines: offsets.map((offset) => lineOf(lines, offset)) };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) === 10) starts.push(index + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Scanner {
  private at = 0;

  constructor(private readonly text: string) {}

  /** The whole document; returns the offsets of a top-level array's elements. */
  document(): number[] {
    this.space();
    if (this.at >= this.text.length) this.fail('the file is empty; expected JSON');
    const offsets: number[] = [];
    this.value(offsets);
    this.space();
    if (this.at < this.text.length)
      this.fail(`unexpected ${this.describe()} after the end of the JSON value`);
    return offsets;
  }

  private value(topLevel?: number[]): void {
    const char = this.text[this.at];
    if (char === '{') this.object();
    else if (char === '[') this.array(topLevel);
    else if (char === '"') this.string();
    else if (char === '-' || (char >= '0' && char <= '9')) this.number();
    else if (!this.literal('true') && !this.literal('false') && !this.literal('null')) {
      this.fail(`unexpected ${this.describe()}; expected a value`);
    }
  }

  private object(): void {
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return;
    }
    for (;;) {
      if (this.text[this.at] !== '"')
        this.fail(`unexpected ${this.describe()}; expected a property name in double quotes`);
      this.string();
      this.space();
      if (this.text[this.at] !== ':')
        this.fail(`unexpected ${this.describe()}; expected ':' after the property name`);
      this.at++;
      this.space();
      this.value();
      this.space();
      const next = this.text[this.at];
      this.at++;
      if (next === '}') return;
      if (next !== ',') this.fail(`unexpected ${this.describe(-1)}; expected ',' or '}'`, -1);
      this.space();
    }
  }

  private array(offsets?: number[]): void {
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (;;) {
      offsets?.push(this.at);
      this.value();
      this.space();
      const next = this.text[this.at];
      this.at++;
      if (next === ']') return;
      if (next !== ',') this.fail(`unexpected ${this.describe(-1)}; expected ',' or ']'`, -1);
      this.space();
    }
  }

  private string(): void {
    this.at++;
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) this.fail('unterminated string');
      if (char === '"') {
        this.at++;
        return;
      }
      if (char < ' ')
        this.fail(
          char === '\n'
            ? 'unterminated string (a line break inside quotes)'
            : 'a control character inside a string',
        );
      if (char === '\\') {
        const escaped = this.text[this.at + 1];
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6)))
            this.fail('a bad \\u escape');
          this.at += 6;
          continue;
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) this.fail('a bad escape in a string');
        this.at += 2;
        continue;
      }
      this.at++;
    }
  }

  private number(): void {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail(`unexpected ${this.describe()}; expected a number`);
    this.at += match[0].length;
  }

  private literal(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at])) this.at++;
  }

  private describe(shift = 0): string {
    const char = this.text[this.at + shift];
    if (char === undefined) return 'end of file';
    if (char === '\n' || char === '\r') return 'end of line';
    return `'${char}'`;
  }

  private fail(reason: string, shift = 0): never {
    const offset = Math.min(this.at + shift, this.text.length);
    const starts = lineStarts(this.text.slice(0, offset + 1));
    const line = lineOf(starts, offset);
    throw new JsonSyntaxError(line, offset - starts[line - 1] + 1, reason);
  }
}

/** Parses a whole JSON file, or refuses it naming the line and column (nothing was sent). */
export function parseJsonFile(text: string, shownPath: string): ParsedJson {
  try {
    return parseJsonText(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new UsageError(
      `${shownPath} line ${error.line} column ${error.column}: malformed JSON: ${error.reason}; nothing was sent`,
    );
  }
}
