/** GET /openapi.json: the OpenAPI document of what the emulator serves, with no key. */
import { openApiDocument } from '../../../contract/openapi.js';
import type { Handler } from '../router.js';

/** The document, generated once from the contract's schemas and operation table. */
export const getOpenApiDocument: Handler = () => ({ status: 200, body: openApiDocument() });
