import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { compileQuery } from '../../../src/output/query.js';

describe('--query', () => {
  it('applies JMESPath to the whole value', async () => {
    const query = await compileQuery('[?total > `10`].id');
    expect(
      query.apply([
        { id: 'a', total: 5 },
        { id: 'b', total: 12 },
      ]),
    ).toEqual(['b']);
    expect((await compileQuery('length(@)')).apply([1, 2, 3])).toBe(3);
  });

  it.each([
    ['foo[?bar==]', 11],
    ['a.b |', 6],
    ['foo bar', 5],
    ['a $ b', 3],
  ])(
    'a bad expression %s is a usage error naming the parser message and the character',
    async (expression, at) => {
      const error = await compileQuery(expression).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toMatch(
        new RegExp(`^--query: syntax error.* at character ${at};`),
      );
      expect((error as UsageError).details).toEqual([expression, `${' '.repeat(at - 1)}^`]);
    },
  );

  it('an error while evaluating is a usage error too', async () => {
    const query = await compileQuery('abs(@)');
    expect(() => query.apply([])).toThrow(/--query "abs\(@\)" failed on the result: .*abs\(\)/);
  });

  it('a function it does not know is refused when compiled, with where it is', async () => {
    const error = await compileQuery('[].nope(@)').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/^--query: unknown function nope\(\) at character 4;/);
    expect((error as UsageError).details).toEqual(['[].nope(@)', '   ^']);
  });
});
