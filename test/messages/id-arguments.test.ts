/**
 * Every listings and channels command that takes an id refuses one without its kind's prefix
 * the same way: exit 2, one line naming the command that lists them, and nothing sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { type CaptureServer, captureServer } from '../helpers/capture-server.js';
import { memoryIO } from '../helpers/memory-io.js';
import { ANY_KEY } from '../helpers/misbehaving-server.js';
import { freshConfigDir } from '../helpers/svc.js';

// The bundle defines it; main() runs here from the sources.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

const servers: CaptureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Runs `svc ARGS` in-process against a server that records every request. */
async function svc(args: string[]) {
  const server = await captureServer();
  servers.push(server);
  const io = memoryIO();
  const code = await main(['node', 'svc', ...args], {
    io,
    env: { NO_COLOR: '1', SVC_CONFIG_DIR: freshConfigDir(), SVC_BASE_URL: server.url, SVC_API_KEY: ANY_KEY },
  });
  return { code, err: io.err(), requests: server.requests };
}

const LISTING_REFUSAL =
  '"bad_1" is not a listing id (they look like list_…); find one with `svc listings list`';
const ACCOUNT_REFUSAL =
  '"bad_1" is not a channel account id (they look like chac_…); find one with `svc channels list`';

describe('an id without its prefix', () => {
  const cases: Array<[string[], string]> = [
    [['listings', 'get', 'bad_1'], LISTING_REFUSAL],
    [['listings', 'resync', 'bad_1'], LISTING_REFUSAL],
    [['listings', 'update', 'bad_1', '--override', 'title=A'], LISTING_REFUSAL],
    [['listings', 'delist', 'bad_1', '--yes'], LISTING_REFUSAL],
    [['channels', 'get', 'bad_1'], ACCOUNT_REFUSAL],
    [['channels', 'policies', 'bad_1'], ACCOUNT_REFUSAL],
    [['channels', 'categories', 'bad_1'], ACCOUNT_REFUSAL],
    [['channels', 'schema', 'bad_1', 'cat_1'], ACCOUNT_REFUSAL],
  ];
  for (const [args, refusal] of cases) {
    it(`svc ${args.join(' ')}: exit 2 before anything is sent`, async () => {
      const result = await svc(args);
      expect(result.code, result.err).toBe(2);
      expect(result.err).toContain(refusal);
      expect(result.requests).toEqual([]);
    });
  }

  it('a well-formed id goes through to the service', async () => {
    const result = await svc(['listings', 'get', 'list_1', '--json']);
    expect(result.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /rest/v1/listings/list_1',
    ]);
  });
});
