// Regenerates the command reference from the built CLI (run `npm run docs`, which builds first):
// docs/commands/*.md and man/svc.1, so that they match the command tree; test/docs/command-reference.test.ts
// checks it. Pages of commands that no longer exist are removed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'svc');
// Help text must not depend on the terminal this runs in.
const env = { ...process.env, NO_COLOR: '1', COLUMNS: '80' };
const files = JSON.parse(execFileSync(process.execPath, [bin, '__docs'], { encoding: 'utf8', env }));

const pages = join(root, 'docs', 'commands');
mkdirSync(pages, { recursive: true });
for (const name of readdirSync(pages)) {
  if (name.endsWith('.md') && !(`docs/commands/${name}` in files)) {
    rmSync(join(pages, name));
    process.stdout.write(`removed docs/commands/${name}\n`);
  }
}
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  process.stdout.write(`${path}\n`);
}
