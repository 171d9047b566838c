/**
 * `svc doctor`'s use-case: gathers the facts (files, settings, what the service answers) and
 * turns each into a check. Nothing here prints; nothing it returns holds a secret.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../../client/client.js';
import { processesSharingKey } from '../../client/pacing/record-file.js';
import { getHealth, getStatus } from '../../client/resources/service.js';
import type { Credentials } from '../../config/credentials.js';
import { Journal } from '../../config/journal.js';
import { listMarks } from '../../config/marks.js';
import { NetworkError } from '../../errors.js';
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
  const probed = baseUrl
    ? await probeService(await inputs.client(baseUrl, settings?.apiKey), settings, inputs.now)
    : undefined;
  const skipped = 'the service was not reached';
  const service: ServiceFacts = probed?.service ?? { reached: 'skipped', why: 'no service address' };
  const key: KeyCheck | Error | string = probed?.key ?? (baseUrl ? skipped : 'no service address');
  const accepted = typeof key === 'object' && !(key instanceof Error) && key.accepted ? key : undefined;
  return [
    configCheck(config),
    profileCheck(credentials),
    serviceCheck(service, baseUrl),
    keyCheck(key, credentials),
    clockCheck(probed?.skewMs ?? skipped),
    proxyCheck(inputs.env, baseUrl),
    tlsCheck(inputs.env, baseUrl, { caFileProblem: caFileProblem(inputs.env), tlsError: probed?.tlsError }),
    rateCheck(accepted ? accepted.rateTier : skipped),
    pacingCheck(pacingFacts(inputs, settings)),
    journalsCheck(Journal.all(inputs.configDir)),
    marksCheck(await listMarks(inputs.configDir)),
    nodeCheck(inputs.nodeVersion),
  ];
}

/** Whether pacing is shared, and the other svc processes on this key's bucket right now. */
function pacingFacts(inputs: DoctorInputs, settings: Credentials | undefined): PacingFacts {
  if ((inputs.env.SVC_SHARED_PACING ?? '').trim() === '0') return 'off';
  if (!settings?.apiKey || !settings.baseUrl) return 'no key to share';
  try {
    return processesSharingKey(inputs.configDir, settings.apiKey, settings.baseUrl).filter((p) => !p.self);
  } catch (error) {
    return `the shared pacing file cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
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
  } finally {
    await client.close();
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
