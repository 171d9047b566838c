/** The command reference as the man page svc(1), in roff with the man macros. */
import type { CommandTree, TreeCommand, TreeOption, TreeTopic } from '../command-tree.js';
import { type HelpBlock, helpBlocks } from './help-text.js';
import { GENERATED_NOTICE, topCommands } from './pages.js';

/** svc(1): the global options, then every command with its flags, notes and examples. */
export function manPage(tree: CommandTree): string {
  const { root } = tree;
  const lines = [
    `.\\" ${GENERATED_NOTICE}`,
    // No date and no version: the page changes only when the commands do.
    '.TH SVC 1 "" "svc" "User Commands"',
    // Flags and ids read badly hyphenated or spread out: no hyphenation, ragged right.
    '.nh',
    '.ad l',
    '.SH NAME',
    `svc \\- ${roff(whatis(root.description))}`,
    '.SH SYNOPSIS',
    ...usage('', root.usage),
    '.SH DESCRIPTION',
    roff(root.description),
    '.PP',
    roff('Every command takes -h, --help; `svc help COMMAND` is the same as `svc COMMAND --help`.'),
    '.SH GLOBAL OPTIONS',
    roff('Every command takes these, before or after its own words.'),
    ...[...tree.globalOptions, ...root.options].flatMap(optionItem),
    ...(tree.globalScopes ? ['.PP', '.nf', ...tree.globalScopes.map(roff), '.fi'] : []),
    '.SH COMMANDS',
  ];
  for (const top of topCommands(tree)) {
    for (const { path, command } of top.commands) lines.push(...commandSection(path, command));
  }
  // The root's exit-code table is the page's EXIT STATUS; the rest of its help, its EXAMPLES.
  const rootBlocks = helpBlocks(root.helpText);
  const isExitCodes = (block: HelpBlock) => block.kind === 'code' && block.heading === 'Exit codes';
  const exitCodes = rootBlocks.filter(isExitCodes);
  lines.push(
    '.SH EXAMPLES',
    ...blocksRoff(
      rootBlocks.filter((block) => !isExitCodes(block)),
      false,
    ),
  );
  const topics = tree.topics ?? [];
  for (const topic of topics) lines.push(...topicSection(topic));
  if (exitCodes.length > 0 && !topics.some((topic) => topic.section === 'EXIT STATUS')) {
    lines.push('.SH EXIT STATUS');
    for (const block of exitCodes) lines.push('.RS 4', '.nf', ...block.lines.map(roff), '.fi', '.RE');
  }
  return `${lines.join('\n')}\n`;
}

/** A help topic as its own section (ENVIRONMENT, EXIT STATUS): its rows tagged, then its text. */
function topicSection(topic: TreeTopic): string[] {
  const lines = [`.SH ${roff(topic.section)}`];
  for (const [name, meaning] of topic.rows ?? []) lines.push('.TP', `\\fB${roff(name)}\\fR`, roff(meaning));
  if (topic.text?.length) lines.push('.PP', '.nf', ...topic.text.map(roff), '.fi');
  return lines;
}

function commandSection(path: string, command: TreeCommand): string[] {
  const lines = [
    `.SS ${roff(`svc ${path}`)}`,
    ...usage(path, command.usage),
    '.PP',
    roff(command.description),
  ];
  for (const argument of command.arguments) {
    const choices = argument.choices ? ` (one of: ${argument.choices.join(', ')})` : '';
    lines.push('.TP', `\\fI${roff(argument.name)}\\fR${argument.variadic ? '...' : ''}`);
    lines.push(roff(argument.description + choices));
  }
  for (const option of command.options) if (option.long !== '--help') lines.push(...optionItem(option));
  return [...lines, ...helpTextRoff(command.helpText)];
}

/** The usage line: the command's words in bold, what it takes in roman. */
function usage(path: string, line: string): string[] {
  const words = path ? `svc ${path}` : 'svc';
  const rest = line.startsWith(words) ? line.slice(words.length) : ` ${line}`;
  return ['.PP', `\\fB${roff(words)}\\fR${roff(rest)}`];
}

/** A flag as a tagged paragraph: its spellings in bold, its value in italics, then what it does. */
function optionItem(option: TreeOption): string[] {
  const [names = '', value] = option.flags.split(/ (?=[<[])/);
  const tag = `\\fB${roff(names)}\\fR${value ? ` \\fI${roff(value)}\\fR` : ''}`;
  const notes = [
    option.choices ? `one of: ${option.choices.join(', ')}` : '',
    option.defaultValue === undefined ? '' : `default: ${option.defaultValue}`,
  ].filter((note) => note !== '');
  const text = notes.length > 0 ? `${option.description} (${notes.join('; ')})` : option.description;
  return ['.TP', tag, roff(text)];
}

/**
 * Notes as filled paragraphs; examples and file formats indented, line for line. Under the
 * EXAMPLES section, an `Examples:` line would say it twice.
 */
function helpTextRoff(text: string): string[] {
  return blocksRoff(helpBlocks(text), true);
}

function blocksRoff(blocks: HelpBlock[], examplesHeading: boolean): string[] {
  return blocks.flatMap((block) => {
    if (block.kind === 'prose') return ['.PP', ...block.lines.map(roff)];
    const titled = block.heading !== undefined && (examplesHeading || !/^Examples?$/.test(block.heading));
    const heading = titled ? ['.PP', `${roff(block.heading ?? '')}:`] : [];
    return [...heading, '.RS 4', '.nf', ...block.lines.map(roff), '.fi', '.RE'];
  });
}

/** The one-line summary `whatis` and `apropos` show: lower case first, no final period. */
function whatis(description: string): string {
  const line = description.split('\n')[0] ?? '';
  return `${line.charAt(0).toLowerCase()}${line.slice(1)}`.replace(/\.$/, '');
}

/**
 * Text as roff reads it literally: backslashes and hyphens escaped (so flags copy as ASCII
 * hyphens), anything beyond ASCII named by code point, and no line starting as a request.
 */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(
      /\P{ASCII}/gu,
      (char) => `\\[u${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`,
    )
    .replace(/^[.']/gm, '\\&$&');
}
