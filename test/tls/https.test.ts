/**
 * HTTPS, as the real service speaks it: against an emulator serving TLS with a CA of its own,
 * svc trusts the CA through SVC_CA_FILE (or a profile's ca_file); a push and a crawl run over
 * it; an untrusted certificate, a certificate for another name and an expired one each end in
 * one line naming the cause and the setting, exit 1, no stack trace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTlsIdentity, type RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

const DAY_MS = 86_400_000;

describe('svc over HTTPS', () => {
  let dir: string;
  let caFile: string;
  let emu: RunningEmulator;
  const others: RunningEmulator[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-tls-'));
    const identity = await makeTlsIdentity();
    caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, identity.caPem);
    emu = await emulator({ tls: identity, products: 5, orders: 30 });
  });
  afterAll(async () => {
    await Promise.all([emu?.close(), ...others.map((other) => other.close())]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves https, and a push with SVC_CA_FILE reaches it', async () => {
    expect(emu.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const [sku] = emu.store.allSkus();
    const csv = join(dir, 'stock.csv');
    writeFileSync(csv, `sku,quantity\n${sku},7\n`);
    const result = await runSvc(['inventory', 'push', csv, '--json'], {
      env: { ...envFor(emu), SVC_CA_FILE: caFile },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(emu.store.locateSku(sku as string)?.variant.quantity).toBe(7);
  });

  it('crawls a list over it', async () => {
    const result = await runSvc(['orders', 'list', '--all', '--json'], {
      env: { ...envFor(emu), SVC_CA_FILE: caFile },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(30);
  });

  const failure = (result: { code: number | null; stderr: string }) => {
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/\n\s+at |unexpected error/);
    return result.stderr.trim();
  };

  it('names SVC_CA_FILE when the CA is not trusted', async () => {
    const line = failure(await runSvc(['orders', 'list'], { env: envFor(emu) }));
    expect(line).toMatch(/signed by a CA this machine does not trust/);
    expect(line).toContain('SVC_CA_FILE');
    expect(line.split('\n')).toHaveLength(1);
  });

  it('names the file that does not hold the CA that signed the certificate', async () => {
    const stranger = await makeTlsIdentity();
    const wrongCa = join(dir, 'other-ca.pem');
    writeFileSync(wrongCa, stranger.caPem);
    const line = failure(await runSvc(['orders', 'list'], { env: { ...envFor(emu), SVC_CA_FILE: wrongCa } }));
    expect(line, line).toContain(`SVC_CA_FILE=${wrongCa} does not hold`);
  });

  it('names the base URL when the certificate is for another host', async () => {
    const identity = await makeTlsIdentity({ hosts: ['service.example.invalid'] });
    const path = join(dir, 'other-host-ca.pem');
    writeFileSync(path, identity.caPem);
    const other = await emulator({ tls: identity, products: 2, orders: 2 });
    others.push(other);
    const line = failure(await runSvc(['orders', 'list'], { env: { ...envFor(other), SVC_CA_FILE: path } }));
    expect(line).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(line).toContain('SVC_BASE_URL');
  });

  it('says an expired certificate has expired', async () => {
    const identity = await makeTlsIdentity({
      notBefore: new Date(Date.now() - 10 * DAY_MS),
      notAfter: new Date(Date.now() - DAY_MS),
    });
    const path = join(dir, 'expired-ca.pem');
    writeFileSync(path, identity.caPem);
    const other = await emulator({ tls: identity, products: 2, orders: 2 });
    others.push(other);
    const line = failure(await runSvc(['orders', 'list'], { env: { ...envFor(other), SVC_CA_FILE: path } }));
    expect(line).toMatch(/has expired \(CERT_HAS_EXPIRED\)/);
  });

  it('refuses a CA file it cannot read before sending anything (exit 2)', async () => {
    const result = await runSvc(['orders', 'list'], {
      env: { ...envFor(emu), SVC_CA_FILE: join(dir, 'missing.pem') },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SVC_CA_FILE=');
  });
});
