import { defineCommand } from '../../cmdutil/define.js';
import { configDir } from '../../config/config-store.js';
import { runDoctor } from '../../core/doctor/run.js';
import { CommandFailed } from '../../errors.js';
import { doctorRecord, doctorText, doctorVerdict } from '../../output/views/doctor.js';
import { plural } from '../../words.js';

/** `svc doctor`: what to run when something is wrong; one line per check, with the fix. */
export const command = defineCommand<Record<string, never>>({
  path: ['doctor'],
  group: 'Setup',
  rank: 3,
  description:
    'check config, key, service, clock, proxy, TLS, rate limit, shared pacing, write quota and saved state; each with its fix',
  notes: [
    'Each check prints ok, warn or fail, and the fix. Exits 0 unless a check fails.',
    '--json prints the report for a support ticket: no key or password is in it.',
  ],
  examples: ['svc doctor', 'svc doctor --json > doctor.json'],
  /** Runs every check, prints the report, and exits 1 when a check failed. */
  async run(_args, deps) {
    const checks = await runDoctor({
      env: deps.env,
      configDir: configDir(deps.env),
      credentials: () => deps.credentials(),
      // One retry: a doctor run should say quickly that the service cannot be reached.
      client: (baseUrl, apiKey) => deps.clientFor(baseUrl, apiKey, { maxRetries: 1 }),
      now: deps.now,
      nodeVersion: process.versions.node,
    });
    const failed = checks.filter((check) => check.status === 'fail');
    if (deps.io.wantsMachineText) await deps.io.printer.json({ ok: failed.length === 0, checks }, 2);
    else if (deps.io.format === 'table') await deps.io.printer.text(doctorText(checks));
    else {
      // Piped: a line per check (name, then what it found), the verdict on stderr.
      await deps.io.printer.item(doctorRecord(checks));
      deps.io.messages.info(doctorVerdict(checks));
    }
    if (failed.length > 0) {
      const names = failed.map((check) => check.name).join(', ');
      throw new CommandFailed(`${failed.length} ${plural(failed.length, 'check')} failed: ${names}`);
    }
  },
});
