/**
 * Two stores behind one service address, as the live service has many: a loopback server that
 * forwards each request, untouched, to the emulator whose key it carries. The emulator is one
 * store, so this is how a test puts two of them at one base URL.
 */
import { request } from 'node:http';
import { loopbackServer } from './loopback-server.js';

/** A running router. */
export interface StoreRouter {
  /** The one base URL (the part before /rest/v1) in front of every store. */
  url: string;
  close(): Promise<void>;
}

/** Routes requests by their bearer key to the base URL in `upstreams` (key → base URL); others get 401. */
export async function storeRouter(upstreams: Record<string, string>): Promise<StoreRouter> {
  const { url, close } = await loopbackServer((req, res) => {
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const upstream = upstreams[key];
    if (upstream === undefined) {
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { type: 'authentication_error', code: 'api_key_invalid', message: 'No such key.' },
        }),
      );
      return;
    }
    const target = new URL(req.url ?? '/', upstream);
    const forwarded = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  return { url, close };
}
