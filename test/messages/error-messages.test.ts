/** Error messages fit the failure they report (each names what failed and the next step). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 5, rateLimit: false });
});
afterAll(() => emu.close());

describe('messages of a 404', () => {
  it('svc api GET /nope says the route does not exist, not to check an id', async () => {
    const result = await runSvc(['api', 'GET', '/nope'], { env: envFor(emu) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('GET /nope is not a route of the API: check the path');
    expect(result.stderr).not.toMatch(/check the id/);
  });

  it('a method the path does not take is named as such', async () => {
    const result = await runSvc(['api', 'DELETE', '/orders/ord_1'], { env: envFor(emu) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/orders/{id} takes GET, not DELETE');
  });

  it('an unknown id names the list that shows valid ones', async () => {
    for (const args of [
      ['api', 'GET', '/orders/ord_nope'],
      ['orders', 'get', 'ord_nope'],
    ]) {
      const result = await runSvc(args, { env: envFor(emu) });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('check the id (svc orders list shows valid ones)');
    }
  });
});

describe('messages of a 404 about something the request names', () => {
  it('inventory set of an unknown SKU names the SKU and the list of valid ones', async () => {
    const result = await runSvc(['inventory', 'set', 'NO-SUCH-SKU', '--quantity', '1'], { env: envFor(emu) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'SKU NO-SUCH-SKU is not in the catalog; check the SKU (svc inventory export shows valid ones)',
    );
    expect(result.stderr).not.toMatch(/check the id or the path/);
  });

  it('an unknown product named in a publish body is named, not blamed on the base URL', async () => {
    const [account] = [...emu.store.accounts.values()];
    const result = await runSvc(
      ['listings', 'publish', '--product', 'prod_nope', '--channel-account', account.id],
      {
        env: envFor(emu),
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No such product: prod_nope');
    expect(result.stderr).toContain('check the product_id (svc products list shows valid ones)');
    expect(result.stderr).not.toMatch(/base URL/);
  });
});

describe('messages of an unreachable service', () => {
  it('a refused connection points at the service address', async () => {
    const result = await runSvc(['orders', 'list', '--max-retries', '0'], {
      env: { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_KEY: emu.keys.live },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /could not connect to http:\/\/127\.0\.0\.1:9 \(connection refused\).*check the service address/,
    );
  });
});
