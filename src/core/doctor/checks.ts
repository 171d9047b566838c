/**
 * The checks of `svc doctor`, each from facts already gathered (pure): a status, what was
 * found, and the fix. No check ever holds a secret: keys are masked, proxy passwords dropped.
 */

import { isLoopbackName, type Route, routeFor, withoutCredentials } from '../../client/proxy-route.js';
import type { Credentials } from '../../config/credentials.js';
import type { JournalData } from '../../config/journal.js';
import { maskKey, SIGNATURE_TOLERANCE_SECONDS } from '../../contract/contract.js';
import { countedNames, plural } from '../../words.js';
import { type KeyCheck, type RateTier, refusalAdvice } from '../auth/check-key.js';

/** ok, warn (works, but look), fail (something is broken), skip (could not be checked). */
type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of the report. */
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

const check = (name: string, status: CheckStatus, detail: string, fix?: string): Check =>
  fix === undefined ? { name, status, detail } : { name, status, detail, fix };

/** What the config dir looks like on disk. */
export interface ConfigFacts {
  dir: string;
  dirExists: boolean;
  /** Permission bits of the dir and of config.json, when they exist. */
  dirMode?: number;
  fileMode?: number;
  /** Journals and marks that others can read. */
  looseFiles: string[];
}

/** Config dir and file permissions: the key may sit in config.json, so only its owner reads it. */
export function configCheck(facts: ConfigFacts): Check {
  const file = `${facts.dir}/config.json`;
  if (!facts.dirExists) return check('config', 'ok', `${facts.dir} does not exist yet (nothing saved)`);
  if (facts.fileMode !== undefined && (facts.fileMode & 0o077) !== 0) {
    return check(
      'config',
      'warn',
      `${file} was readable by others (mode ${octal(facts.fileMode)}); svc sets it to 0600 whenever it opens it`,
      'a key kept in that file may have been copied: roll it in the dashboard if others can log in here',
    );
  }
  if (facts.dirMode !== undefined && (facts.dirMode & 0o022) !== 0) {
    return check(
      'config',
      'warn',
      `others can write in ${facts.dir} (mode ${octal(facts.dirMode)})`,
      `chmod 700 ${facts.dir}`,
    );
  }
  if (facts.looseFiles.length > 0) {
    return check(
      'config',
      'warn',
      `readable by others: ${facts.looseFiles.join(', ')}`,
      `chmod 600 ${facts.looseFiles.join(' ')}`,
    );
  }
  const what = facts.fileMode === undefined ? 'no config file yet' : `${file} is readable only by you (0600)`;
  return check('config', 'ok', what);
}

const PROFILE_SOURCES = {
  flag: 'from --profile',
  env: 'from SVC_PROFILE',
  profile: 'the current profile',
  none: '',
};
const BASE_URL_SOURCES = { flag: '--base-url', env: 'SVC_BASE_URL', profile: 'the profile', none: '' };

/** Which profile, key and base URL are in force, and where each came from. */
export function profileCheck(credentials: Credentials | Error): Check {
  if (credentials instanceof Error) return check('profile', 'fail', credentials.message);
  const { profileName, apiKey, apiKeySource, baseUrl } = credentials;
  const profile = profileName
    ? `"${profileName}" (${PROFILE_SOURCES[credentials.profileSource]})`
    : 'no profile';
  if (!apiKey) {
    const why = credentials.keyProblem
      ? `its key is in the OS keyring, but ${credentials.keyProblem}`
      : 'no key';
    return check('profile', 'fail', `${profile}; ${why}`, 'run `svc auth login`, or set SVC_API_KEY');
  }
  const storage =
    credentials.apiKeyStorage === 'keyring'
      ? ', in the OS keyring'
      : credentials.apiKeyStorage === 'file'
        ? ', in the config file (0600)'
        : '';
  const key = `key ${maskKey(apiKey)} from ${apiKeySource === 'env' ? 'SVC_API_KEY' : 'the profile'}${storage}`;
  if (!baseUrl) {
    return check(
      'profile',
      'fail',
      `${profile}; ${key}; no service address`,
      'run `svc auth login`, or set SVC_BASE_URL or --base-url',
    );
  }
  const base = `${baseUrl} from ${BASE_URL_SOURCES[credentials.baseUrlSource]}`;
  return check('profile', 'ok', `${profile}; ${key}; ${base}`);
}

