/**
 * The interactive prompts as every command gets them (Context.prompts): on the run's streams
 * through the output boundary, their questions escaped (they may quote service data), and
 * ended by Ctrl-C or the run's stop signal as the run's other work is.
 */
import type { Readable, Writable } from 'node:stream';
import { Interrupted } from '../errors.js';
import { escapeLine } from '../output/escape.js';
import type { Prompts } from './deps.js';

/** The prompts of @inquirer/prompts (its other exports, such as Separator, are left as they are). */
const PROMPTS = [
  'input',
  'password',
  'confirm',
  'select',
  'checkbox',
  'search',
  'expand',
  'rawlist',
  'number',
  'editor',
  'searchCheckbox',
] as const;

type Library = Prompts;

/**
 * `library` with each prompt talking on `streams`, its question and choices escaped. Ctrl-C at a
 * prompt (the terminal is raw, so no SIGINT comes) throws Interrupted (exit 130, nothing
 * sent); an abort of `signal` (`kill`, a CI timeout) ends the prompt with the signal's reason.
 */
export function runPrompts(
  library: Library,
  streams: { input: Readable; output: Writable },
  signal: AbortSignal,
): Library {
  const wrapped: Record<string, unknown> = { ...library };
  for (const name of PROMPTS) {
    const prompt = library[name] as (config: unknown, context?: object) => Promise<unknown>;
    wrapped[name] = (config: object, context?: object) =>
      prompt(escaped(config), { ...streams, signal, ...context }).catch((error) => canceled(error, signal));
  }
  return wrapped as Library;
}

/** The config with what it shows of the service's data escaped: the question, the header, each choice's lines. */
function escaped(config: object): object {
  return Object.fromEntries(
    Object.entries(config).map(([name, value]) => {
      if (name === 'message' || name === 'header') return [name, text(value)];
      if (name !== 'choices' || !Array.isArray(value)) return [name, value];
      return [name, value.map((choice: unknown) => (isChoice(choice) ? escapedChoice(choice) : choice))];
    }),
  );
}

function isChoice(choice: unknown): choice is Record<string, unknown> {
  return typeof choice === 'object' && choice !== null && 'value' in choice;
}

function escapedChoice(choice: Record<string, unknown>): Record<string, unknown> {
  const shown = ['name', 'short', 'description'];
  return Object.fromEntries(
    Object.entries(choice).map(([name, value]) => [name, shown.includes(name) ? text(value) : value]),
  );
}

function text(value: unknown): unknown {
  return typeof value === 'string' ? escapeLine(value) : value;
}

/** A prompt that ended without an answer: Ctrl-C (ExitPromptError), or the run's stop `signal`. */
function canceled(error: unknown, signal: AbortSignal): never {
  if (error instanceof Error && error.name === 'ExitPromptError')
    throw new Interrupted('SIGINT', 'canceled at the prompt; nothing was sent');
  if (error instanceof Error && error.name === 'AbortPromptError' && signal.aborted) throw signal.reason;
  throw error;
}

/**
 * The interactive prompts library with svc's search checkbox, loaded now: questions escaped,
 * ended by Ctrl-C (exit 130, nothing sent) or the run's stop signal.
 */
export async function openPrompts(
  streams: { input: Readable; output: Writable },
  signal: AbortSignal,
): Promise<Prompts> {
  const [library, { searchCheckbox }] = await Promise.all([
    import('@inquirer/prompts'),
    import('./search-checkbox.js'),
  ]);
  return runPrompts({ ...library, searchCheckbox }, streams, signal);
}
