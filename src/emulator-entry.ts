/** `svc/emulator`: the bundled emulator, for tests that start it in-process. */

export type { EmulatorKeys, EmulatorOptions, RunningEmulator } from './emulator/index.js';
export { createManualClock, EmulatorStateError, startEmulator } from './emulator/index.js';
