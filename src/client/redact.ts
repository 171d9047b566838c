/**
 * Redaction of the bodies --debug shows: signing secrets, foreign bearer tokens and fields
 * that name a secret show nothing. API keys are masked where every output is, at the output
 * boundary (src/output/boundary.ts), which the debug lines pass like any other.
 */
const SIGNING_SECRET_IN_TEXT = /whsec_[A-Za-z0-9_+/=-]+/g;
const BEARER_IN_TEXT = /(Bearer\s+)(?!svc_)([^\s"',]+)/gi;
/** Field names whose values are secrets whatever they look like. */
const SECRET_FIELD =
  /^(secret|.*_secret|password|token|access_token|api_key|apikey|authorization|x-api-key)$/i;

/** What a redacted secret shows. */
export const REDACTED = '[redacted]';

/** A string with every signing secret or foreign bearer token removed. */
export function redactText(text: string): string {
  return text.replace(SIGNING_SECRET_IN_TEXT, `whsec_${REDACTED}`).replace(BEARER_IN_TEXT, `$1${REDACTED}`);
}

/** A deep copy of a JSON value with secret fields replaced and secrets inside strings redacted. */
export function redactJson(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactJson);
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(value)) {
      copy[field] = SECRET_FIELD.test(field) && inner !== null && inner !== '' ? REDACTED : redactJson(inner);
    }
    return copy;
  }
  return value;
}

/** A body as one debug line: JSON, redacted, cut to `max` characters. */
export function bodyForDebug(body: unknown, max = 2000): string {
  let text: string;
  if (typeof body === 'string') {
    text = redactText(body);
    try {
      // Field names only tell a secret apart once the text is parsed.
      text = JSON.stringify(redactJson(JSON.parse(body)));
    } catch {
      // Not JSON: the pattern redaction above stands.
    }
  } else {
    try {
      text = JSON.stringify(redactJson(body)) ?? '';
    } catch {
      text = String(body);
    }
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
