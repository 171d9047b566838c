/**
 * Flag parsing in-process: each command builder takes the function that runs it, so a test
 * hands in one that only keeps what it was given (nothing is sent, no terminal is needed).
 */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { command as api } from '../../../src/commands/api/api.js';
import { command as eventsListen } from '../../../src/commands/events/listen.js';
import { command as eventsReplay } from '../../../src/commands/events/replay.js';
import { command as inventoryDiff } from '../../../src/commands/inventory/diff.js';
import { command as inventoryPush } from '../../../src/commands/inventory/push.js';
import { command as listingsErrors } from '../../../src/commands/listings/errors.js';
import { command as listingsPublish } from '../../../src/commands/listings/publish.js';
import { command as listingsRetry } from '../../../src/commands/listings/retry.js';
import { command as operationsWait } from '../../../src/commands/operations/wait.js';
import { command as ordersFulfill } from '../../../src/commands/orders/fulfill.js';
import { command as ordersList } from '../../../src/commands/orders/list.js';
import { command as webhooksUpdate } from '../../../src/commands/webhooks/update.js';
import { UsageError } from '../../../src/errors.js';
import { definitionParser } from '../../helpers/definition.js';

const NOW = Date.parse('2026-11-02T12:00:00Z');

describe('inventory push', () => {
  it('takes the file, --timeout 300 by default, and --batch-size only when given (a resume keeps its own)', async () => {
    const { calls, parse } = definitionParser(inventoryPush, () => NOW);
    await parse(['stock.csv', '--wait', '--report', 'out.csv']);
    await parse(['stock.csv', '--batch-size', '20']);
    expect(calls).toEqual([
      { file: 'stock.csv', timeout: 300, wait: true, report: 'out.csv' },
      { file: 'stock.csv', timeout: 300, batchSize: 20 },
    ]);
  });

  it('refuses a --batch-size beyond the contract before anything runs', async () => {
    const { calls, parse, errors } = definitionParser(inventoryPush, () => NOW);
    await expect(parse(['stock.csv', '--batch-size', '101'])).rejects.toThrow(CommanderError);
    expect(errors()).toContain('--batch-size takes a whole number from 1 to 100');
    expect(calls).toEqual([]);
  });
});

describe('inventory push --changed-only, inventory diff, listings errors', () => {
  it('push takes --changed-only, --backup and --allow-zeroing', async () => {
    const { calls, parse } = definitionParser(inventoryPush, () => NOW);
    await parse(['stock.csv', '--changed-only', '--backup', 'before.csv', '--allow-zeroing']);
    expect(calls).toEqual([
      { file: 'stock.csv', timeout: 300, changedOnly: true, backup: 'before.csv', allowZeroing: true },
    ]);
  });

  it('diff prices a push in batches of 100 unless told, and takes --exit-code', async () => {
    const { calls, parse } = definitionParser(inventoryDiff, () => NOW);
    await parse(['stock.csv', '--exit-code', '--map', 'quantity=Qty']);
    expect(calls).toEqual([{ file: 'stock.csv', batchSize: 100, exitCode: true, map: 'quantity=Qty' }]);
  });

  it('listings errors takes --by-account', async () => {
    const { calls, parse } = definitionParser(listingsErrors, () => NOW);
    await parse(['--by-account']);
    expect(calls).toEqual([{ byAccount: true }]);
  });
});

describe('orders fulfill and orders list', () => {
  it('fulfill keeps the order id and its tracking flags as given', async () => {
    const { calls, parse } = definitionParser(ordersFulfill, () => NOW);
    await parse(['ord_1', '--tracking-number', '1Z9', '--carrier', 'UPS']);
    await parse(['--file', 'shipments.csv', '--dry-run', '--ignore', 'Weight']);
    expect(calls).toEqual([
      { id: 'ord_1', trackingNumber: '1Z9', carrier: 'UPS' },
      { id: undefined, file: 'shipments.csv', dryRun: true, ignore: 'Weight' },
    ]);
  });

  it('fulfill refuses an order id without its prefix before anything runs', async () => {
    const { calls, parse } = definitionParser(ordersFulfill, () => NOW);
    await expect(parse(['1234', '--tracking-number', '1Z9', '--carrier', 'UPS'])).rejects.toThrow(
      '"1234" is not an order id (they look like ord_…); find one with `svc orders list`',
    );
    expect(calls).toEqual([]);
  });

  it('list reads --created-after 24h back from the context clock', async () => {
    const { calls, parse } = definitionParser(ordersList, () => NOW);
    await parse(['--created-after', '24h', '--status', 'awaiting_shipment']);
    expect(calls).toEqual([{ createdAfter: '2026-11-01T12:00:00.000Z', status: 'awaiting_shipment' }]);
  });
});

