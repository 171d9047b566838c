/** A hand-made command tree for the generator tests (completion scripts and the command reference). */
import type { CommandTree } from '../../../../src/core/command-tree.js';

/**
 * A small tree with the cases the completion rules must order (an id before a variadic file
 * list, a shadowed global) and the text the command reference must carry safely (defaults, choices,
 * notes, examples, characters roff and Markdown read as markup).
 */
export const sampleTree: CommandTree = {
  globalOptions: [
    {
      long: '--profile',
      flags: '--profile <name>',
      description: 'profile to use',
      value: { kind: 'profiles' },
    },
    {
      short: '-o',
      long: '--output',
      flags: '-o, --output <format>',
      description: 'format',
      choices: ['json', 'csv'],
      value: { kind: 'choices', values: ['json', 'csv'] },
    },
    { long: '--json', flags: '--json', description: "same as -o json, it's short" },
  ],
  root: {
    name: 'svc',
    usage: 'svc [options] [command]',
    description: 'The CLI.',
    options: [{ short: '-h', long: '--help', flags: '-h, --help', description: 'show help' }],
    arguments: [],
    helpText: 'Examples:\n  svc orders --status shipped',
    commands: [
      {
        name: 'images',
        usage: 'svc images [options] [command]',
        description: "a product's images",
        options: [],
        arguments: [],
        helpText: '',
        commands: [
          {
            name: 'add',
            usage: 'svc images add [options] <id> <image...>',
            description: 'add images',
            options: [
              {
                long: '--output',
                flags: '--output <dir>',
                description: 'where to',
                defaultValue: '"."',
                value: { kind: 'none' },
              },
            ],
            arguments: [
              {
                name: 'id',
                description: 'product id (prod_…)',
                required: true,
                variadic: false,
                value: { kind: 'none' },
              },
              {
                name: 'image',
                description: 'files or URLs',
                required: true,
                variadic: true,
                value: { kind: 'file' },
              },
            ],
            helpText: [
              'Files are checked first; a backslash \\ and a <tag> stay text.',
              '.dotted line, | a pipe',
              '',
              'Example file:',
              '  {"url": "https://example.com/a.jpg"}',
              '',
              'Examples:',
              '  svc images add prod_1 a.jpg   # one file',
              '  svc images add prod_1 -',
            ].join('\n'),
            commands: [],
          },
        ],
      },
      {
        name: 'orders',
        usage: 'svc orders [options]',
        description: 'orders',
        options: [
          {
            long: '--status',
            flags: '--status <status>',
            description: 'status',
            value: { kind: 'choices', values: ['shipped', 'canceled'] },
          },
          {
            long: '--channel-account',
            flags: '--channel-account <id>',
            description: 'one account',
            value: { kind: 'none' },
          },
          { long: '--file', flags: '--file <f>', description: 'shipments', value: { kind: 'file' } },
          { long: '--dry-run', flags: '--dry-run', description: 'simulate' },
        ],
        arguments: [],
        helpText: '',
        commands: [],
      },
    ],
  },
};
