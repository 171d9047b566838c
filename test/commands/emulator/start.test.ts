/** `svc emulator start` refusals: a port in use says so and exits 2, naming --port. */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runSvc } from '../../helpers/svc.js';

describe('svc emulator start', () => {
  let held: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (held ? held.close(() => resolve()) : resolve()));
    held = undefined;
  });

  it('on a port in use says so in one line and exits 2', async () => {
    held = createServer();
    const server = held;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const result = await runSvc(['emulator', 'start', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`port ${port} is in use`);
    expect(result.stderr).toContain('--port');
    expect(result.stderr).not.toMatch(/unexpected error|EADDRINUSE|\n\s+at /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
