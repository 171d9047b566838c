/** `svc emulator start`: the flags of orders that move, parsed in-process through the run override. */
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { Context } from '../../../../src/cmdutil/context.js';
import { type EmulatorStartOptions, startCommand } from '../../../../src/commands/emulator/start.js';
import { memoryIO } from '../../../helpers/memory-io.js';

function setUp() {
  const io = memoryIO();
  const ctx = new Context(io, {}, () => Date.parse('2026-11-02T12:00:00Z'));
  const parent = new Command('emulator')
    .exitOverride()
    .configureOutput({ writeErr: (text) => io.stderr.write(text), writeOut: () => {} });
  const calls: EmulatorStartOptions[] = [];
  startCommand(parent, ctx, async (_ctx, options) => void calls.push(options));
  return {
    calls,
    parse: (args: string[]) => parent.parseAsync(['start', ...args], { from: 'user' }),
    errors: io.err,
  };
}

describe('svc emulator start, orders that move', () => {
  it('defaults to a fifth unpaid, a tenth of those canceled, paid after 600 s on average', async () => {
    const { calls, parse } = setUp();
    await parse(['--orders-per-minute', '30']);
    expect(calls[0]).toMatchObject({
      ordersPerMinute: 30,
      ordersUnpaidShare: 0.2,
      ordersPaymentDelay: 600,
      ordersCancelShare: 0.1,
    });
  });

  it('takes the shares and the delay the operator sets', async () => {
    const { calls, parse } = setUp();
    await parse([
      '--orders-unpaid-share',
      '0.5',
      '--orders-payment-delay',
      '90',
      '--orders-cancel-share',
      '0',
    ]);
    expect(calls[0]).toMatchObject({ ordersUnpaidShare: 0.5, ordersPaymentDelay: 90, ordersCancelShare: 0 });
  });

  it.each([
    [['--orders-unpaid-share', '1.5'], '--orders-unpaid-share takes a number from 0 to 1'],
    [['--orders-cancel-share', '-1'], '--orders-cancel-share takes a number from 0 to 1'],
    [['--orders-payment-delay', '0'], '--orders-payment-delay takes a positive number'],
  ])('refuses %j before anything starts', async (args, message) => {
    const { calls, parse, errors } = setUp();
    await expect(parse(args)).rejects.toThrow(CommanderError);
    expect(errors()).toContain(message);
    expect(calls).toEqual([]);
  });
});
