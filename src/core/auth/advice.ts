/**
 * Advice on a refused key that fits where svc runs (docs/guide.md, CI): in a CI job, or with
 * the key from SVC_API_KEY, nobody can run `svc auth login`; the job's secret is what to check.
 */
import { ApiError, CrawlInterrupted } from '../../errors.js';

/** What to do about a 401 where the key comes from the environment. */
export const JOB_SECRET_ADVICE =
  "check the job's SVC_API_KEY secret (set, current, and a key of this store); `svc auth status` shows which key is in use";

/** The key comes from the environment, or the run is a CI job (CI set to anything but false or 0). */
export function keyFromEnvironment(env: Readonly<NodeJS.ProcessEnv>): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return Boolean(env.SVC_API_KEY?.trim()) || (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0');
}

/** Points a 401 at the job's SVC_API_KEY secret instead of `svc auth login`, where that fits. */
export function adviseOnRefusedKey(error: unknown, env: Readonly<NodeJS.ProcessEnv>): void {
  const cause = error instanceof CrawlInterrupted ? error.cause : error;
  if (cause instanceof ApiError && cause.status === 401 && keyFromEnvironment(env))
    cause.nextStep = JOB_SECRET_ADVICE;
}
