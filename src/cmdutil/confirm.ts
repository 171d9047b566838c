/** The confirmations docs/guide.md promises (docs/guide.md, Commands): destructive verbs, and bulk writes with a live key. */
import { UsageError } from '../errors.js';
import type { Deps } from './deps.js';

/** What asking needs: --yes, whether a terminal can answer, and the prompts. */
export type AskDeps = Pick<Deps, 'globals' | 'io' | 'prompts'>;

/** Asks a yes/no question on the terminal (stderr), "no" by default; the question may hold service data. */
async function ask(ctx: AskDeps, message: string): Promise<boolean> {
  const { confirm } = await ctx.prompts();
  return confirm({ message, default: false });
}

/**
 * A destructive verb (`products delete`, `listings delist`, `webhooks delete`): --yes goes
 * ahead; on a terminal it asks `question()` (built only then, so it may read the resource);
 * without a terminal it refuses with exit 2, nothing sent.
 */
export async function confirmDestructive(
  ctx: AskDeps,
  action: { verb: string; target: string },
  question: () => string | Promise<string>,
): Promise<boolean> {
  if (ctx.globals.yes) return true;
  if (!ctx.io.canPrompt) {
    throw new UsageError(
      `refusing to ${action.verb} ${action.target} without confirmation; pass --yes to ${action.verb} it (nothing was sent)`,
    );
  }
  return ask(ctx, await question());
}

/**
 * With a live key, says what the run will do and spend (`plan`, e.g. "Push 200 SKUs in 2
 * requests with a LIVE key (2 units of daily write quota)"): on a terminal it asks, `details`
 * above the question, elsewhere (CI) it says so and proceeds; --yes skips the question
 * (docs/guide.md, Commands). A "no" is a UsageError: nothing was sent.
 */
export async function confirmLiveBulk(
  ctx: AskDeps,
  live: boolean,
  plan: string,
  verb: string,
  details: readonly string[] = [],
): Promise<void> {
  if (!live) return;
  if (ctx.globals.yes || !ctx.io.canPrompt) {
    ctx.io.messages.info(`${plan}.`);
    return;
  }
  if (details.length > 0) ctx.io.messages.info(details.join('\n'));
  if (!(await ask(ctx, `${plan}?`))) throw new UsageError(`${verb} canceled; nothing was sent`);
}

/**
 * A run that could do harm nobody meant (the zeroing guard): on a terminal it asks `question`,
 * "no" by default; without one it refuses with `refusal` (exit 2). --yes does not answer it:
 * a script says so with the flag the refusal names.
 */
export async function confirmRisk(
  ctx: AskDeps,
  question: string,
  refusal: string,
  verb: string,
): Promise<void> {
  if (!ctx.io.canPrompt) throw new UsageError(refusal);
  if (!(await ask(ctx, question))) throw new UsageError(`${verb} canceled; nothing was sent`);
}
