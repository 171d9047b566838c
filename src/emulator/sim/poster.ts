/**
 * The emulator's own poster of webhook deliveries, on node:http: the service's side of a
 * delivery needs no pacing, proxy or retry policy of the client's. It reads a few KiB of an
 * answer at most (only the status matters) and gives each attempt a deadline.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** How much of a receiver's answer is read before the connection is closed. */
const ANSWER_READ_LIMIT = 4096;

/** A receiver's answer, or why there was none. */
export type PostOutcome = { status: number } | { error: Error };

/** POSTs `body` to `url` once; resolves with the status, or with the error (refused, reset, timed out, aborted). */
export function postOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    if (options.signal.aborted) return resolve({ error: new Error('aborted') });
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const signal = AbortSignal.any([options.signal, deadline]);
    const request = send(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, signal },
      (response) => {
        let read = 0;
        const done = () => {
          response.destroy();
          resolve({ status: response.statusCode ?? 0 });
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= ANSWER_READ_LIMIT) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    request.on('error', (error) =>
      resolve({
        error: deadline.aborted
          ? new Error(`the receiver did not answer within ${options.timeoutMs} ms`)
          : error,
      }),
    );
    request.end(body);
  });
}
