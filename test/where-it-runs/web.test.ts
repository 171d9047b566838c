/**
 * `--web` opens what the command looks at: `orders get ID --web` the order on its marketplace
 * (order_url), `listings get ID --web` the listing on its channel (url_on_channel). $BROWSER is a
 * recording script here; in CI, or with no browser to start, the URL is printed and the run
 * exits 0; no URL known exits 1 naming why.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
afterAll(() => emu.close());
const scratch = () => tempDir('svc-web-');

/** A $BROWSER that writes the arguments it was given to a file, and that file. */
function recordingBrowser(): { browser: string; record: string } {
  const dir = scratch();
  const record = join(dir, 'opened.txt');
  const browser = join(dir, 'browser.sh');
  writeFileSync(
    browser,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${record}.part" && mv "${record}.part" "${record}"\n`,
  );
  chmodSync(browser, 0o755);
  return { browser, record };
}

/** Resolves with the file's text once it exists (the browser runs detached from svc). */
async function whenWritten(path: string): Promise<string> {
  for (let waited = 0; waited < 20_000; waited += 20) {
    if (existsSync(path)) return readFileSync(path, 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} was never written`);
}

const order = () => {
  const found = [...emu.store.orders.values()].find((candidate) => candidate.order_url);
  if (!found) throw new Error('no order with an order_url in the seed');
  return found;
};

describe('--web', () => {
  it('orders get ID --web opens order_url with $BROWSER', async () => {
    const { browser, record } = recordingBrowser();
    const { id, order_url } = order();
    const result = await runSvc(['orders', 'get', id, '--web'], {
      env: { ...envFor(emu), BROWSER: browser },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(await whenWritten(record)).toBe(`${order_url}\n`);
    expect(result.stderr).toContain(`Opening ${order_url}`);
  });

  it('listings get ID --web opens url_on_channel', async () => {
    const { browser, record } = recordingBrowser();
    const listing = [...emu.store.listings.values()].find((candidate) => candidate.url_on_channel);
    if (!listing) throw new Error('no listing with a url_on_channel in the seed');
    const result = await runSvc(['listings', 'get', listing.id, '--web'], {
      env: { ...envFor(emu), BROWSER: browser },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(await whenWritten(record)).toBe(`${listing.url_on_channel}\n`);
  });

  it('without $BROWSER, the system opener (xdg-open on Linux) through the open package, from bin/svc', async () => {
    const { browser, record } = recordingBrowser();
    const bin = scratch();
    writeFileSync(join(bin, 'xdg-open'), readFileSync(browser));
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const { id, order_url } = order();
    const result = await runSvc(['orders', 'get', id, '--web'], {
      process: true,
      env: { ...envFor(emu), BROWSER: undefined, DISPLAY: ':99', PATH: `${bin}:${process.env.PATH}` },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(await whenWritten(record)).toBe(`${order_url}\n`);
  });

  it('in CI prints the URL and opens nothing', async () => {
    const { browser, record } = recordingBrowser();
    const { id, order_url } = order();
    const result = await runSvc(['orders', 'get', id, '--web'], {
      env: { ...envFor(emu), BROWSER: browser, CI: 'true' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${order_url}\n`);
    expect(existsSync(record)).toBe(false);
  });

  it('without a browser to start prints the URL', async () => {
    const { id, order_url } = order();
    const result = await runSvc(['orders', 'get', id, '--web'], {
      env: { ...envFor(emu), BROWSER: undefined, DISPLAY: undefined, WAYLAND_DISPLAY: undefined },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${order_url}\n`);
  });

  it('no URL known: exit 1 naming the field', async () => {
    const listing = [...emu.store.listings.values()].find((candidate) => !candidate.url_on_channel);
    if (!listing) throw new Error('no listing without a url_on_channel in the seed');
    const result = await runSvc(['listings', 'get', listing.id, '--web'], {
      env: { ...envFor(emu), CI: 'true' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`listing ${listing.id} on its channel has no URL yet.*url_on_channel`),
    );
    expect(result.stdout).toBe('');
  });
});