describe('listings publish and retry, operations wait', () => {
  it('publish collects repeated --override and --attribute in order', async () => {
    const { calls, parse } = definitionParser(listingsPublish, () => NOW);
    await parse(['--product', 'prod_1', '--channel-account', 'chac_1', '--override', 'title=A']);
    await parse(['--file', 'listings.jsonl', '--attribute', 'size=M', '--attribute', 'color=Navy']);
    expect(calls[0]).toMatchObject({ product: 'prod_1', channelAccount: 'chac_1', override: ['title=A'] });
    expect(calls[1]).toMatchObject({
      file: 'listings.jsonl',
      attribute: ['size=M', 'color=Navy'],
      override: [],
    });
  });

  it('retry parses without --error-code (the run asks for it at a terminal, or refuses); --wait and --timeout come as numbers', async () => {
    const { calls, parse } = definitionParser(listingsRetry, () => NOW);
    await parse(['--channel', 'etsy']);
    await parse(['--error-code', 'photo_required_for_channel', '--wait', '--timeout', '60']);
    expect(calls).toEqual([
      { channel: 'etsy', timeout: 300 },
      { errorCode: 'photo_required_for_channel', wait: true, timeout: 60 },
    ]);
  });

  it('operations wait refuses a --timeout that is not a whole number', async () => {
    const { calls, parse, errors } = definitionParser(operationsWait, () => NOW);
    await expect(parse(['op_1', '--timeout', 'soon'])).rejects.toThrow(CommanderError);
    expect(errors()).toContain('--timeout takes a whole number');
    await parse(['op_1', '--timeout', '0']);
    expect(calls).toEqual([{ id: 'op_1', timeout: 0 }]);
  });
});

describe('events replay and listen, svc api, webhooks update', () => {
  it('events replay needs --since and --to; --since counts back from the run clock', async () => {
    const { calls, parse, errors } = definitionParser(eventsReplay, () => NOW);
    await expect(parse(['--since', '24h'])).rejects.toThrow(CommanderError);
    expect(errors()).toMatch(/required option '--to <url>' not specified/);
    await parse(['--since', '24h', '--to', 'http://localhost:3000/hooks', '--dry-run']);
    expect(calls).toEqual([
      { since: '2026-11-01T12:00:00.000Z', to: 'http://localhost:3000/hooks', dryRun: true },
    ]);
  });

  it('events listen polls every 2 s unless told, and refuses an interval under 0.1 s', async () => {
    const { calls, parse, errors } = definitionParser(eventsListen, () => NOW);
    await parse(['--forward-to', 'http://localhost:3000/hooks']);
    expect(calls).toEqual([{ forwardTo: 'http://localhost:3000/hooks', interval: 2 }]);
    await expect(
      parse(['--forward-to', 'http://localhost:3000/hooks', '--interval', '0.05']),
    ).rejects.toThrow(CommanderError);
    expect(errors()).toContain('--interval takes a number of seconds from 0.1');
  });

  it('svc api keeps the method and path, the -H headers in order, and each field its place across -F and -f', async () => {
    const { calls, parse } = definitionParser(api, () => NOW);
    await parse(['GET', '/orders', '-f', 'b=x', '-F', 'a=1', '-f', 'c=y', '-H', 'A: 1', '-H', 'B: 2']);
    const [args] = calls;
    expect(args).toMatchObject({ methodOrPath: 'GET', path: '/orders', header: ['A: 1', 'B: 2'] });
    const placed = [...(args?.field ?? []), ...(args?.rawField ?? [])].sort((x, y) => x.at - y.at);
    expect(placed.map((field) => [field.assignment, field.typed])).toEqual([
      ['b=x', false],
      ['a=1', true],
      ['c=y', false],
    ]);
  });

  it('webhooks update refuses an id without we_ before it runs', async () => {
    const { calls, parse } = definitionParser(webhooksUpdate, () => NOW);
    await expect(parse(['1', '--enable'])).rejects.toThrow(UsageError);
    expect(calls).toEqual([]);
    await parse(['we_1', '--enable']);
    expect(calls).toEqual([{ id: 'we_1', enable: true }]);
  });
});
