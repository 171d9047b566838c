// Builds dist/: the CLI (bin/svc loads dist/cli.js) and the library entries.
import { rmSync } from 'node:fs';
import { bundleCli, bundleLibrary } from './bundle.mjs';
import { writeEndpoints } from './endpoints.mjs';
import { writeManifest } from './manifest.mjs';

// The command manifest (help, completion, which file defines each command) comes from the files in src/commands.
await writeManifest();
// The endpoint table without its zod schemas, for the client: routing facts and answer checks.
await writeEndpoints();
const dist = new URL('../dist', import.meta.url).pathname;
rmSync(dist, { recursive: true, force: true });
await bundleCli(dist);
await bundleLibrary(dist);
