/** Local checks of webhook endpoint flags, before anything is sent (exit 2 when wrong). */
import { WEBHOOK_LOOPBACK_HOSTS } from '../../contract/contract.js';
import { UsageError } from '../../errors.js';

const LOOPBACK = new Set<string>(WEBHOOK_LOOPBACK_HOSTS);

/** An endpoint URL: https, or plain http to this machine (docs/service-contract.md, Webhooks). */
export function checkEndpointUrl(raw: string, flag = '--url'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(
      `${flag} "${raw}" is not a URL; give an https:// address, e.g. https://example.com/hooks`,
    );
  }
  if (url.protocol === 'https:') return raw;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return raw;
  throw new UsageError(
    `${flag} must be https:// (plain http:// only to 127.0.0.1, localhost or [::1]); got "${raw}"`,
  );
}

/** `--events a,b` as a list; `*` (or no flag) means every type. */
export function parseEventList(raw: string | undefined): string[] {
  if (raw === undefined) return ['*'];
  const types = raw
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '');
  if (types.length === 0) {
    throw new UsageError(
      '--events takes a comma-separated list such as order.created,order.status_changed, or *',
    );
  }
  return [...new Set(types)];
}

/** A destination for forwarded events: any http(s) URL (the user's own receiver). */
export function checkReceiverUrl(raw: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${flag} "${raw}" is not a URL; e.g. ${flag} http://localhost:3000/webhooks`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} must be an http:// or https:// URL; got "${raw}"`);
  }
  return raw;
}
