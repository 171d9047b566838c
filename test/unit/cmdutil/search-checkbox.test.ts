import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runPrompts } from '../../../src/cmdutil/prompts.js';
import { matchingChoices, searchCheckbox } from '../../../src/cmdutil/search-checkbox.js';
import { Interrupted } from '../../../src/errors.js';

const DOWN = '\u001b[B';

/** The prompt's own streams: keys typed in turn (each once the one before was handled), the screen kept. */
function streams() {
  const input = new PassThrough();
  let screen = '';
  const output = new Writable({
    write(chunk, _encoding, done) {
      screen += String(chunk);
      done();
    },
  });
  const type = async (...keys: string[]) => {
    for (const key of keys) {
      await new Promise((resolve) => setImmediate(resolve));
      input.write(key);
    }
  };
  return { input, output, type, screen: () => screen };
}

const CHOICES = [
  { value: 'a', name: 'etsy     1001  2d', search: 'ord_a etsy 1001' },
  { value: 'b', name: 'ebay     7788  5d', search: 'ord_b ebay 7788' },
  { value: 'c', name: 'shopify  #1002 1d', search: 'ord_c shopify 1002' },
];

describe('matchingChoices', () => {
  it('every word of the search, in any case, anywhere in the choice', () => {
    expect(matchingChoices(CHOICES, '').map((c) => c.value)).toEqual(['a', 'b', 'c']);
    expect(matchingChoices(CHOICES, '100').map((c) => c.value)).toEqual(['a', 'c']);
    expect(matchingChoices(CHOICES, 'SHOP 1002').map((c) => c.value)).toEqual(['c']);
    expect(matchingChoices(CHOICES, 'amazon')).toEqual([]);
  });
});

describe('searchCheckbox', () => {
  it('typing narrows the list, space chooses, choices stay chosen through another search; enter gives them in list order', async () => {
    const io = streams();
    const answer = searchCheckbox({ message: 'Orders', choices: CHOICES }, io);
    await io.type('shop', ' ', '\u0015', 'ebay', ' ', '\r');
    expect(await answer).toEqual(['b', 'c']);
    expect(io.screen()).toMatch(/1 match "shop"/);
    expect(io.screen()).toMatch(/2 chosen of 3/);
  });

  it('arrows move, space toggles, and a search word never gets a space in it', async () => {
    const io = streams();
    const answer = searchCheckbox({ message: 'Orders', choices: CHOICES }, io);
    await io.type(DOWN, ' ', DOWN, ' ', ' ', '\r');
    expect(await answer).toEqual(['b']);
  });

  it('with `required`, enter on nothing says so and waits', async () => {
    const io = streams();
    const answer = searchCheckbox({ message: 'Orders', choices: CHOICES, required: 'choose one' }, io);
    await io.type('\r');
    await io.type(' ', '\r');
    expect(await answer).toEqual(['a']);
    expect(io.screen()).toMatch(/choose one/);
  });

  it("a search nothing matches says so; Ctrl-C through svc's prompts is an interrupt (exit 130), nothing chosen", async () => {
    const io = streams();
    const library = (await import('@inquirer/prompts')) as unknown as Parameters<typeof runPrompts>[0];
    const prompts = runPrompts({ ...library, searchCheckbox }, io, new AbortController().signal);
    const answer = prompts.searchCheckbox({ message: 'Orders', choices: CHOICES });
    const caught = answer.catch((error: unknown) => error);
    await io.type('zzz', '\u0003');
    expect(await caught).toBeInstanceOf(Interrupted);
    expect(io.screen()).toMatch(/No match for "zzz"/);
  });

  it("svc's prompts escape what the choices show (service data): no control character reaches the terminal", async () => {
    const io = streams();
    const library = (await import('@inquirer/prompts')) as unknown as Parameters<typeof runPrompts>[0];
    const prompts = runPrompts({ ...library, searchCheckbox }, io, new AbortController().signal);
    const answer = prompts.select({
      message: 'Pick',
      choices: [{ value: 1, name: 'evil\u001b[2Jname', description: 'more\u0007' }],
    });
    await io.type('\r');
    expect(await answer).toBe(1);
    expect(io.screen()).not.toContain('\u001b[2J');
    expect(io.screen()).not.toContain('\u0007');
    expect(io.screen()).toContain('evil');
  });
});
