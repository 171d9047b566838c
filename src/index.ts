/** The package's library entry: what receivers and scripts written in TypeScript can import. */
export { startEmulator } from './emulator/index.js';
export type { EmulatorKeys, EmulatorOptions, RunningEmulator } from './emulator/index.js';
