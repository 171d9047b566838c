/** `--fault METHOD:PATH:KIND[:TIMES[:SECONDS_OR_MS]]`: fault injection from the command line. */
import { InvalidArgumentError } from 'commander';
import type { FaultKind, FaultSpec } from '../../emulator/index.js';

const KINDS: readonly FaultKind[] = [
  'internal_error',
  'service_unavailable',
  'rate_limited',
  'drop_before',
  'drop_after',
  'delay',
];

/**
 * Parses one --fault value. `*` in the method means any; `*` in the path matches any run
 * of characters. The last number is Retry-After seconds for 503 and 429, milliseconds for delay.
 */
export function parseFault(raw: string): FaultSpec {
  const [method, path, kind, times, extra] = raw.split(':');
  const usage = `--fault takes METHOD:PATH:KIND[:TIMES[:SECONDS]], e.g. POST:/inventory/batch:drop_after:2; KIND is one of ${KINDS.join(', ')}`;
  if (!method || !path?.startsWith('/') || !KINDS.includes(kind as FaultKind))
    throw new InvalidArgumentError(usage);
  if ((times && !/^\d+$/.test(times)) || (extra && !/^\d+$/.test(extra)))
    throw new InvalidArgumentError(usage);
  const spec: FaultSpec = {
    method: method === '*' ? undefined : method.toUpperCase(),
    path: path.includes('*') ? globToRegExp(path) : path,
    kind: kind as FaultKind,
    times: times ? Number(times) : 1,
  };
  if (extra && kind === 'delay') spec.delayMs = Number(extra);
  else if (extra) spec.retryAfter = Number(extra);
  return spec;
}

/** Collects repeated --fault flags. */
export function collectFault(raw: string, previous: FaultSpec[] = []): FaultSpec[] {
  return [...previous, parseFault(raw)];
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*');
  return new RegExp(`^${escaped}$`);
}
