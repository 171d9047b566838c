/** Where `webhooks verify`, `events replay` and `events listen` find the signing secret. */
import { readFile } from 'node:fs/promises';
import { FileError, UsageError } from '../../errors.js';

/** The secret from --secret-file, else SVC_WEBHOOK_SECRET; never from a flag's value (docs/guide.md, Environment). */
export async function loadSigningSecret(options: {
  secretFile?: string;
  env: NodeJS.ProcessEnv;
}): Promise<string> {
  if (options.secretFile !== undefined) {
    let text: string;
    try {
      text = await readFile(options.secretFile, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new FileError(
        `cannot read --secret-file ${options.secretFile}${code ? ` (${code})` : ''}; give a file holding the endpoint's whsec_… secret`,
      );
    }
    // An editor's trailing newline is not part of the secret.
    const secret = text.trim();
    if (secret === '')
      throw new UsageError(`--secret-file ${options.secretFile} is empty; put the whsec_… secret in it`);
    return secret;
  }
  const fromEnv = options.env.SVC_WEBHOOK_SECRET?.trim();
  if (fromEnv) return fromEnv;
  throw new UsageError(
    'no signing secret: set SVC_WEBHOOK_SECRET or pass --secret-file F (secrets are never taken from a flag value)',
  );
}
