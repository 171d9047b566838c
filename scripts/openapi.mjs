// Writes docs/openapi.json from the built emulator entry (run `npm run openapi`, which builds
// first): the OpenAPI document the emulator serves at GET /rest/v1/openapi.json, generated from
// the contract's zod schemas and operation table. test/unit/contract/openapi.test.ts checks it.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { openApiText } = await import(new URL('../dist/emulator.js', import.meta.url).href);
writeFileSync(`${root}docs/openapi.json`, openApiText());
process.stdout.write('docs/openapi.json\n');
