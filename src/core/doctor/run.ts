/**
 * `svc doctor`'s use-case: gathers the facts (files, settings, what the service answers) and
 * turns each into a check. Nothing here prints; nothing it returns holds a secret.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../../client/client.js';
import { pacingUrlOf } from '../../client/pacing/pacing-url.js';
import type { QuotaReading } from '../../client/pacing/quota-tally.js';
import type { SharedStore } from '../../client/pacing/record-file.js';
import { processesSharing } from '../../client/pacing/sharing.js';
import { getHealth, getStatus } from '../../client/resources/service.js';
import type { Credentials } from '../../config/credentials.js';
import { Journal } from '../../config/journal.js';
import { listMarks } from '../../config/marks.js';
import { keyMode } from '../../contract/contract.js';
import { NetworkError } from '../../errors.js';
import { keyFromEnvironment } from '../auth/advice.js';
import { checkKey, type KeyCheck } from '../auth/check-key.js';
import {
  type Check,
  type ConfigFacts,
  clockCheck,
  configCheck,
  journalsCheck,
  keyCheck,
  marksCheck,
  nodeCheck,
  type PacingFacts,
  pacingCheck,
  profileCheck,
  proxyCheck,
  rateCheck,
  type ServiceFacts,
  serviceCheck,
  tlsCheck,
} from './checks.js';
import { type PacingUrlFacts, pacingUrlCheck, quotaCheck } from './sharing-checks.js';

/** What the doctor reads: the environment, the config dir, the settings in force, a client. */
export interface DoctorInputs {
  env: NodeJS.ProcessEnv;
  configDir: string;
  /** The settings in force (read after the config dir's permissions were looked at). */
  credentials: () => Promise<Credentials>;
  /** A client for the base URL, carrying the key when there is one. */
  client: (baseUrl: string, apiKey: string | undefined) => Promise<ApiClient>;
  now: () => number;
  nodeVersion: string;
}

/** Every check, in report order. */
export async function runDoctor(inputs: DoctorInputs): Promise<Check[]> {
  // Before anything opens the config file (svc tightens a loose one as it opens it).
  const config = configFacts(inputs.configDir);
  const credentials = await inputs.credentials().catch((error: Error) => error);
  const settings = credentials instanceof Error ? undefined : credentials;
  const baseUrl = settings?.baseUrl;
  const client = baseUrl ? await inputs.client(baseUrl, settings?.apiKey) : undefined;
  try {
    // Redis first: one that does not answer is this check's to say, not a warning of the requests that follow.
    const url = await pacingUrlFacts(inputs, settings, client);
    const probed = client ? await probeService(client, settings, inputs.now) : undefined;
    const skipped = 'the service was not reached';
    const service: ServiceFacts = probed?.service ?? { reached: 'skipped', why: 'no service address' };
    const key: KeyCheck | Error | string = probed?.key ?? (baseUrl ? skipped : 'no service address');
    const accepted = typeof key === 'object' && !(key instanceof Error) && key.accepted ? key : undefined;
    const sharing = await sharingFacts(inputs, settings, client, url);
    return [
      configCheck(config),
      profileCheck(credentials),
      serviceCheck(service, baseUrl),
      keyCheck(key, credentials, keyFromEnvironment(inputs.env)),
      clockCheck(probed?.skewMs ?? skipped),
      proxyCheck(inputs.env, baseUrl),
      tlsCheck(inputs.env, baseUrl, {
        caFileProblem: caFileProblem(inputs.env),
        tlsError: probed?.tlsError,
        trusted: settings?.caFile
          ? `${settings.caFileSource === 'profile' ? 'ca_file' : 'SVC_CA_FILE'}=${settings.caFile}`
          : undefined,
      }),
      rateCheck(accepted ? accepted.rateTier : skipped),
      pacingCheck(sharing.pacing, sharing.through),
      pacingUrlCheck(sharing.url),
      quotaCheck(sharing.quota),
      journalsCheck(Journal.all(inputs.configDir)),
      marksCheck(await listMarks(inputs.configDir)),
      nodeCheck(inputs.nodeVersion),
    ];
  } finally {
    await client?.close();
  }
}

/** What the doctor learns of what svc shares on the key: its pacing, the Redis of the pacing URL, the quota count. */
interface SharingFacts {
  pacing: PacingFacts;
  /** Where the processes listed share, when not this machine's state file. */
  through?: string;
  url: PacingUrlFacts;
  quota: QuotaReading | string;
}

