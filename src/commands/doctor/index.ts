import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { CommandFailed } from '../../errors.js';
import { plural } from '../../words.js';

/** `svc doctor`: what to run when something is wrong; one line per check, with the fix. */
export function registerDoctor(program: Command, ctx: Context): void {
  program
    .command('doctor')
    .description(
      'check config, key, service, clock, proxy, TLS, rate limit and saved state; each with its fix',
    )
    .addHelpText(
      'after',
      [
        '',
        'Each check prints ok, warn or fail, and the fix. Exits 0 unless a check fails.',
        '--json prints the report for a support ticket: no key or password is in it.',
        '',
        'Examples:',
        '  svc doctor',
        '  svc doctor --json > doctor.json',
      ].join('\n'),
    )
    .action(async () => runDoctorCommand(ctx));
}

async function runDoctorCommand(ctx: Context): Promise<void> {
  const [{ runDoctor }, { configDir }, { doctorText }] = await Promise.all([
    import('../../core/doctor/run.js'),
    import('../../config/config-store.js'),
    import('../../output/views/doctor.js'),
  ]);
  const checks = await runDoctor({
    env: ctx.env,
    configDir: configDir(ctx.env),
    credentials: () => ctx.credentials(),
    // One retry: a doctor run should say quickly that the service cannot be reached.
    client: (baseUrl, apiKey) => ctx.clientFor(baseUrl, apiKey, { maxRetries: 1 }),
    now: ctx.now,
    nodeVersion: process.versions.node,
  });
  const failed = checks.filter((check) => check.status === 'fail');
  if (ctx.io.wantsMachineText) await ctx.io.printer.json({ ok: failed.length === 0, checks }, 2);
  else await ctx.io.printer.text(doctorText(checks));
  if (failed.length > 0) {
    const names = failed.map((check) => check.name).join(', ');
    throw new CommandFailed(`${failed.length} ${plural(failed.length, 'check')} failed: ${names}`);
  }
}
