/**
 * The emulator's webhook sender stops every delivery with one cancel, yet gives each delivery
 * a signal of its own: many deliveries waiting for their retries at once add no listeners to a
 * shared signal (Node warns past ten: MaxListenersExceededWarning).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { call } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

let t: TestEmulator | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await t?.emulator.close();
  await receiver?.close();
});

describe('many deliveries waiting for a retry at once', () => {
  it('raise no MaxListenersExceededWarning, and a reset still stops them all', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      receiver = await startReceiver(() => 500);
      // Real time: the first retry waits a minute, so every delivery is asleep on its signal.
      t = await startTestEmulator({ rateLimit: false, webhookTimeScale: 1 });
      const created = await call(t.emulator, 'POST', '/webhook_endpoints', {
        body: { url: receiver.url, enabled_events: ['*'] },
      });
      expect(created.status).toBe(201);
      for (let n = 0; n < 15; n++) t.emulator.store.emitEvent('product.updated', { id: `prod_signal_${n}` });
      await receiver.waitFor(15);
      while (t.emulator.webhooks.attempts().length < 15)
        await new Promise((resolve) => setImmediate(resolve));
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
      t.emulator.reset();
      await t.emulator.webhooks.idle();
      expect(receiver.received).toHaveLength(15);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
