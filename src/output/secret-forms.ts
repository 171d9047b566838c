/**
 * The forms a server may echo a secret in besides its own: letter case changed, blanks between
 * its characters, base64 (plain or URL-safe, alone or inside a longer encoded text such as a
 * Basic credential). The boundary (./boundary.ts) masks every one of them.
 */

/** A pattern of one echoed form, and whether it is the secret as text (masked to prefix and last four) or encoded (masked whole). */
export interface EchoedForm {
  pattern: RegExp;
  encoded: boolean;
}

/** Shortest run of base64 characters worth matching: anything shorter could be ordinary text. */
const MIN_ENCODED_CORE = 12;

/** The patterns that find `secret` echoed in any form the boundary knows. */
export function echoedForms(secret: string): EchoedForm[] {
  const chars = [...secret].map((char) => char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'));
  // As text: any letter case, blanks between its characters ("SVC_LIVE_…", "s v c _ l i v e").
  const forms: EchoedForm[] = [{ pattern: new RegExp(chars.join('\\s*'), 'gi'), encoded: false }];
  for (const core of base64Cores(secret)) {
    forms.push({ pattern: new RegExp(core.replace(/[+/]/g, '\\$&'), 'g'), encoded: true });
  }
  return forms;
}

/**
 * The part of the base64 of `secret` that is the same wherever it starts within an encoded
 * text: for each of the three byte alignments, the characters that encode only its own bytes,
 * in both alphabets (`+/` and `-_`).
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Leading characters mix in the bytes before it; trailing ones the bytes after it (or padding).
    const start = Math.ceil((offset * 4) / 3);
    const end = Math.floor(((offset + bytes.length) * 4) / 3);
    const core = encoded.slice(start, end);
    if (core.length < MIN_ENCODED_CORE) continue;
    cores.add(core);
    cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...cores];
}
