/**
 * A package registry on loopback holding only what an install of the packed `svc` needs: the
 * keyring library and its prebuilt platform packages, and zod (the published types name its
 * types), packed from this checkout's node_modules.
 * An install test points npm at it with an empty cache, so it passes on a machine whose npm
 * cache holds only what `npm ci` put there (tarballs, no registry metadata) and never reaches
 * the public registry.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loopbackServer } from './loopback-server.js';
import { packDirectory } from './tarball.js';

/** One package version as a registry describes it. */
interface Manifest {
  name: string;
  version: string;
  [field: string]: unknown;
}

/** A running registry: its URL, for `npm --registry`, and how to stop it. */
export interface LocalRegistry {
  url: string;
  /** Names of the packages whose tarballs were served (so a test can see what npm fetched). */
  served: Set<string>;
  close(): Promise<void>;
}

/** What an install of the packed `svc` fetches: its dependency zod, and the keyring's scope. */
export const SVC_DEPENDENCIES = ['@napi-rs', 'zod'] as const;

/**
 * Serves every lockfile package under a scope of `scopes` (e.g. `@napi-rs`), or named by one (`zod`). Packages installed in
 * `root/node_modules` (this platform's) are packed and served whole; the others are described
 * from the lockfile (version, os, cpu, libc) with no tarball, as npm skips them on this platform.
 */
export async function startLocalRegistry(root: string, scopes: readonly string[]): Promise<LocalRegistry> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const tarballs = new Map<string, Buffer>();
  const manifests = new Map<string, Manifest>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    const named = scopes.some(
      (scope) => path === `node_modules/${scope}` || path.startsWith(`node_modules/${scope}/`),
    );
    if (!named || path.slice('node_modules/'.length).includes('/node_modules/')) continue;
    const name = path.slice('node_modules/'.length);
    const installed = join(root, path);
    if (existsSync(join(installed, 'package.json'))) {
      const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest;
      const tarball = packDirectory(installed);
      tarballs.set(name, tarball);
      manifests.set(name, { ...manifest, dist: { integrity: integrityOf(tarball) } });
    } else {
      const { version, cpu, os, libc, engines } = entry;
      manifests.set(name, { name, version: String(version), cpu, os, libc, engines, dist: {} });
    }
  }
  const served = new Set<string>();
  const { url, close } = await loopbackServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://registry').pathname).slice(1);
    const tarballName = path.endsWith('.tgz') ? path.replace(/\/-\/[^/]+\.tgz$/, '') : undefined;
    if (tarballName !== undefined) {
      const tarball = tarballs.get(tarballName);
      if (!tarball) return notFound(response);
      served.add(tarballName);
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
      return;
    }
    const manifest = manifests.get(path);
    if (!manifest) return notFound(response);
    const base = `http://${request.headers.host}`;
    const file = `${manifest.name.split('/').pop()}-${manifest.version}.tgz`;
    const version = {
      ...manifest,
      dist: { ...(manifest.dist as object), tarball: `${base}/${manifest.name}/-/${file}` },
    };
    const packument = {
      name: manifest.name,
      'dist-tags': { latest: manifest.version },
      versions: { [manifest.version]: version },
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  });
  return { url: `${url}/`, served, close };
}

function notFound(response: import('node:http').ServerResponse): void {
  response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
}

function integrityOf(tarball: Buffer): string {
  return `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
}
