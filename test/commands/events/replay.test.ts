/** `svc events replay`: the log's events sent to a receiver, signed, once each. */
import { describe, expect, it } from 'vitest';
import { envFor } from '../../helpers/emulator.js';
import { closedPort } from '../../helpers/loopback-server.js';
import { independentlyVerified, signedAt } from '../../helpers/receiver.js';
import { runSvc } from '../../helpers/svc.js';
import { emu, env, logSince, receiver, SECRET, useEventsEmulator } from './events-emulator.js';

useEventsEmulator();

describe('svc events replay', () => {
  it('delivers every event of the window exactly once, oldest first, signed so the receiver verifies it', async () => {
    const hooks = await receiver();
    const since = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const expected = await logSince(since);
    expect(expected.length).toBeGreaterThan(5);
    const before = Math.floor(Date.now() / 1000);
    const result = await runSvc(['events', 'replay', '--since', since, '--to', hooks.url], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(hooks.received.map((d) => JSON.parse(d.body).id)).toEqual(expected.map((e) => e.id));
    for (const [index, delivery] of hooks.received.entries()) {
      expect(delivery.body).toBe(JSON.stringify(expected[index]));
      expect(independentlyVerified(SECRET, delivery.signature, delivery.body)).toBe(true);
      expect(signedAt(delivery.signature)).toBeGreaterThanOrEqual(before);
    }
    const createdAt = hooks.received.map((d) => JSON.parse(d.body).created_at as string);
    expect([...createdAt].sort()).toEqual(createdAt);
    expect(result.stderr).toContain(`${expected.length} delivered, 0 failed, 0 skipped`);
  });

  it('interrupted, it says how many were delivered and the command that sends the rest (exit 130)', async () => {
    // The third delivery never gets an answer: the run is stopped while it waits.
    const hooks = await receiver((index) => (index === 2 ? 'hang' : 200));
    const since = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const expected = await logSince(since);
    const first = await runSvc(['events', 'replay', '--since', since, '--to', hooks.url], {
      env: env(),
      signalWhen: { signal: 'SIGINT', when: () => hooks.received.length >= 3 },
    });
    expect(first.code, first.stderr).toBe(130);
    const resume =
      /stopped with 2 of (\d+) events delivered; `svc (events replay [^`]+)` sends the rest/.exec(
        first.stderr,
      );
    expect(resume, first.stderr).not.toBeNull();
    expect(Number(resume?.[1])).toBe(expected.length);
    const args = (resume?.[2] ?? '').split(' ');
    expect(args).toContain(expected[2].created_at as string);
    const second = await runSvc(args, { env: env() });
    expect(second.code, second.stderr).toBe(0);
    const delivered = new Set(hooks.received.slice(3).map((d) => JSON.parse(d.body).id));
    for (const event of expected.slice(0, 2)) delivered.add(event.id);
    expect(expected.filter((event) => !delivered.has(event.id))).toEqual([]);
  });

  it('--type narrows the window; --dry-run sends nothing and lists what it would send', async () => {
    const hooks = await receiver();
    const since = new Date(Date.now() - 29 * 86_400_000).toISOString();
    const orders = await logSince(since, 'order.created');
    expect(orders.length).toBeGreaterThan(0);
    const dry = await runSvc(
      [
        'events',
        'replay',
        '--since',
        since,
        '--to',
        hooks.url,
        '--type',
        'order.created',
        '--dry-run',
        '-o',
        'ndjson',
      ],
      { env: envFor(emu) },
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(
      dry.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual(orders.map((e) => e.id));
    expect(dry.stderr).toMatch(/nothing was sent/);
    expect(hooks.received).toHaveLength(0);

    const real = await runSvc(
      ['events', 'replay', '--since', since, '--to', hooks.url, '--type', 'order.created'],
      {
        env: env(),
      },
    );
    expect(real.code, real.stderr).toBe(0);
    expect(hooks.received.map((d) => JSON.parse(d.body).type)).toEqual(orders.map(() => 'order.created'));
  });

  it('refuses a --since older than 30 days (exit 2), a missing secret (exit 2), and sends nothing', async () => {
    const hooks = await receiver();
    const old = await runSvc(['events', 'replay', '--since', '31d', '--to', hooks.url], { env: env() });
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/30-day window/);
    const noSecret = await runSvc(['events', 'replay', '--since', '1d', '--to', hooks.url], {
      env: envFor(emu),
    });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toMatch(/SVC_WEBHOOK_SECRET/);
    expect(hooks.received).toHaveLength(0);
    expect(emu.requests({ path: '/events' })).toHaveLength(0);
  });

  it('a receiver refusing connections gets a clear message, exit 1, and nothing is marked delivered', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hooks`;
    const since = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const result = await runSvc(['events', 'replay', '--since', since, '--to', url, '-o', 'ndjson'], {
      env: env(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/could not connect to http:\/\/127\.0\.0\.1:\d+ \(.*refused/);
    expect(result.stderr).toMatch(/none of the \d+ events could be delivered/);
    const outcomes = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(outcomes.length).toBeGreaterThan(1);
    expect(outcomes.filter((o) => o.status === 'delivered')).toHaveLength(0);
    expect(result.stderr).toMatch(/0 delivered, 1 failed, \d+ skipped/);
  });

  it('exits 3 when the receiver refuses some events, reporting each', async () => {
    const since = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const expected = await logSince(since);
    const refusedId = expected[1].id;
    const picky = await receiver((_index, delivery) =>
      JSON.parse(delivery.body).id === refusedId ? 422 : 200,
    );
    const result = await runSvc(['events', 'replay', '--since', since, '--to', picky.url], { env: env() });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toMatch(new RegExp(`failed\\s+${refusedId}.*HTTP 422`));
    expect(result.stderr).toContain(`${expected.length - 1} delivered, 1 failed, 0 skipped`);
    const delivered = new Set(picky.received.map((d) => JSON.parse(d.body).id));
    expect(delivered.size).toBe(expected.length);
  });
});
