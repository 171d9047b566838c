import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { startCommand } from './start.js';

/** `svc emulator …`: the bundled local service. */
export function registerEmulator(program: Command, ctx: Context): void {
  const emulator = program
    .command('emulator')
    .description('run the bundled emulator of the service, for offline dry runs and tests');
  startCommand(emulator, ctx);
}
