/** The command line that runs an interrupted command again, as the user can paste it. */

/** One argument as a POSIX shell reads it back unchanged. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/**
 * `svc` and the user's own arguments, shell-quoted, with `add` appended when absent and a
 * standard-input `-` replaced by `stdinPath` (the spooled copy that can be read again).
 */
export function rerunCommand(
  args: readonly string[],
  options: { add?: readonly string[]; stdinPath?: string } = {},
): string {
  const words = args.map((arg) => (arg === '-' && options.stdinPath ? options.stdinPath : arg));
  for (const flag of options.add ?? []) if (!words.includes(flag)) words.push(flag);
  return ['svc', ...words].map(shellQuote).join(' ');
}
