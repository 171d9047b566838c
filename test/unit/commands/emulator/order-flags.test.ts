/** `svc emulator start`: the flags of orders that move, parsed in-process through its definition. */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { command, type EmulatorStartOptions } from '../../../../src/commands/emulator/start.js';
import { definitionParser } from '../../../helpers/definition.js';

function setUp() {
  const parser = definitionParser<EmulatorStartOptions>(command, () => Date.parse('2026-11-02T12:00:00Z'));
  return { calls: parser.calls, parse: parser.parse, errors: parser.errors };
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
