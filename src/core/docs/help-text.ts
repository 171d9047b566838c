/**
 * What a command's `--help` says after its flags, read as blocks: paragraphs of prose, and
 * indented blocks (examples, file formats) with the line that introduces them.
 */

/** A paragraph of prose, its lines as written. */
interface ProseBlock {
  kind: 'prose';
  lines: string[];
}

/** Indented lines (`Examples:` and its commands), shown as written; `heading` is the line above them. */
export interface CodeBlock {
  kind: 'code';
  heading?: string;
  lines: string[];
}

export type HelpBlock = ProseBlock | CodeBlock;

/**
 * Splits help text into blocks at blank lines. A paragraph whose lines are all indented, or
 * whose first line ends in a colon and the rest are indented, is code; the rest is prose.
 */
export function helpBlocks(text: string): HelpBlock[] {
  const blocks: HelpBlock[] = [];
  for (const paragraph of text.split(/\n[ \t]*\n/)) {
    const lines = paragraph.split('\n').filter((line) => line.trim() !== '');
    if (lines.length === 0) continue;
    const [first = '', ...rest] = lines;
    if (lines.every(indented)) blocks.push({ kind: 'code', lines: dedent(lines) });
    else if (first.endsWith(':') && rest.length > 0 && rest.every(indented)) {
      blocks.push({ kind: 'code', heading: first.slice(0, -1), lines: dedent(rest) });
    } else blocks.push({ kind: 'prose', lines });
  }
  return blocks;
}

/** Whether a code block is shell commands (each line runs svc), as opposed to a file's content. */
export function isShell(block: CodeBlock): boolean {
  return block.lines.every((line) => /\bsvc\s/.test(line));
}

function indented(line: string): boolean {
  return /^[ \t]/.test(line);
}

/** The lines without the indentation they all share. */
function dedent(lines: string[]): string[] {
  const shared = Math.min(...lines.map((line) => line.length - line.trimStart().length));
  return lines.map((line) => line.slice(shared).trimEnd());
}
