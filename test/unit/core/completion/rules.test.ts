import { describe, expect, it } from 'vitest';
import { commandsOf } from '../../../../src/core/command-tree.js';
import { valueFlags, valueRules } from '../../../../src/core/completion/rules.js';
import { sampleTree } from './sample-tree.js';

describe('commandsOf', () => {
  it('lists every command with its path, parents first', () => {
    expect(commandsOf(sampleTree).map((entry) => entry.path)).toEqual(['', 'images', 'images add', 'orders']);
  });
});

describe('valueFlags', () => {
  it('lists the flags that take a value, per command, then the globals', () => {
    expect(valueFlags(sampleTree)).toEqual([
      { kind: 'exact', path: 'images add', key: '--output' },
      { kind: 'exact', path: 'orders', key: '--status' },
      { kind: 'exact', path: 'orders', key: '--channel-account' },
      { kind: 'exact', path: 'orders', key: '--file' },
      { kind: 'global', key: '--profile' },
      { kind: 'global', key: '-o' },
      { kind: 'global', key: '--output' },
    ]);
  });
});

describe('valueRules', () => {
  const rules = valueRules(sampleTree);

  it('puts exact keys before variadic rests before globals, so the specific rule wins', () => {
    const kinds = rules.flatMap((rule) => rule.patterns.map((pattern) => pattern.kind));
    expect(kinds).toEqual([...kinds].sort((a, b) => order(a) - order(b)));
    function order(kind: string): number {
      return ['exact', 'rest', 'global'].indexOf(kind);
    }
  });

  it('keeps free-text keys only where a wildcard would claim them', () => {
    const none = rules.find((rule) => rule.value.kind === 'none');
    // The id before the variadic image list, and a command's --output that shadows the global one.
    expect(none?.patterns).toEqual([
      { kind: 'exact', path: 'images add', key: '--output' },
      { kind: 'exact', path: 'images add', key: '#1' },
    ]);
    // --channel-account is free text and nothing else would match it: no rule at all.
    const keys = rules.flatMap((rule) =>
      rule.patterns.map((pattern) => ('key' in pattern ? pattern.key : '')),
    );
    expect(keys).not.toContain('--channel-account');
  });

  it('groups keys that complete the same way', () => {
    const files = rules.filter((rule) => rule.value.kind === 'file');
    expect(files).toHaveLength(2); // exact --file, and the variadic rest (which must come after the exact keys)
    expect(files[0]?.patterns).toEqual([{ kind: 'exact', path: 'orders', key: '--file' }]);
    expect(files[1]?.patterns).toEqual([{ kind: 'rest', path: 'images add' }]);
    const output = rules.find((rule) => rule.value.kind === 'choices' && rule.value.values.includes('json'));
    expect(output?.patterns).toEqual([
      { kind: 'global', key: '-o' },
      { kind: 'global', key: '--output' },
    ]);
  });
});
