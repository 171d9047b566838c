/** The command line that runs an interrupted command again, as the user can paste it. */

/** One argument as a POSIX shell reads it back unchanged. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/**
 * `svc` and the user's own arguments, shell-quoted, with `add` appended when absent, each flag
 * of `set` given its value (`--since T`), and a standard-input `-` replaced by `stdinPath`
 * (the spooled copy that can be read again).
 */
export function rerunCommand(
  args: readonly string[],
  options: { add?: readonly string[]; set?: Record<string, string>; stdinPath?: string } = {},
): string {
  const words = args.map((arg) => (arg === '-' && options.stdinPath ? options.stdinPath : arg));
  for (const flag of options.add ?? []) if (!words.includes(flag)) words.push(flag);
  for (const [flag, value] of Object.entries(options.set ?? {})) {
    const at = words.findIndex((word) => word === flag || word.startsWith(`${flag}=`));
    if (at < 0) words.push(flag, value);
    else if (words[at] === flag) words[at + 1] = value;
    else words[at] = `${flag}=${value}`;
  }
  return ['svc', ...words].map(shellQuote).join(' ');
}
