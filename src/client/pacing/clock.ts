/** The pacer's clock and sleep, as the transport and the delivery of webhooks use them too. */

/** Unix milliseconds with sub-millisecond precision, so that an answer and a send rarely tie. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** setTimeout as a promise, rejected with the signal's reason when aborted. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
