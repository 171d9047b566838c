import { defineCommand } from '../../cmdutil/define.js';
import { type WaitFlags, waitFlags } from '../../cmdutil/follow.js';
import { collect } from '../../cmdutil/parse.js';
import type { ListingUpdate } from '../../contract/schemas/listing.js';
import { UsageError } from '../../errors.js';
import { plural } from '../../words.js';
import { listingIdArg } from './fields.js';

/** Flags of `svc listings update`. */
export interface UpdateOptions extends WaitFlags {
  override: string[];
  attribute: string[];
}

/** `svc listings update ID [--override k=v ...] [--attribute k=v ...]`. */
export const command = defineCommand<{ id: string } & UpdateOptions>({
  path: ['listings', 'update'],
  rank: 4,
  description: "change a listing's overrides or attributes and resync it to its channel",
  args: [listingIdArg],
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
    ...waitFlags(),
  ],
  notes: [
    'Values are typed as `svc api -F` types them; text overrides stay text. With --attribute, the',
    'attributes are checked against the category schema first when the account offers one.',
  ],
  examples: [
    'svc listings update list_123 --override title="Blue stoneware mug, 350 ml"',
    'svc listings update list_123 --attribute brand=Northwind --attribute barcode=012345678905 --wait',
  ],
  /** Sends the change (after the schema check) and shows the listing, or its outcome with --wait. */
  async run({ id, ...options }, deps) {
    if (options.override.length === 0 && options.attribute.length === 0) {
      throw new UsageError(
        `nothing to update: give --override or --attribute, or resync as it is with \`svc listings resync ${id}\``,
      );
    }
    const { parseAssignments, unknownOverrides } = await import('../../core/listings/assignments.js');
    const body: ListingUpdate = {};
    if (options.override.length > 0)
      body.overrides = parseAssignments('--override', options.override) as ListingUpdate['overrides'];
    if (options.attribute.length > 0) body.attributes = parseAssignments('--attribute', options.attribute);
    const unknown = unknownOverrides(body.overrides ?? {});
    if (unknown.length > 0)
      deps.io.messages.warn(
        `${plural(unknown.length, 'override')} ${unknown.join(', ')} not documented by the API; sent as given`,
      );
    const client = await deps.client();
    const { getListing, updateListing } = await import('../../client/resources/listings.js');
    if (body.attributes) {
      const listing = await getListing(client, id);
      const { checkAttributes, requireAccounts } = await import('../../core/listings/discovery.js');
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
    const { showWrite } = await import('./helpers.js');
    const listing = await updateListing(client, id, body, deps.signal);
    await showWrite(deps, client, listing, `Updated ${id}; it is being resynced to its channel`, options);
  },
});
