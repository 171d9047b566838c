/** `svc/emulator`: the bundled emulator, for tests that start it in-process, and its OpenAPI document. */

export type { Json, JsonObject } from './contract/openapi.js';
export { openApiDocument, openApiText } from './contract/openapi.js';
export type { EmulatorKeys, EmulatorOptions, RunningEmulator } from './emulator/index.js';
export { createManualClock, EmulatorStateError, startEmulator } from './emulator/index.js';
