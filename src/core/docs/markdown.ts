/**
 * The command reference in Markdown (docs/commands/): a page per top-level command with every
 * command below it, and README.md listing them all with the global options.
 */
import { type CommandTree, oneLine, type TreeCommand, type TreeOption } from '../command-tree.js';
import { helpBlocks, isShell } from './help-text.js';
import { GENERATED_NOTICE, type TopCommand, topCommands } from './pages.js';

/** The index page of the reference. */
const INDEX_PAGE = 'README.md';

/** Every page of docs/commands/, by file name: the index, then one per top-level command. */
export function markdownPages(tree: CommandTree): Record<string, string> {
  const tops = topCommands(tree);
  const pages: Record<string, string> = { [INDEX_PAGE]: indexPage(tree, tops) };
  for (const top of tops) pages[top.page] = commandPage(tree, top);
  return pages;
}

function indexPage(tree: CommandTree, tops: TopCommand[]): string {
  const { root } = tree;
  const lines = [
    `<!-- ${GENERATED_NOTICE} -->`,
    '',
    '# svc command reference',
    '',
    root.description,
    '',
    ...fenced(root.usage),
    '',
    "Each page below gives a command's synopsis, arguments, flags with their defaults, notes and",
    'examples: what `svc COMMAND --help` prints. The same reference is the man page',
    '[`man/svc.1`](../../man/svc.1) (`man svc` once installed, `man -l man/svc.1` in a checkout).',
    '',
    '## Commands',
    '',
  ];
  for (const top of tops) {
    lines.push(`### [svc ${top.path}](${top.page})`, '', top.command.description, '');
    const below = top.commands.slice(1);
    for (const { path, command } of below) {
      lines.push(
        `- [\`svc ${path}\`](${top.page}#${anchor(path)}): ${markdownText(oneLine(command.description))}`,
      );
    }
    if (below.length > 0) lines.push('');
  }
  lines.push(
    '## Global options',
    '',
    'Every command takes these, before or after its own words (`svc --json orders list` and',
    '`svc orders list --json` are the same).',
    '',
    ...optionTable([...tree.globalOptions, ...root.options]),
    '',
    '`svc help COMMAND` is the same as `svc COMMAND --help`.',
    '',
    ...helpTextMarkdown(root.helpText),
  );
  return finish(lines);
}

function commandPage(tree: CommandTree, top: TopCommand): string {
  const lines = [`<!-- ${GENERATED_NOTICE} -->`, ''];
  top.commands.forEach(({ path, command }, index) => {
    lines.push(`${index === 0 ? '#' : '##'} svc ${path}`, '', ...commandSection(command), '');
    if (index === 0 && top.commands.length > 1) {
      for (const { path: below } of top.commands.slice(1)) {
        lines.push(`- [\`svc ${below}\`](#${anchor(below)})`);
      }
      lines.push('');
    }
  });
  lines.push('## Global options', '', ...globalsNote(tree, top));
  return finish(lines);
}

/**
 * Which global options the page's commands take: those every one of them takes, then what
 * each takes beyond them (lists --all and --limit, printers of resources --fields…).
 */
function globalsNote(tree: CommandTree, top: TopCommand): string[] {
  const all = tree.globalOptions.map((option) => option.long ?? option.short ?? '');
  const leaves = top.commands.filter(({ command }) => command.commands.length === 0);
  const takes = (command: TreeCommand) => command.globals ?? all;
  const common = all.filter((flag) => leaves.every(({ command }) => takes(command).includes(flag)));
  const named = (flags: string[]) => flags.map((flag) => `\`${flag}\``).join(', ');
  const lines = [
    `${leaves.length === 1 ? 'It' : 'Every command here'} also takes these [global options](${INDEX_PAGE}#global-options): ${named(common)}.`,
  ];
  for (const { path, command } of leaves) {
    const more = takes(command).filter((flag) => !common.includes(flag));
    if (more.length > 0) lines.push(`\`svc ${path}\` also takes ${named(more)}.`);
  }
  return lines.length === 1
    ? lines
    : [lines[0], '', ...lines.slice(1).flatMap((line) => [line, ''])].slice(0, -1);
}

/** What a command's `--help` says, as Markdown: description, usage, arguments, flags, then its notes and examples. */
function commandSection(command: TreeCommand): string[] {
  const lines = [markdownText(command.description), '', ...fenced(command.usage)];
  if (command.arguments.length > 0) {
    lines.push('', '| Argument | Description |', '|---|---|');
    for (const argument of command.arguments) {
      const shown = `${argument.required ? '<' : '['}${argument.name}${argument.variadic ? '...' : ''}${argument.required ? '>' : ']'}`;
      lines.push(`| \`${shown}\` | ${cell(argument.description + choicesNote(argument.choices))} |`);
    }
  }
  const options = command.options.filter((option) => option.long !== '--help');
  if (options.length > 0) lines.push('', ...optionTable(options));
  const notes = helpTextMarkdown(command.helpText);
  if (notes.length > 0) lines.push('', ...notes);
  return lines;
}

/** The flags as a table; a Default column when any of them has a default `--help` shows. */
function optionTable(options: TreeOption[]): string[] {
  const defaults = options.some((option) => option.defaultValue !== undefined);
  const rows = options.map((option) => {
    const cells = [`\`${option.flags}\``, cell(option.description + choicesNote(option.choices))];
    if (defaults) cells.push(option.defaultValue === undefined ? '' : cell(`\`${option.defaultValue}\``));
    return `| ${cells.join(' | ')} |`;
  });
  const header = defaults
    ? ['| Option | Description | Default |', '|---|---|---|']
    : ['| Option | Description |', '|---|---|'];
  return [...header, ...rows];
}

function choicesNote(choices: readonly string[] | undefined): string {
  return choices ? ` (one of: ${choices.join(', ')})` : '';
}

/** The notes and examples after the flags: prose as paragraphs, examples under a heading of their own. */
function helpTextMarkdown(text: string): string[] {
  return helpBlocks(text).flatMap((block, index) => {
    const gap = index === 0 ? [] : [''];
    if (block.kind === 'prose') return [...gap, ...block.lines.map(markdownText)];
    const title = block.heading === undefined ? [] : headingOf(block.heading);
    return [...gap, ...title, ...fenced(block.lines.join('\n'), isShell(block) ? 'sh' : '')];
  });
}

/** `Examples:` becomes a heading; any other line that introduces a block stays a line of text. */
function headingOf(heading: string): string[] {
  return /^Examples?$/.test(heading) ? [`### ${heading}`, ''] : [`${markdownText(heading)}:`, ''];
}

function fenced(text: string, language = ''): string[] {
  return [`\`\`\`${language}`, ...text.split('\n'), '```'];
}

/** The anchor GitHub gives the heading `svc PATH`. */
function anchor(path: string): string {
  return `svc ${path}`
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

/**
 * Help text as Markdown text: angle brackets outside code spans would read as HTML, and a line
 * that starts like a list item or a heading would become one.
 */
function markdownText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('')
    .replace(/^([-+*#>]|\d+[.)])(?=\s|$)/gm, '\\$1');
}

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return markdownText(text).replace(/\n/g, ' ').replace(/\|/g, '\\|');
}

function finish(lines: string[]): string {
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
