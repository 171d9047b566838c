/**
 * The one boundary every byte svc writes passes (docs/architecture.md, Output). Its streams
 * mask the key in use, and anything shaped like a key, in whatever is written to stdout or
 * stderr: results in every format, messages, errors and their JSON lines, prompts, help,
 * --debug lines and stack traces. Which data is escaped where (escape.ts) it decides from what
 * each stream is connected to: text for people always, machine formats only on a terminal.
 */
import type { Writable } from 'node:stream';
import { API_KEY_IN_TEXT, maskKey } from '../contract/contract.js';
import type { IO } from './io.js';
import { type EchoedForm, echoedForms } from './secret-forms.js';

/** Shorter secrets are not masked by value: masking "abc" everywhere would garble the output. */
const MIN_SECRET_LENGTH = 8;

/**
 * The user info of a URL (`scheme://user:password@`, `scheme://token@`), in the characters
 * RFC 3986 allows there (a quote or a blank ends it), up to the last `@` of the authority,
 * since a password may hold an `@` its writer did not encode.
 */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)([\w.~%!$&'()*+,;=-]*)(:[\w.~%!$&'()*+,;=:@-]*)?@/gi;

/** `text` with the user info of every URL masked: `http://user:***@host`, `https://***@host`. */
export function maskUserInfo(text: string): string {
  return text.replace(URL_USER_INFO, (_, scheme: string, user: string, password?: string) =>
    password === undefined ? `${scheme}***@` : `${scheme}${user}:***@`,
  );
}

/** The streams of a run, guarded, and what it knows of the secrets in use. */
export class Boundary {
  /** The run's streams: every write masked. */
  readonly io: IO;
  private readonly secrets = new Set<string>();
  /** Passwords of URLs in use (SVC_PACING_URL's), masked in their URL whatever their length. */
  private readonly passwords = new Set<string>();
  private readonly forms = new Map<string, EchoedForm[]>();
  /** Keys shown on purpose: ones that guard nothing (the bundled emulator's, printed to be copied). */
  private readonly disclosed = new Set<string>();

  constructor(raw: IO) {
    this.io = {
      stdout: guarded(raw.stdout, (chunk) => this.redactChunk(chunk)),
      stderr: guarded(raw.stderr, (chunk) => this.redactChunk(chunk)),
      // Read when a command reads it (processIO makes stdin on first use).
      get stdin() {
        return raw.stdin;
      },
      stdoutIsTTY: raw.stdoutIsTTY,
      stderrIsTTY: raw.stderrIsTTY,
      stdinIsTTY: raw.stdinIsTTY,
      color: raw.color,
      columns: raw.columns,
    };
  }

  /** Masks `key` (the key in use, whatever its shape) wherever it appears from now on. */
  protect(key: string | undefined): void {
    if (key !== undefined && key.length >= MIN_SECRET_LENGTH && !this.disclosed.has(key))
      this.secrets.add(key);
  }

  /**
   * Masks a URL's `password` from now on: within any URL (`:password@`) whatever its length,
   * and anywhere when it is long enough to be told from ordinary words.
   */
  protectPassword(password: string): void {
    if (password === '') return;
    this.passwords.add(password);
  }

  /** Masks the password of a URL given as text (SVC_PACING_URL), as written and as decoded. */
  protectUrlPassword(url: string | undefined): void {
    if (!url) return;
    try {
      const { password } = new URL(url.trim());
      this.protectPassword(password);
      this.protectPassword(decodeURIComponent(password));
    } catch {
      // Not a URL: refused later, by a message that never repeats a password.
    }
  }

  /**
   * Lets `keys` through whole: keys of the bundled emulator, which guard nothing and are
   * printed for the user to copy. Never a key the user holds.
   */
  disclose(keys: Iterable<string>): void {
    for (const key of keys) {
      this.disclosed.add(key);
      this.secrets.delete(key);
    }
  }

  /** `text` with the key in use, and anything shaped like a key, masked (prefix and last four). */
  redact(text: string): string {
    return this.mask(text, (value) => value);
  }

  /** `form` turns a text into the representation searched (latin1 for bytes). */
  private mask(text: string, form: (value: string) => string): string {
    let shown = text;
    for (const password of this.passwords) {
      const inUrl = form(`:${password}@`);
      if (shown.includes(inUrl)) shown = shown.replaceAll(inUrl, ':***@');
      const found = form(password);
      if (password.length >= MIN_SECRET_LENGTH && shown.includes(found))
        shown = shown.replaceAll(found, '***');
    }
    for (const secret of this.secrets) {
      // As written, in another letter case, spaced out, or base64-encoded (./secret-forms.ts).
      for (const { pattern, encoded } of this.formsOf(secret))
        shown = shown.replace(pattern, encoded ? '***' : form(maskKey(secret)));
    }
    shown = shown.replace(API_KEY_IN_TEXT, (key) => (this.disclosed.has(key) ? key : form(maskKey(key))));
    // No secret of a URL is printed, whoever's URL it is (a base URL with a password, a proxy's).
    return shown.includes('@') ? maskUserInfo(shown) : shown;
  }

  /** The patterns of a secret's echoed forms, made once per secret. */
  private formsOf(secret: string): EchoedForm[] {
    let forms = this.forms.get(secret);
    if (!forms) {
      forms = echoedForms(secret);
      this.forms.set(secret, forms);
    }
    return forms;
  }

  private redactChunk(chunk: unknown): unknown {
    if (typeof chunk === 'string') return this.redact(chunk);
    if (chunk instanceof Uint8Array) {
      // Bytes stay bytes (an answer written as it came): searched as latin1, one char a byte.
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const text = bytes.toString('latin1');
      const shown = this.mask(text, (value) => Buffer.from(value, 'utf8').toString('latin1'));
      return shown === text ? chunk : Buffer.from(shown, 'latin1');
    }
    return chunk;
  }
}

/**
 * `stream` with its writes passed through `redact`; everything else (isTTY, columns, events,
 * backpressure) is the stream's own, so prompts, spinners and pipes behave as on the stream.
 * A writer that hooks `write` (ora does, to keep its spinner clear of other lines) hooks the
 * guarded write, so what it passes on is masked too.
 */
function guarded(stream: Writable, redact: (chunk: unknown) => unknown): Writable {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  const end = stream.end.bind(stream) as (...args: unknown[]) => Writable;
  const hooks: Record<'write' | 'end', unknown> = {
    write: (chunk: unknown, ...rest: unknown[]) => write(redact(chunk), ...rest),
    end: (chunk?: unknown, ...rest: unknown[]) =>
      typeof chunk === 'function' || chunk === undefined || chunk === null
        ? end(chunk, ...rest)
        : end(redact(chunk), ...rest),
  };
  const hooked = (property: string | symbol): property is 'write' | 'end' =>
    property === 'write' || property === 'end';
  return new Proxy(stream, {
    get(target, property) {
      if (hooked(property)) return hooks[property];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value) {
      if (hooked(property)) hooks[property] = value;
      else Reflect.set(target, property, value, target);
      return true;
    },
  });
}
