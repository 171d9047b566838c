/**
 * The shells `svc completion` writes a script for. Apart from model.ts so that registering
 * the command (at start-up) does not pull the generators' shared code into its own chunk.
 */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
/** One of SHELLS. */
export type Shell = (typeof SHELLS)[number];
