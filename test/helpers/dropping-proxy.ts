/**
 * A reverse proxy on loopback in front of a service (the emulator) that forwards every request
 * and answer as they are, except the ones a test picks by their body: those lose their answer,
 * either before the service sees them (`before`) or after it applied them (`after`). The
 * emulator's own faults pick requests by method and path only, in arrival order; concurrent
 * chunks of one bulk run need picking by what they carry.
 */
import { request as forward } from 'node:http';
import { loopbackServer } from './loopback-server.js';

/** Which requests lose their answer, and when. */
export interface DropRule {
  method: string;
  /** Path below the base URL, e.g. `/rest/v1/products/batch`. */
  path: string;
  /** True for a request body to drop. */
  body: (text: string) => boolean;
  /** `before`: never forwarded; `after`: forwarded and applied, then the answer is lost. */
  when: 'before' | 'after';
  /** How many matching requests it drops; default 1. */
  times?: number;
}

/** A running proxy. */
export interface DroppingProxy {
  /** Base URL to give svc instead of the service's. */
  url: string;
  /** How many requests were dropped so far. */
  dropped(): number;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (a base URL on loopback) dropping what `rules` pick. */
export async function droppingProxy(target: string, rules: DropRule[]): Promise<DroppingProxy> {
  const left = rules.map((rule) => rule.times ?? 1);
  let dropped = 0;
  const to = new URL(target);
  const { url, close } = await loopbackServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const at = rules.findIndex(
        (rule, index) =>
          left[index] > 0 &&
          rule.method === req.method &&
          rule.path === req.url?.split('?')[0] &&
          rule.body(body.toString('utf8')),
      );
      const rule = rules[at];
      if (rule) left[at]--;
      if (rule?.when === 'before') {
        dropped++;
        req.socket.destroy();
        return;
      }
      const upstream = forward(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host },
        },
        (answer) => {
          if (rule) {
            dropped++;
            answer.resume();
            answer.on('end', () => req.socket.destroy());
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => req.socket.destroy());
      upstream.end(body);
    });
  });
  return { url, dropped: () => dropped, close };
}
