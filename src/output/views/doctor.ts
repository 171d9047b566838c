/** How `svc doctor` shows its report to people: one line per check, the fix indented below. */
import type { Check } from '../../core/doctor/checks.js';

/** "ok    key         accepted (store: …)", then "      fix: …" under warnings and failures. */
export function doctorText(checks: readonly Check[]): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  const lines = checks.flatMap((check) => {
    const line = `${check.status.padEnd(5)} ${check.name.padEnd(width)}  ${check.detail}`;
    return check.fix ? [line, `${' '.repeat(6 + width + 2)}fix: ${check.fix}`] : [line];
  });
  const count = (status: Check['status']) => checks.filter((check) => check.status === status).length;
  const [failed, warned] = [count('fail'), count('warn')];
  lines.push(
    '',
    failed > 0
      ? `${failed} failed, ${warned} to look at.`
      : warned > 0
        ? `nothing failed; ${warned} to look at.`
        : 'nothing failed.',
  );
  return lines.join('\n');
}
