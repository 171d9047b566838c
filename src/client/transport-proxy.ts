/**
 * The dispatcher of a route: through the proxy HTTP_PROXY, HTTPS_PROXY and NO_PROXY name for it
 * (proxy-route.ts decides), else direct. The transport and the raw poster both get theirs here.
 */
import { rootCertificates } from 'node:tls';
import { Agent, type Dispatcher, ProxyAgent } from 'undici';
import { UsageError } from '../errors.js';
import type { Route } from './proxy-route.js';

/**
 * An agent for one route: through the proxy it names, else direct. Loopback is always direct
 * (a key to this machine never passes a proxy); other hosts follow HTTP_PROXY, HTTPS_PROXY
 * and NO_PROXY.
 */
export function dispatcherFor(route: Route, connectTimeoutMs: number, caPem?: string): Dispatcher {
  const options = {
    // A CA file adds to the system's roots (the context adds NODE_EXTRA_CA_CERTS), never replaces them.
    connect: { timeout: connectTimeoutMs, ...(caPem ? { ca: [...rootCertificates, caPem] } : {}) },
    // Below common server idle timeouts, so a reused socket is rarely closed under a write.
    keepAliveTimeout: 4_000,
  };
  if (route.via === 'direct') return new Agent(options);
  try {
    return new ProxyAgent({ ...options, uri: route.proxy.uri });
  } catch (error) {
    // The value is not repeated: it may hold a password.
    const { variable } = route.proxy;
    throw new UsageError(
      `${variable} is not a usable proxy address (${(error as Error).message}); fix it, e.g. ${variable}=http://proxy.example.com:3128 (a user and password percent-encoded), or unset it`,
    );
  }
}
