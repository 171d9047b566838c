import { describe, expect, it } from 'vitest';
import { bodyForDebug, REDACTED, redactJson, redactText } from '../../../src/client/redact.js';

const KEY = 'svc_live_4eC39HqLyjWDarjtT1zdp7dc';

describe('redaction', () => {
  it('leaves API keys to the output boundary, which masks them in every output', () => {
    expect(redactText(`key ${KEY} and Bearer ${KEY}`)).toBe(`key ${KEY} and Bearer ${KEY}`);
  });

  it('removes signing secrets and foreign bearer tokens entirely', () => {
    expect(redactText('secret whsec_8f3kDk39dkd0Xx/+= ok')).toBe(`secret whsec_${REDACTED} ok`);
    expect(redactText('Authorization: Bearer abc.def.ghi')).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it('replaces secret fields at any depth and redacts strings elsewhere', () => {
    const body = {
      id: 'we_1',
      secret: 'whsec_abc',
      nested: [{ client_secret: 'x', password: 'p', note: `uses ${KEY}` }],
      count: 3,
      empty: null,
    };
    expect(redactJson(body)).toEqual({
      id: 'we_1',
      secret: REDACTED,
      nested: [{ client_secret: REDACTED, password: REDACTED, note: `uses ${KEY}` }],
      count: 3,
      empty: null,
    });
    // The input is left alone.
    expect(body.secret).toBe('whsec_abc');
  });

  it('shows bodies as one cut, redacted line', () => {
    expect(bodyForDebug({ secret: 'whsec_1', url: 'https://x' })).toBe(
      `{"secret":"${REDACTED}","url":"https://x"}`,
    );
    expect(bodyForDebug('{"secret":"plain", "n": 1}')).toBe(`{"secret":"${REDACTED}","n":1}`);
    expect(bodyForDebug('<html>whsec_1</html>')).toBe(`<html>whsec_${REDACTED}</html>`);
    const long = bodyForDebug('x'.repeat(5000), 100);
    expect(long).toMatch(/^x{100}… \(5000 chars\)$/);
  });
});
