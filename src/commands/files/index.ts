import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { uploadCommand } from './upload.js';

/** `svc files …`: images uploaded for use in products. */
export function registerFiles(program: Command, ctx: Context): void {
  const files = program.command('files').description('upload images that are not hosted publicly');
  uploadCommand(files, ctx);
}
