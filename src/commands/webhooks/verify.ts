import { readFile } from 'node:fs/promises';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { integerFlag } from '../../cmdutil/parse.js';
import { isStdin } from '../../config/spool.js';
import { verifySignature } from '../../contract/signature.js';
import { loadSigningSecret } from '../../core/webhooks/secret.js';
import { CommandFailed, FileError } from '../../errors.js';

/** Options of `svc webhooks verify`. */
export interface VerifyOptions {
  signature: string;
  payload: string;
  tolerance?: number;
  secretFile?: string;
}

/** `svc webhooks verify --signature HEADER (--payload FILE|-)`: exit 0 authentic, 1 not. */
export const command = defineCommand<VerifyOptions>({
  path: ['webhooks', 'verify'],
  rank: 5,
  description: 'check that a delivery is authentic (secret from SVC_WEBHOOK_SECRET or --secret-file)',
  flags: [
    { flags: '--signature <header>', description: 'the X-Service-Signature header value', required: true },
    {
      flags: '--payload <file>',
      description: 'the raw body as received, or - for standard input',
      required: true,
    },
    {
      flags: '--tolerance <s>',
      description: 'largest accepted age of the signature in seconds (default 300)',
      parse: integerFlag('--tolerance', 0),
    },
    {
      flags: '--secret-file <f>',
      description: 'file holding the endpoint secret (instead of SVC_WEBHOOK_SECRET)',
    },
  ],
  takes: { output: 'lines', offline: true },
  examples: [
    'SVC_WEBHOOK_SECRET=whsec_… svc webhooks verify --signature "t=…,v1=…" --payload body.json',
    'svc webhooks verify --secret-file secret.txt --signature "$SIG" --payload - < body.json',
  ],
  /** Reads the secret and the raw body, verifies, prints the verdict; not authentic is exit 1. */
  async run(options, deps) {
    const secret = await loadSigningSecret({ secretFile: options.secretFile, env: deps.env });
    const payload = await readPayload(deps, options.payload);
    const now = deps.now();
    const result = verifySignature({
      payload,
      header: options.signature,
      secret,
      toleranceSeconds: options.tolerance,
      now,
    });
    const json = deps.io.wantsMachineText;
    if (result.ok) {
      const age = Math.round(now / 1000 - result.timestamp);
      if (json)
        await deps.io.printer.json({ authentic: true, timestamp: result.timestamp, age_seconds: age });
      else await deps.io.printer.text(`authentic: a v1 signature matches, signed ${age} s ago`);
      return;
    }
    if (json)
      await deps.io.printer.json({ authentic: false, reason: result.reason, message: result.message });
    throw new CommandFailed(`not authentic: ${result.message}`);
  },
});

/** The body's exact bytes, from a file or standard input. */
async function readPayload({ io }: Pick<Deps, 'io'>, source: string): Promise<Buffer> {
  if (isStdin(source)) {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FileError(
      `cannot read --payload ${source}${code ? ` (${code})` : ''}; give the raw body file, or - for standard input`,
    );
  }
}
