/**
 * A client generated from docs/openapi.json with openapi-typescript compiles, and takes what the
 * service may add within /v1: a response enum takes a new value; a request enum stays closed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiText } from '../../../src/contract/openapi.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-ts-'));

/** The compiler's complaints about `files` (one program: the lib loads once), as `file: message`. */
function diagnostics(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (diagnostic) =>
        `${diagnostic.file?.fileName.split('/').pop()}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
    );
}

describe('a client generated with openapi-typescript', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles, takes a new listing status and event type, and refuses an unknown product status', async () => {
    const ast = await openapiTS(JSON.parse(openApiText()));
    writeFileSync(join(dir, 'api.ts'), astToString(ast));
    writeFileSync(
      join(dir, 'use.ts'),
      [
        "import type { components } from './api.js';",
        "type Schemas = components['schemas'];",
        "export const status: Schemas['Listing']['status'] = 'paused_by_channel';",
        "export const order: Schemas['Order']['status'] = 'awaiting_pickup';",
        "export const code: Schemas['Error']['error']['code'] = 'some_new_code';",
        "export const type: Schemas['Event']['type'] = 'listing.relisted';",
        "export const known: Schemas['Listing']['status'] = 'listed';",
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'closed.ts'),
      "import type { components } from './api.js';\nexport const s: NonNullable<components['schemas']['ProductInput']['status']> = 'archived';\n",
    );
    const found = diagnostics(['api.ts', 'use.ts', 'closed.ts'].map((file) => join(dir, file)));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^closed\.ts: .*archived/);
  }, 60_000);
});
