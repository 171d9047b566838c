/** The CA file svc trusts for the service besides the system's (SVC_CA_FILE or a profile's `ca_file`). */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

/** The PEM text of NODE_EXTRA_CA_CERTS, or '' when unset or unreadable (Node warns of that itself). */
export async function readExtraCaCerts(env: NodeJS.ProcessEnv): Promise<string> {
  const path = env.NODE_EXTRA_CA_CERTS;
  if (!path) return '';
  return readFile(path, 'utf8').catch(() => '');
}

/** The PEM text of `path`, or a usage error naming the setting and what to do (exit 2, nothing sent). */
export async function readCaFile(path: string, source: string): Promise<{ pem: string; source: string }> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(
      `${source}=${path} cannot be read (${code}); point it at a PEM file of CA certificates, or unset it`,
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new UsageError(
      `${source}=${path} holds no PEM certificate; point it at a PEM file of CA certificates`,
    );
  }
  return { pem, source: `${source}=${path}` };
}
