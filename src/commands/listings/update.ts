import { getListing, updateListing } from '../../client/resources/listings.js';
import { defineCommand } from '../../cmdutil/define.js';
import { listingIdArg } from '../../cmdutil/fields/listings.js';
import { type WaitFlags, waitFlags } from '../../cmdutil/follow.js';
import { type SelectionFlags, selectionFlags } from '../../cmdutil/listings/selection.js';
import { showWrite } from '../../cmdutil/listings/show-write.js';
import { updateFailing } from '../../cmdutil/listings/update-bulk.js';
import { collect } from '../../cmdutil/parse.js';
import { showVerdict } from '../../cmdutil/verdict.js';
import { updateBody } from '../../core/listings/bulk-update.js';
import { checkAttributes, requireAccounts } from '../../core/listings/discovery.js';
import { UsageError } from '../../errors.js';
import { updateDryRunText } from '../../output/views/listings.js';
import { plural } from '../../words.js';

/** Flags of `svc listings update`. */
export interface UpdateOptions extends WaitFlags, SelectionFlags {
  override: string[];
  attribute: string[];
  dryRun?: boolean;
  report?: string;
}

/** `svc listings update ID …`, or every listing in error with one code: `--error-code C …`. */
export const command = defineCommand<{ id?: string } & UpdateOptions>({
  path: ['listings', 'update'],
  rank: 4,
  description:
    "change a listing's overrides or attributes and resync it, or every listing in error with one issue code",
  summary: "change a listing's overrides or attributes and resync it to its channel",
  args: [{ ...listingIdArg, optional: true }],
  flags: [
    {
      flags: '--override <k=v>',
      description: 'per-channel override, e.g. title="Blue mug" (repeatable)',
      parse: collect,
      default: [],
    },
    {
      flags: '--attribute <k=v>',
      description: 'channel attribute, e.g. size=M; null removes one (repeatable)',
      parse: collect,
      default: [],
    },
    ...selectionFlags({
      description:
        'instead of one listing, every listing in error with this issue code, e.g. missing_required_attribute',
    }),
    { flags: '--dry-run', description: 'check everything and show what would be sent; send nothing' },
    {
      flags: '--report <out.csv>',
      description:
        'with --error-code: write line,key,status,code,message for every listing (with --wait: its final state)',
    },
    ...waitFlags('follow the update and report what the channel said (with --error-code: which still fail)'),
  ],
  takes: { confirms: true },
  notes: [
    'Values are typed as `svc api -F` types them; text overrides stay text. With --attribute, the',
    'attributes are checked against the category schema first when the account offers one.',
    '',
    'Many at once: --error-code C (with --channel or --channel-account to narrow it) collects every',
    'listing in error with C first, then sends the same change to each, one request (and one unit',
    'of daily write quota) per listing; with a live key on a terminal it asks first. A value a',
    "listing's category does not take stops the run before anything is sent (exit 2). Listings",
    'that already carry the change are not sent again, so a stopped run can be run again as it is.',
    'With --wait it reports which listings are listed again and which still fail (exit 3).',
  ],
  examples: [
    'svc listings update list_123 --override title="Blue stoneware mug, 350 ml"',
    'svc listings update list_123 --attribute brand=Northwind --attribute barcode=012345678905 --wait',
    'svc listings update --error-code missing_required_attribute --channel ebay --attribute condition=New --dry-run',
    'svc listings update --error-code missing_required_attribute --channel ebay --attribute condition=New --wait',
  ],
  async run({ id, ...options }, deps) {
    if ((id === undefined) === (options.errorCode === undefined)) {
      throw new UsageError(
        'give either a listing id or --error-code CODE (every listing in error with that issue code), not both: svc listings update list_123 --attribute k=v',
      );
    }
    const { body, unknown } = updateBody(options.override, options.attribute);
    if (!body.overrides && !body.attributes) {
      const resync = id
        ? `svc listings resync ${id}`
        : `svc listings retry --error-code ${options.errorCode}`;
      throw new UsageError(
        `nothing to update: give --override or --attribute, or resync as it is with \`${resync}\``,
      );
    }
    if (unknown.length > 0)
      deps.io.messages.warn(
        `${plural(unknown.length, 'override')} ${unknown.join(', ')} not documented by the API; sent as given`,
      );
    if (id === undefined) {
      return updateFailing(deps, { ...options, errorCode: options.errorCode as string }, body);
    }
    for (const [flag, given] of [
      ['--channel', options.channel],
      ['--channel-account', options.channelAccount],
      ['--report', options.report],
    ] as const) {
      if (given !== undefined) throw new UsageError(`${flag} goes with --error-code, not with a listing id`);
    }
    const client = await deps.client();
    if (body.attributes) {
      const listing = await getListing(client, id);
      const account = (await requireAccounts(client, [listing.channel_account_id])).get(
        listing.channel_account_id,
      );
      if (account) {
        const check = await checkAttributes(client, {
          account,
          productId: listing.product_id,
          categoryId: body.overrides?.category_id ?? listing.overrides?.category_id ?? undefined,
          attributes: body.attributes,
          existing: listing.attributes ?? {},
        });
        if (check.note) deps.io.messages.warn(check.note);
      }
    }
    if (options.dryRun) {
      await showVerdict(deps, body, updateDryRunText(id, body));
      return;
    }
    const listing = await updateListing(client, id, body, deps.signal);
    await showWrite(deps, client, listing, `Updated ${id}; it is being resynced to its channel`, options);
  },
});
