/**
 * Certificates for `svc emulator start --tls`: a CA made at start, and a server certificate it
 * signs for this machine's names, so that svc reaches the emulator over HTTPS as it reaches the
 * service, trusting the CA through SVC_CA_FILE, a profile's `ca_file` or NODE_EXTRA_CA_CERTS.
 * @peculiar/x509 is loaded only here, and only when TLS is asked for.
 */
import { webcrypto } from 'node:crypto';
import type { TlsIdentity } from './http/server.js';

/** The CA to trust and the identity the server presents. */
export interface EmulatorCertificates extends TlsIdentity {
  /** The CA certificate, PEM: what a client trusts. */
  caPem: string;
}

/** What the certificates are made for; tests make wrong or expired ones. */
export interface CertificateOptions {
  /** Names the server certificate is made out to; default localhost, 127.0.0.1 and ::1. */
  hosts?: string[];
  /** Validity; default from a minute ago to 30 days on. */
  notBefore?: Date;
  notAfter?: Date;
}

const DAY_MS = 86_400_000;
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

/** A fresh CA and a server certificate it signed, with the server's key. */
export async function makeTlsIdentity(options: CertificateOptions = {}): Promise<EmulatorCertificates> {
  const loaded = await import('@peculiar/x509');
  // The bundle loads its CommonJS build, whose exports sit under `default`.
  const commonJs = (loaded as unknown as { default?: typeof loaded }).default;
  const x509 = commonJs?.cryptoProvider ? commonJs : loaded;
  // Node's WebCrypto; the library's type is the DOM's Crypto, which this build does not declare.
  x509.cryptoProvider.set(webcrypto as never);
  const notBefore = options.notBefore ?? new Date(Date.now() - 60_000);
  const notAfter = options.notAfter ?? new Date(Date.now() + 30 * DAY_MS);
  const hosts = options.hosts ?? ['localhost', '127.0.0.1', '::1'];
  const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    // Its own name, so that another emulator's CA is never taken for it.
    name: `CN=svc emulator CA ${serial()}`,
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const serverKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${hosts[0] ?? 'localhost'}`,
    issuer: ca.subject,
    notBefore,
    notAfter,
    signingKey: caKeys.privateKey,
    publicKey: serverKeys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.SubjectAlternativeNameExtension(
        hosts.map((host) => ({ type: /^[\d.]+$|:/.test(host) ? 'ip' : 'dns', value: host })),
      ),
      new x509.BasicConstraintsExtension(false),
      new x509.ExtendedKeyUsageExtension([SERVER_AUTH]),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', serverKeys.privateKey));
  return { caPem: ca.toString('pem'), cert: cert.toString('pem'), key: pem('PRIVATE KEY', pkcs8) };
}

function serial(): string {
  // Positive: a leading byte below 0x80.
  return `01${Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex')}`;
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
