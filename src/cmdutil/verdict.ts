/**
 * What a run decided, said where a person reads it whatever stdout is (docs/guide.md, Output):
 * the verdict on stderr in every output mode (-q silences it), the data it stands on on stdout.
 */
import type { Deps } from './deps.js';

/**
 * Says `verdict` on stderr and prints `data` on stdout: as the format says when one was asked
 * for or stdout is no terminal (field<TAB>value lines, JSON, …); a terminal's table view of
 * it would only say the verdict again, so there stdout gets nothing unless --fields asks.
 */
export async function showVerdict(ctx: Pick<Deps, 'io'>, data: unknown, verdict: string): Promise<void> {
  ctx.io.messages.info(verdict);
  if (ctx.io.format !== 'table' || ctx.io.globals.fields || ctx.io.query) await ctx.io.printer.item(data);
}
