import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { integerFlag } from '../../cmdutil/parse.js';
import { isStdin } from '../../config/spool.js';
import { CommandFailed, FileError } from '../../errors.js';

/** Options of `svc webhooks verify`. */
export interface VerifyOptions {
  signature: string;
  payload: string;
  tolerance?: number;
  secretFile?: string;
}

/** `svc webhooks verify --signature HEADER (--payload FILE|-)`: exit 0 authentic, 1 not. */
export function verifyCommand(parent: Command, ctx: Context, run = runVerify): Command {
  return parent
    .command('verify')
    .description('check that a delivery is authentic (secret from SVC_WEBHOOK_SECRET or --secret-file)')
    .requiredOption('--signature <header>', 'the X-Service-Signature header value')
    .requiredOption('--payload <file>', 'the raw body as received, or - for standard input')
    .option(
      '--tolerance <s>',
      'largest accepted age of the signature in seconds (default 300)',
      integerFlag('--tolerance', 0),
    )
    .option('--secret-file <f>', 'file holding the endpoint secret (instead of SVC_WEBHOOK_SECRET)')
    .addHelpText(
      'after',
      '\nExamples:\n  SVC_WEBHOOK_SECRET=whsec_… svc webhooks verify --signature "t=…,v1=…" --payload body.json\n  svc webhooks verify --secret-file secret.txt --signature "$SIG" --payload - < body.json\n',
    )
    .action(async (options: VerifyOptions) => run(ctx, options));
}

/** Reads the secret and the raw body, verifies, prints the verdict; not authentic is exit 1. */
export async function runVerify(ctx: Context, options: VerifyOptions): Promise<void> {
  const { loadSigningSecret } = await import('../../core/webhooks/secret.js');
  const secret = await loadSigningSecret({ secretFile: options.secretFile, env: ctx.env });
  const payload = await readPayload(ctx, options.payload);
  const { verifySignature } = await import('../../contract/signature.js');
  const now = ctx.now();
  const result = verifySignature({
    payload,
    header: options.signature,
    secret,
    toleranceSeconds: options.tolerance,
    now,
  });
  const json = ctx.io.wantsMachineText;
  if (result.ok) {
    const age = Math.round(now / 1000 - result.timestamp);
    if (json) await ctx.io.printer.json({ authentic: true, timestamp: result.timestamp, age_seconds: age });
    else await ctx.io.printer.text(`authentic: a v1 signature matches, signed ${age} s ago`);
    return;
  }
  if (json) await ctx.io.printer.json({ authentic: false, reason: result.reason, message: result.message });
  throw new CommandFailed(`not authentic: ${result.message}`);
}

/** The body's exact bytes, from a file or standard input. */
async function readPayload(ctx: Context, source: string): Promise<Buffer> {
  if (isStdin(source)) {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  const { readFile } = await import('node:fs/promises');
  try {
    return await readFile(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FileError(
      `cannot read --payload ${source}${code ? ` (${code})` : ''}; give the raw body file, or - for standard input`,
    );
  }
}