/** What GET /status and GET /health said, or why they could not be asked. */
export type ServiceFacts =
  | { reached: true; state: string; health: string; ms: number }
  | { reached: false; error: string }
  | { reached: 'skipped'; why: string };

/** The service answers its status and health probes (no key needed). */
export function serviceCheck(facts: ServiceFacts, baseUrl: string | undefined): Check {
  if (facts.reached === 'skipped') return check('service', 'skip', facts.why);
  if (!facts.reached) {
    return check(
      'service',
      'fail',
      facts.error,
      'check the base URL (svc auth status), the network, and `svc status` for an outage',
    );
  }
  const detail = `${baseUrl}: status ${facts.state}, health ${facts.health} (answered in ${facts.ms} ms)`;
  if (facts.state !== 'operational' || facts.health !== 'ok') {
    return check('service', 'warn', detail, 'see `svc status` for the service status page');
  }
  return check('service', 'ok', detail);
}

/** The key is accepted by the service (one cheap authenticated read). */
export function keyCheck(
  result: KeyCheck | Error | string,
  credentials: Credentials | Error,
  inCI = false,
): Check {
  if (typeof result === 'string') return check('key', 'skip', result);
  if (result instanceof Error) return check('key', 'fail', result.message);
  if (!result.accepted) {
    const source = credentials instanceof Error ? undefined : credentials;
    const { error } = result;
    return check(
      'key',
      'fail',
      `refused: HTTP ${error.status}${error.code ? ` ${error.code}` : ''}: ${error.message.replace(/\.$/, '')}`,
      refusalAdvice(error, source?.apiKeySource, source?.profileName, inCI),
    );
  }
  if (result.note)
    return check('key', 'warn', `accepted, but ${result.note}`, 'use a key with products:read');
  const accounts = result.accounts?.length
    ? ` (${countedNames(
        'channel account',
        result.accounts.map((account) => account.label),
      )})`
    : '';
  return check('key', 'ok', `accepted${accounts}`);
}

/** Beyond this, the clock is worth a look; beyond the signature tolerance, webhook checks fail. */
const SKEW_WARN_MS = 30_000;

