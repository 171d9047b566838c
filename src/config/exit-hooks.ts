/**
 * Stands in for the `when-exit` package (conf → atomically loads it to delete its temporary
 * files at exit). The package also installs SIGINT and SIGTERM listeners that re-raise the
 * signal, which svc's own handler would take for a second Ctrl-C and exit at once, before a
 * bulk command saves its journal and prints how to resume. The bundle aliases `when-exit` to
 * this module (scripts/bundle.mjs): callbacks run on the process's normal exit only, and svc
 * turns every signal into a normal exit.
 */
const callbacks = new Set<() => void>();
let hooked = false;

/** Runs `callback` once when the process exits; returns a function that unregisters it. */
export default function whenExit(callback: () => void): () => void {
  callbacks.add(callback);
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const run of callbacks) run();
    });
  }
  return () => {
    callbacks.delete(callback);
  };
}
