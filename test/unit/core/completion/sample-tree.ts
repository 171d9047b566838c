/** A hand-made command tree for the generator tests. */
import type { CompletionTree } from '../../../../src/core/completion/model.js';

/** A small tree with the cases the rules must order: an id before a variadic file list, a shadowed global. */
export const sampleTree: CompletionTree = {
  globalOptions: [
    { long: '--profile', description: 'profile to use', value: { kind: 'profiles' } },
    {
      short: '-o',
      long: '--output',
      description: 'format',
      value: { kind: 'choices', values: ['json', 'csv'] },
    },
    { long: '--json', description: "same as -o json, it's short" },
  ],
  root: {
    name: 'svc',
    description: 'the CLI',
    options: [{ short: '-h', long: '--help', description: 'show help' }],
    arguments: [],
    commands: [
      {
        name: 'images',
        description: "a product's images",
        options: [],
        arguments: [],
        commands: [
          {
            name: 'add',
            description: 'add images',
            options: [{ long: '--output', description: 'where to', value: { kind: 'none' } }],
            arguments: [
              { name: 'id', variadic: false, value: { kind: 'none' } },
              { name: 'image', variadic: true, value: { kind: 'file' } },
            ],
            commands: [],
          },
        ],
      },
      {
        name: 'orders',
        description: 'orders',
        options: [
          {
            long: '--status',
            description: 'status',
            value: { kind: 'choices', values: ['shipped', 'canceled'] },
          },
          { long: '--channel-account', description: 'one account', value: { kind: 'none' } },
          { long: '--file', description: 'shipments', value: { kind: 'file' } },
          { long: '--dry-run', description: 'simulate' },
        ],
        arguments: [],
        commands: [],
      },
    ],
  },
};
