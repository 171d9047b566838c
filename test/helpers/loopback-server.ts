/**
 * The base of every server a test starts beside the emulator (misbehaving services, capture
 * servers and proxies, webhook receivers, a package registry): node:http on 127.0.0.1, port 0,
 * closed with its open connections, so no test waits on a socket a client left open.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running loopback server. */
export interface LoopbackServer {
  server: Server;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Closes the server and every connection still open to it. */
  close(): Promise<void>;
}

/** Starts `listener` on 127.0.0.1 on a free port. */
export async function loopbackServer(listener: RequestListener): Promise<LoopbackServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port nothing listens on now (it was free a moment ago): a service that is away. */
export async function closedPort(): Promise<number> {
  const { server, close } = await loopbackServer(() => {});
  const { port } = server.address() as AddressInfo;
  await close();
  return port;
}
