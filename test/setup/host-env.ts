/**
 * Vitest global setup: the host's extra CA file stays out of the suite. Node reads and parses
 * NODE_EXTRA_CA_CERTS when it starts, before any code runs (a system bundle of 140-odd roots:
 * 85 ms of CPU at each start on a machine that sets it), and the suite starts some 170 Node
 * processes: its workers, svc, npm, tsc. Its traffic is all loopback, to servers whose CA a test
 * makes and names (SVC_CA_FILE, a profile's ca_file), so no test needs the host's; and none then
 * passes because the host happens to trust something.
 */
export default function setup(): () => void {
  const hostCaFile = process.env.NODE_EXTRA_CA_CERTS;
  // Workers are started after global setup, with this environment: they and their children use it.
  delete process.env.NODE_EXTRA_CA_CERTS;
  return () => {
    if (hostCaFile !== undefined) process.env.NODE_EXTRA_CA_CERTS = hostCaFile;
  };
}
