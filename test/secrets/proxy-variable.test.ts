/** A malformed proxy address is named by its variable, without its value (it may hold a password). */
import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/svc.js';

const KEY = 'svc_live_proxyvariable0123456789';

describe('a malformed proxy variable', () => {
  for (const [variable, value] of [
    ['HTTPS_PROXY', 'http://user:%E0%A4%A@proxy.example:3128'],
    ['https_proxy', 'not a url'],
    ['HTTP_PROXY', 'http://proxy.example:99999'],
  ]) {
    it(`${variable}=${value}: exit 2, naming ${variable}, nothing sent`, async () => {
      const result = await runSvc(['orders', 'list', '--max-retries', '0'], {
        env: { SVC_API_KEY: KEY, SVC_BASE_URL: 'https://api.example.invalid', [variable]: value },
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(variable);
      expect(result.stderr).not.toContain('%E0%A4%A');
      expect(result.stderr).not.toMatch(/unexpected error/);
    });
  }
});
