/**
 * What `listings retry` and `listings update --error-code` share: the flags that select the
 * listings in error, checked before anything is read, and the crawl that collects them all first.
 */

import type { Listing } from '../../contract/schemas/listing.js';
import type { FlagSpec } from '../define.js';
import type { Deps } from '../deps.js';

/** The flags that select listings in error with one issue code. */
export interface SelectionFlags {
  errorCode?: string;
  channel?: string;
  channelAccount?: string;
}

/** --error-code, --channel and --channel-account, with the help of the command that takes them. */
export function selectionFlags(errorCode: Omit<FlagSpec, 'flags'>): FlagSpec[] {
  return [
    { flags: '--error-code <code>', ...errorCode },
    {
      flags: '--channel <kind>',
      description: 'only listings on this channel kind; several comma-separated',
    },
    { flags: '--channel-account <id>', description: 'only listings on this channel account' },
  ];
}

/** The listings selected, and how they were selected in words: "listings in error with C on etsy". */
export interface Selection {
  matches: Listing[];
  what: string;
  errorCode: string;
}

/**
 * Checks the selection flags (exit 2 on an unknown kind, account or code), then collects every
 * listing in error with the code, crawled to the end before any write.
 */
export async function selectFailing(
  deps: Pick<Deps, 'client' | 'signal'>,
  flags: SelectionFlags & { errorCode: string },
): Promise<Selection> {
  const { checkChannelKinds, checkChannelAccount, checkErrorCode } = await import('../filter-check.js');
  const channels = await checkChannelKinds(deps, flags.channel, {
    operation: 'listListings',
    param: 'channel',
  });
  await checkChannelAccount(deps, flags.channelAccount);
  await checkErrorCode(deps, flags.errorCode);
  const { collectFailing } = await import('../../core/listings/retry.js');
  const where = [
    channels ? `on ${channels.join(' or ')}` : '',
    flags.channelAccount ? `on ${flags.channelAccount}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const matches = await collectFailing(
    await deps.client(),
    { errorCode: flags.errorCode, channels, channelAccountId: flags.channelAccount },
    deps.signal,
  );
  return {
    matches,
    what: `listings in error with ${flags.errorCode}${where ? ` ${where}` : ''}`,
    errorCode: flags.errorCode,
  };
}
