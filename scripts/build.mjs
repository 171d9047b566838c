// Builds dist/: the CLI (bin/svc loads dist/cli.js) and the library entries.
import { rmSync } from 'node:fs';
import { writeAnswerChecks } from './answer-checks.mjs';
import { bundleCli, bundleLibrary } from './bundle.mjs';
import { writeManifest } from './manifest.mjs';

// The command manifest (help, completion, which file defines each command) comes from the files in src/commands.
await writeManifest();
// The answer checks the client tries before zod come from the endpoint table's result schemas.
await writeAnswerChecks();
const dist = new URL('../dist', import.meta.url).pathname;
rmSync(dist, { recursive: true, force: true });
await bundleCli(dist);
await bundleLibrary(dist);
