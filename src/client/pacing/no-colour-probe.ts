/**
 * What `require('supports-color')` gives in the single executable (scripts/build-sea.mjs):
 * nothing. ioredis's `debug` probes it at load, in a try; a single executable can require only
 * Node's own modules and prints a warning for any other, so the probe is answered here.
 */
export default false;
