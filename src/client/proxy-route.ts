/**
 * How a request leaves this machine, and when a key may travel in clear: loopback is always
 * reached directly (never through a proxy), other hosts through the proxy the environment
 * names (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, read as undici reads them), and plain http carries
 * a key only to loopback addresses, compared as addresses (docs/guide.md, Environment).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { UsageError } from '../errors.js';

/** The proxy a request goes through, and the variable that named it. */
export interface ProxyInUse {
  /** The proxy's address with any user and password left out (it is shown to people). */
  url: string;
  /** The full value, for the dispatcher. */
  uri: string;
  variable: string;
}

/** How a request to one URL is sent. */
export type Route =
  | { via: 'proxy'; proxy: ProxyInUse }
  | { via: 'direct'; reason: 'loopback' | 'no_proxy' | 'no proxy set' };

/** The first of `names` that is defined, unless it is empty (which means "no proxy"). */
function firstSet(env: NodeJS.ProcessEnv, names: string[]): { variable: string; uri: string } | undefined {
  const variable = names.find((name) => env[name] !== undefined);
  const uri = variable ? env[variable] : undefined;
  return variable && uri ? { variable, uri } : undefined;
}

/** The proxy variable in force for a protocol, as undici reads them: lower case first; https falls back to the http one. */
function proxyVariable(
  protocol: string,
  env: NodeJS.ProcessEnv,
): { variable: string; uri: string } | undefined {
  const http = firstSet(env, ['http_proxy', 'HTTP_PROXY']);
  return protocol === 'https:' ? (firstSet(env, ['https_proxy', 'HTTPS_PROXY']) ?? http) : http;
}

/** True when NO_PROXY (or no_proxy) exempts `hostname:port`, by undici's rules. */
function exemptByNoProxy(hostname: string, port: number, env: NodeJS.ProcessEnv): boolean {
  const value = env.no_proxy ?? env.NO_PROXY ?? '';
  if (value.trim() === '*') return true;
  for (const entry of value.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const host = (parsed ? (parsed[1] ?? '') : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number(parsed[2]) !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return true;
  }
  return false;
}

/** How a request to `url` is sent: directly to loopback and NO_PROXY hosts, else through the proxy named. */
export function routeFor(url: URL, env: NodeJS.ProcessEnv = process.env): Route {
  if (isLoopbackName(url.hostname)) return { via: 'direct', reason: 'loopback' };
  const proxy = proxyVariable(url.protocol, env);
  if (!proxy) return { via: 'direct', reason: 'no proxy set' };
  // As undici: the host with IPv6 brackets kept, the default port when none is given.
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  if (exemptByNoProxy(hostname, port, env)) return { via: 'direct', reason: 'no_proxy' };
  return { via: 'proxy', proxy: { ...proxy, url: withoutCredentials(proxy.uri) } };
}

/** A proxy URL fit to show: user and password dropped. */
export function withoutCredentials(uri: string): string {
  try {
    const url = new URL(uri);
    url.username = '';
    url.password = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return '(an unparsable proxy address)';
  }
}

/** A loopback IP address: 127.0.0.0/8, ::1, or either written as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) !== 6) return false;
  if (/^(?:::|(?:0{1,4}:){7})0{0,3}1$/.test(bare)) return true;
  const mapped = /^(?:::|(?:0{1,4}:){5})ffff:(.+)$/.exec(bare)?.[1];
  if (mapped === undefined) return false;
  if (isIP(mapped) === 4) return mapped.startsWith('127.');
  // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  return /^7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(mapped);
}

/** A host that means this machine without asking DNS: a loopback address or `localhost`. */
export function isLoopbackName(hostname: string): boolean {
  return isLoopbackAddress(hostname) || /^localhost\.?$/i.test(hostname);
}

/** Resolves a name to its addresses (node:dns by default; tests hand in their own). */
export type Lookup = (hostname: string) => Promise<string[]>;

const systemLookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true })).map((entry) => entry.address);

/**
 * True when `hostname` is loopback compared as addresses: an address in 127.0.0.0/8 or ::1,
 * or `localhost` when every address it resolves to is one. Any other name is not, whatever
 * it looks like (`127.attacker.example`).
 */
export async function isLoopbackHost(hostname: string, lookup: Lookup = systemLookup): Promise<boolean> {
  if (isLoopbackAddress(hostname)) return true;
  if (!/^localhost\.?$/i.test(hostname)) return false;
  try {
    const addresses = await lookup(hostname);
    return addresses.length > 0 && addresses.every(isLoopbackAddress);
  } catch {
    return false;
  }
}

/**
 * Refuses (UsageError, nothing sent) to send a key over plain http anywhere but this machine.
 * Live and test keys alike: a test key reads the store's data, buyers included.
 */
export async function refuseKeyInClear(baseUrl: string, lookup?: Lookup): Promise<void> {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || (await isLoopbackHost(url.hostname, lookup))) return;
  throw new UsageError(
    `refusing to send the API key over plain http to ${url.host}: plain http is allowed only to this machine (127.0.0.0/8, ::1, localhost); use https://`,
  );
}
