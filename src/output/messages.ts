/**
 * Everything that is not a result goes to stderr through here: notes, warnings, errors, debug,
 * with control characters escaped (an error is one line, so its line breaks too).
 */
import { escapeLine, escapeText, jsonText } from './escape.js';
import type { IO } from './io.js';

/** Lines for people on stderr; `quiet` keeps only warnings and errors. */
export class Messages {
  constructor(
    private readonly io: IO,
    private readonly options: { quiet: boolean; color: boolean },
  ) {}

  /** A progress note or hint; dropped with --quiet. */
  info(line: string): void {
    if (!this.options.quiet) this.io.stderr.write(`${escapeText(line)}\n`);
  }

  /** Something the user should know even with --quiet. */
  warn(line: string): void {
    this.io.stderr.write(`${this.paint('warning:', 33)} ${escapeText(line)}\n`);
  }

  /** The one line that says why the command failed. */
  error(line: string): void {
    this.io.stderr.write(`${this.paint('error:', 31)} ${escapeLine(line)}\n`);
  }

  /** Extra lines under an error (each bad CSV line), indented. */
  detail(line: string): void {
    this.io.stderr.write(`  ${escapeLine(line)}\n`);
  }

  /** A machine-readable error, for --json. */
  json(value: unknown): void {
    this.io.stderr.write(`${jsonText(value)}\n`);
  }

  /** Raw debug output (already redacted by the transport). */
  debug(line: string): void {
    this.io.stderr.write(`${this.paint(escapeText(line), 2)}\n`);
  }

  private paint(text: string, code: number): string {
    return this.options.color && this.io.stderrIsTTY ? `\u001b[${code}m${text}\u001b[0m` : text;
  }
}
