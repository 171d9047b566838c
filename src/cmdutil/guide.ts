/**
 * Guided flows (docs/guide.md, Guided flows at a terminal): a command missing what it needs asks for
 * it, as `gh pr create` does, only when a person is at the keyboard; anything else (a script,
 * CI, --yes) gets a usage error that names the flag to pass. A flow only gathers arguments: the
 * work runs the same code path as the flags would.
 */
import { UsageError } from '../errors.js';
import type { Deps } from './deps.js';

/** What deciding needs: the terminals, --no-input, --yes and CI. */
export type GuideDeps = Pick<Deps, 'io' | 'globals'>;

/** Why svc will not ask here, in words ("CI=true is set"), or undefined when it may. */
export function whyNotAsking(deps: GuideDeps): string | undefined {
  const { io, globals } = deps;
  if (globals.input === false) return '--no-input is given';
  if (globals.yes) return '--yes is given';
  if (io.inCI) return 'the CI variable is set';
  if (!io.stdinIsTTY) return 'standard input is not a terminal';
  if (!io.stdoutIsTTY) return 'standard output is not a terminal';
  if (!io.canPrompt) return 'standard error is not a terminal';
  return undefined;
}

/**
 * Goes on when a person can answer; otherwise the missing argument is a usage error (exit 2):
 * `missing` names what to pass ("give an order id … or --file shipments.csv"), then why svc
 * did not ask.
 */
export function guideOrRefuse(deps: GuideDeps, missing: string): void {
  const why = whyNotAsking(deps);
  if (why !== undefined)
    throw new UsageError(`${missing}; svc asks for it only at a terminal, and here ${why}`);
}
