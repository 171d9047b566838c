/**
 * A package tarball written in-process: what `npm pack` makes of a directory already installed
 * from one (every file under `package/`, nested node_modules left out), without starting npm
 * (about a second of CPU a package, several per install test).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const BLOCK = 512;

/** The files under `dir`, as paths below it, skipping node_modules; sorted, so a tarball is stable. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split('/').includes('node_modules'))
    .sort();
}

/** Writes `value` into `header` at `offset` as ASCII, at most `length` bytes. */
function put(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value.slice(0, length), offset, length, 'ascii');
}

/** Splits a path over ustar's 155-byte prefix and 100-byte name at a slash. */
function splitName(path: string): [prefix: string, name: string] {
  if (Buffer.byteLength(path) <= 100) return ['', path];
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) {
    if (Buffer.byteLength(path.slice(at + 1)) <= 100 && Buffer.byteLength(path.slice(0, at)) <= 155) {
      return [path.slice(0, at), path.slice(at + 1)];
    }
  }
  throw new Error(`tarball: the path ${path} is too long for a ustar header`);
}

/** One ustar header block for a regular file. */
function header(path: string, size: number, mode: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const [prefix, name] = splitName(path);
  put(block, 0, 100, name);
  put(block, 100, 8, `${(mode & 0o777).toString(8).padStart(6, '0')} \0`);
  put(block, 108, 8, '000000 \0');
  put(block, 116, 8, '000000 \0');
  put(block, 124, 12, `${size.toString(8).padStart(11, '0')} `);
  put(block, 136, 12, `${(0).toString(8).padStart(11, '0')} `);
  put(block, 148, 8, '        ');
  put(block, 156, 1, '0');
  put(block, 257, 8, 'ustar\u000000');
  put(block, 345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** A gzipped tarball of `dir`'s files under `package/`, as npm packs and installs them. */
export function packDirectory(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const path of filesBelow(dir)) {
    const full = join(dir, path);
    const body = readFileSync(full);
    parts.push(header(`package/${path}`, body.length, statSync(full).mode), body);
    const padding = (BLOCK - (body.length % BLOCK)) % BLOCK;
    if (padding > 0) parts.push(Buffer.alloc(padding));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts));
}