/** The Redis of the pacing URL: how fast it answers and its version, or why it does not. */
async function pacingUrlFacts(
  inputs: DoctorInputs,
  settings: Credentials | undefined,
  client: ApiClient | undefined,
): Promise<PacingUrlFacts> {
  const link = client?.transport.sharing.link;
  if (link) {
    const { shown, setting } = link.url;
    return link.probe().then(
      (probe) => ({ set: true, shown, setting, ...probe }),
      (error: unknown) => ({ set: true, shown, setting, problem: link.describe(error) }),
    );
  }
  let parsed: ReturnType<typeof pacingUrlOf>;
  try {
    parsed = settings ? pacingUrlOf(settings) : undefined;
  } catch {
    // The profile check says what is wrong with the settings; a URL svc cannot use exits 2 elsewhere.
    return { set: false };
  }
  if (parsed && (inputs.env.SVC_SHARED_PACING ?? '').trim() === '0') {
    return { set: true, shown: parsed.shown, setting: parsed.setting, off: true };
  }
  return { set: false };
}

/** The processes sharing the key's pacing (through Redis when it answered), and svc's quota count. */
async function sharingFacts(
  inputs: DoctorInputs,
  settings: Credentials | undefined,
  client: ApiClient | undefined,
  url: PacingUrlFacts,
): Promise<SharingFacts> {
  const sharing = client?.transport.sharing;
  const link = sharing?.link;
  const noKey = !settings?.apiKey || !settings.baseUrl;
  const quota: QuotaReading | string = noKey
    ? 'no key to count for'
    : keyMode(settings.apiKey ?? '') === 'test'
      ? 'a test key spends no write quota (its writes are simulated)'
      : ((await client?.quotaSpent().catch(() => undefined)) ?? 'svc keeps no count here');
  if ((inputs.env.SVC_SHARED_PACING ?? '').trim() === '0') return { pacing: 'off', url, quota };
  if (noKey || !sharing?.primary) return { pacing: 'no key to share', url, quota };
  const answered = link !== undefined && !('problem' in url);
  const store = answered ? sharing.primary : (sharing.fallback ?? sharing.primary);
  return {
    pacing: await othersOn(store),
    through: answered && link ? `Redis, ${link.url.setting}` : undefined,
    url,
    quota,
  };
}

/** The other processes pacing on a store's record, or why they could not be read. */
async function othersOn(store: SharedStore): Promise<PacingFacts> {
  try {
    return (await processesSharing(store)).filter((p) => !p.self);
  } catch (error) {
    return `the shared pacing state cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

/** What the service answers: status and health (no key), then the key, and its clock. */
async function probeService(
  client: ApiClient,
  settings: Credentials | undefined,
  now: () => number,
): Promise<{
  service: ServiceFacts;
  key: KeyCheck | Error | string;
  skewMs?: number | string;
  tlsError?: string;
}> {
  try {
    const status = await getStatus(client);
    const started = now();
    const health = await getHealth(client);
    const receivedAt = now();
    const serverDate = client.lastServerDate;
    const service: ServiceFacts = {
      reached: true,
      state: status.state,
      health: health.status,
      ms: Math.round(receivedAt - started),
    };
    const skewMs = serverDate ? serverDate.getTime() - receivedAt : undefined;
    if (!settings?.apiKey) return { service, key: 'no key to check', skewMs };
    const key = await checkKey(client).catch((error: Error) => error);
    return { service, key, skewMs };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = error instanceof NetworkError ? (error.code ?? '') : '';
    const tlsError = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO/i.test(code) ? code : undefined;
    const skipped = 'the service was not reached';
    return { service: { reached: false, error: message }, key: skipped, skewMs: skipped, tlsError };
  }
}

/** The config dir and file modes, and journals or marks others can read. */
function configFacts(dir: string): ConfigFacts {
  const modeOf = (path: string) => {
    try {
      return statSync(path).mode;
    } catch {
      return undefined;
    }
  };
  const dirMode = modeOf(dir);
  const looseFiles = ['journals', 'marks'].flatMap((folder) => {
    let names: string[];
    try {
      names = readdirSync(join(dir, folder));
    } catch {
      return [];
    }
    return names.map((name) => join(dir, folder, name)).filter((path) => ((modeOf(path) ?? 0) & 0o077) !== 0);
  });
  return {
    dir,
    dirExists: dirMode !== undefined,
    dirMode,
    fileMode: modeOf(join(dir, 'config.json')),
    looseFiles,
  };
}

/** Why NODE_EXTRA_CA_CERTS cannot serve, if it is set. */
function caFileProblem(env: NodeJS.ProcessEnv): string | undefined {
  const path = env.NODE_EXTRA_CA_CERTS;
  if (!path) return undefined;
  try {
    return readFileSync(path, 'utf8').includes('-----BEGIN CERTIFICATE-----')
      ? undefined
      : 'holds no PEM certificate';
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}
