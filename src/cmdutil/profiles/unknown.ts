/** What `profiles use` and `profiles remove` say of a name that is not saved. */

/** The message for a profile name that is not saved, listing the ones that are. */
export function unknownProfile(name: string, known: string[]): string {
  return `unknown profile "${name}"; ${known.length ? `saved profiles: ${known.join(', ')}` : 'none saved yet (svc auth login)'}`;
}