/** This machine's clock against the service's `Date` header. */
export function clockCheck(skewMs: number | undefined | string): Check {
  if (typeof skewMs === 'string') return check('clock', 'skip', skewMs);
  if (skewMs === undefined) return check('clock', 'skip', 'the service sent no Date header');
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  if (Math.abs(skewMs) < SKEW_WARN_MS)
    return check('clock', 'ok', `within ${Math.max(seconds, 1)} s of the service`);
  const side = skewMs > 0 ? 'behind' : 'ahead of';
  const fix = 'set the clock from the network (NTP, e.g. `timedatectl set-ntp true`)';
  const detail = `this machine is ${side} the service by ${seconds} s; durations such as --since 15m count from this clock`;
  if (seconds > SIGNATURE_TOLERANCE_SECONDS) {
    return check(
      'clock',
      'fail',
      `${detail}, and webhook signatures (allowed ${SIGNATURE_TOLERANCE_SECONDS} s) will not verify`,
      fix,
    );
  }
  return check('clock', 'warn', `${detail} (webhook signatures allow ${SIGNATURE_TOLERANCE_SECONDS} s)`, fix);
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'];

/** Proxy variables in effect, and how requests to the base URL travel. */
export function proxyCheck(env: NodeJS.ProcessEnv, baseUrl: string | undefined): Check {
  const set = PROXY_VARIABLES.filter((name) => env[name] !== undefined && env[name] !== '');
  const ignored = ['ALL_PROXY', 'all_proxy'].filter((name) => env[name]);
  if (set.length === 0 && ignored.length === 0)
    return check('proxy', 'ok', 'no proxy variables set: requests go direct');
  const shown = set.map(
    (name) =>
      `${name}=${/PROXY$/i.test(name) && !/^no_/i.test(name) ? withoutCredentials(env[name] ?? '') : env[name]}`,
  );
  const parts = [shown.join(', ')];
  if (ignored.length > 0) parts.push(`${ignored.join(', ')} is not read by svc`);
  let fix: string | undefined;
  if (baseUrl && URL.canParse(baseUrl)) {
    const url = new URL(baseUrl);
    const route: Route = routeFor(url, env);
    parts.push(`${url.host} ${routeWords(route)}`);
    if (route.via === 'proxy') {
      fix = `if ${url.host} should be reached directly, add it to NO_PROXY; if the proxy fails, check ${route.proxy.variable}`;
    }
  }
  return check('proxy', 'warn', parts.join('; '), fix);
}

function routeWords(route: Route): string {
  if (route.via === 'proxy')
    return `goes through the proxy ${route.proxy.url} (from ${route.proxy.variable})`;
  if (route.reason === 'loopback') return 'bypasses it: loopback is always reached directly';
  if (route.reason === 'no_proxy') return 'bypasses it: NO_PROXY names it';
  return 'goes direct: no proxy is set for its protocol';
}

/** TLS: https, a custom CA from SVC_CA_FILE (or ca_file) or NODE_EXTRA_CA_CERTS, and certificate checks left on. */
export function tlsCheck(
  env: NodeJS.ProcessEnv,
  baseUrl: string | undefined,
  facts: { caFileProblem?: string; tlsError?: string; trusted?: string },
): Check {
  if (!baseUrl || !URL.canParse(baseUrl)) return check('tls', 'skip', 'no service address');
  const url = new URL(baseUrl);
  if (url.protocol === 'http:') {
    if (isLoopbackName(url.hostname)) return check('tls', 'ok', 'plain http to this machine: no TLS needed');
    return check(
      'tls',
      'fail',
      `plain http to ${url.host}: a key is never sent over it`,
      `use https://${url.host}`,
    );
  }
  if (env.NODE_TLS_REJECT_UNAUTHORIZED === '0') {
    return check(
      'tls',
      'fail',
      'NODE_TLS_REJECT_UNAUTHORIZED=0 turns certificate checks off: anyone on the path can read the key',
      'unset NODE_TLS_REJECT_UNAUTHORIZED; for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file',
    );
  }
  const ca = env.NODE_EXTRA_CA_CERTS;
  if (ca && facts.caFileProblem) {
    return check(
      'tls',
      'fail',
      `NODE_EXTRA_CA_CERTS=${ca}: ${facts.caFileProblem}`,
      'point it at a readable PEM file of CA certificates',
    );
  }
  if (facts.tlsError) {
    return check(
      'tls',
      'fail',
      `the certificate of ${url.host} was not accepted (${facts.tlsError})${facts.trusted ? ` with ${facts.trusted}` : ''}`,
      facts.trusted
        ? `point ${facts.trusted.split('=')[0]} at the PEM file of the CA that signed it`
        : 'set SVC_CA_FILE (or NODE_EXTRA_CA_CERTS) to the PEM file of the CA that signed it (an emulator started with --tls names it; a proxy or firewall that inspects TLS has one too)',
    );
  }
  return check(
    'tls',
    'ok',
    facts.trusted
      ? `https, trusting the CA certificates of ${facts.trusted} besides the system's`
      : ca
        ? `https, with the extra CA certificates of ${ca}`
        : 'https, with the system CA certificates',
  );
}

/** The rate-limit tier the answers' headers name. */
export function rateCheck(tier: RateTier | undefined | string): Check {
  if (typeof tier === 'string') return check('rate limit', 'skip', tier);
  if (!tier) {
    return check(
      'rate limit',
      'warn',
      'the answers carry no rate-limit headers, so svc paces by a fixed concurrency',
    );
  }
  const name = tier.tier ? ` (${tier.tier} tier)` : '';
  return check(
    'rate limit',
    'ok',
    `burst ${tier.burst}, ${Number(tier.perSecond.toFixed(2))} requests/s${name}`,
  );
}

/** 'off' (SVC_SHARED_PACING=0), why it could not be looked at, or the other processes on the key's bucket. */
export type PacingFacts =
  | 'off'
  | string
  | readonly { pid: number | string; inFlight: number; queued: number }[];

/**
 * Other svc processes pacing on the same key's bucket (they share its rate limit with this
 * one), on this machine or, `through` Redis, on every machine.
 */
export function pacingCheck(facts: PacingFacts, through?: string): Check {
  if (facts === 'off') {
    return check(
      'shared pacing',
      'ok',
      'off (SVC_SHARED_PACING=0): each svc process paces alone on this key',
    );
  }
  if (typeof facts === 'string') return check('shared pacing', 'skip', facts);
  const via = through ? ` (through ${through})` : '';
  if (facts.length === 0)
    return check('shared pacing', 'ok', `no other svc process is using this key now${via}`);
  const who = facts.map((p) => `pid ${p.pid} (${p.inFlight} in flight, ${p.queued} waiting)`);
  return check(
    'shared pacing',
    'ok',
    `${facts.length} other svc ${plural(facts.length, 'process', 'processes')} ${plural(facts.length, 'shares', 'share')} this key's rate limit${via}: ${who.join(', ')}`,
  );
}

/** Bulk pushes that stopped before the end and can resume. */
export function journalsCheck(journals: JournalData[]): Check {
  if (journals.length === 0) return check('journals', 'ok', 'no interrupted push waiting to resume');
  const described = journals.map((journal) => {
    const done = journal.confirmed.reduce((n, [from, to]) => n + to - from + 1, 0);
    return `${journal.path} (${done} of ${journal.total_batches} batches done, ${journal.updated_at})`;
  });
  const commands = journals.map(resumeCommand);
  return check(
    'journals',
    'warn',
    `${journals.length} interrupted ${plural(journals.length, 'push', 'pushes')} can resume: ${described.join('; ')}`,
    `with the same profile and key: ${commands.join('; ')}`,
  );
}

function resumeCommand(journal: JournalData): string {
  // A resume must read the file as the first run did.
  const map = journal.map ? ` --map ${journal.map}` : '';
  const encoding = journal.encoding && journal.encoding !== 'utf-8' ? ` --encoding ${journal.encoding}` : '';
  return journal.kind === 'inventory'
    ? `svc inventory push ${journal.path} --resume${map}${encoding}`
    : `the ${journal.kind} command on ${journal.path} with --resume`;
}

/** Saved incremental-export marks (`orders list --since-last NAME`). */
export function marksCheck(names: string[]): Check {
  if (names.length === 0) return check('marks', 'ok', 'no incremental-export marks saved');
  return check('marks', 'ok', `${names.length} export ${plural(names.length, 'mark')}: ${names.join(', ')}`);
}

/** The oldest Node this build runs on (package.json, engines). */
const MIN_NODE = '20.18.1';

/** Node's version against MIN_NODE. */
export function nodeCheck(version: string): Check {
  const parts = (text: string) => text.replace(/^v/, '').split('.').map(Number);
  const [have, need] = [parts(version), parts(MIN_NODE)];
  const newer = have.findIndex((n, i) => n !== need[i]);
  const ok = newer === -1 || (have[newer] ?? 0) > (need[newer] ?? 0);
  return ok
    ? check('node', 'ok', `Node ${version}`)
    : check('node', 'fail', `Node ${version} is older than ${MIN_NODE}`, `install Node ${MIN_NODE} or newer`);
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}
