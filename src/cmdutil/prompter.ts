/**
 * The interactive prompts, loaded on first use. Ctrl-C at a prompt (the terminal is raw, so no
 * SIGINT comes) ends the run as SIGINT does: exit 130, nothing sent. A signal (`kill`, a CI
 * timeout) ends the prompt too, rather than leaving it to wait for keys.
 */
import { Interrupted } from '../errors.js';
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
] as const;

/** @inquirer/prompts with every prompt tied to `signal` and Ctrl-C turned into Interrupted. */
export async function loadPrompts(signal: AbortSignal): Promise<Prompts> {
  const library = await import('@inquirer/prompts');
  const wrapped: Record<string, unknown> = { ...library };
  for (const name of PROMPTS) {
    const prompt = library[name] as (config: unknown, context?: object) => Promise<unknown>;
    wrapped[name] = (config: unknown, context?: object) =>
      prompt(config, { signal, ...context }).catch((error) => canceled(error, signal));
  }
  return wrapped as Prompts;
}

/** A prompt that ended without an answer: Ctrl-C (ExitPromptError), or the run's stop `signal`. */
function canceled(error: unknown, signal: AbortSignal): never {
  if (error instanceof Error && error.name === 'ExitPromptError')
    throw new Interrupted('SIGINT', 'canceled at the prompt; nothing was sent');
  if (error instanceof Error && error.name === 'AbortPromptError' && signal.aborted) throw signal.reason;
  throw error;
}
