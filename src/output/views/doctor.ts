/** How `svc doctor` shows its report to people: one line per check, the fix indented below. */
import type { Check } from '../../core/doctor/checks.js';

/** "ok    key         accepted (store: …)", then "      fix: …" under warnings and failures. */
export function doctorText(checks: readonly Check[]): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  const lines = checks.flatMap((check) => {
    const line = `${check.status.padEnd(5)} ${check.name.padEnd(width)}  ${check.detail}`;
    return check.fix ? [line, `${' '.repeat(6 + width + 2)}fix: ${check.fix}`] : [line];
  });
  lines.push('', doctorVerdict(checks));
  return lines.join('\n');
}

/** "2 failed, 1 to look at." or "nothing failed.": the run's verdict. */
export function doctorVerdict(checks: readonly Check[]): string {
  const count = (status: Check['status']) => checks.filter((check) => check.status === status).length;
  const [failed, warned] = [count('fail'), count('warn')];
  if (failed > 0) return `${failed} failed, ${warned} to look at.`;
  return warned > 0 ? `nothing failed; ${warned} to look at.` : 'nothing failed.';
}

/** The checks as one record for a pipe: each check's name, and its status, detail and fix. */
export function doctorRecord(checks: readonly Check[]): Record<string, string> {
  return Object.fromEntries(
    checks.map((check) => [
      check.name,
      `${check.status}: ${check.detail}${check.fix ? `; fix: ${check.fix}` : ''}`,
    ]),
  );
}
