import type { ApiClient } from '../../client/client.js';
import { type BulkPlan, type DryRun, runBulk, showDryRun } from '../../cmdutil/bulk-command.js';
import { defineCommand } from '../../cmdutil/define.js';
import type { Deps } from '../../cmdutil/deps.js';
import { type WaitFlags, waitFlags } from '../../cmdutil/follow.js';
import { readInputFile } from '../../cmdutil/input-check.js';
import { showWrite } from '../../cmdutil/listings/show-write.js';
import { collect } from '../../cmdutil/parse.js';
import { showVerdict } from '../../cmdutil/verdict.js';
import { BATCH_MAX_ITEMS } from '../../contract/contract.js';
import type { ListingInput } from '../../contract/schemas/listing.js';
import { parseAssignments, unknownOverrides } from '../../core/listings/assignments.js';
import { checkAttributes, requireAccounts } from '../../core/listings/discovery.js';
import { publishVerdicts } from '../../core/listings/dry-verdicts.js';
import { publishOne, sendPublish } from '../../core/listings/publish.js';
import { type CheckedPublishFile, checkPublishFile } from '../../core/listings/publish-file.js';
import { UsageError } from '../../errors.js';
import { publishDryRunText } from '../../output/views/listings.js';
import { counted, plural } from '../../words.js';

/** Flags of `svc listings publish`. */
export interface PublishOptions extends WaitFlags {
  product?: string;
  channelAccount?: string;
  override: string[];
  attribute: string[];
  file?: string;
  dryRun?: boolean;
  report?: string;
  encoding?: string;
}

/** `svc listings publish`: one listing, or every listing of --file. */
export const command = defineCommand<PublishOptions>({
  path: ['listings', 'publish'],
  rank: 3,
  description: 'publish a product to a channel account, or many from a file',
  flags: [
    { flags: '--product <id>', description: 'product to publish (prod_…)' },
    {
      flags: '--channel-account <id>',
      description: 'channel account to publish on (chac_…, from `svc channels list`)',
    },
    {
      flags: '--override <k=v>',
      description: 'per-channel override, e.g. title="Blue mug" (repeatable)',
      parse: collect,
      default: [],
    },
    {
      flags: '--attribute <k=v>',
      description: 'channel attribute, e.g. color=Navy (repeatable)',
      parse: collect,
      default: [],
    },
    {
      flags: '--file <f>',
      description: 'JSON array or JSON Lines of listings to publish (- for standard input)',
    },
    { flags: '--dry-run', description: 'check everything and show what would be sent; send nothing' },
    {
      flags: '--report <out.csv>',
      description:
        'with --file: write line,key,status,code,message for every listing (.json, .ndjson: as JSON); with --dry-run, the verdicts',
    },
    {
      flags: '--encoding <name>',
      description:
        'with --file: utf-8 or latin1 (Windows-1252); default UTF-8, or Windows-1252 for a file that is not UTF-8 but is',
    },
    ...waitFlags(),
  ],
  takes: { confirms: true },
  notes: [
    'One listing: --product and --channel-account (an id from `svc channels list`). Values of',
    '--override and --attribute are typed as `svc api -F` types them (numbers, true, false, null,',
    '@file); text overrides (title, description, category_id, policy ids) stay text. With',
    '--attribute, when the account offers attribute-schema discovery, names, types and required',
    "attributes are checked against the category (--override category_id=…, else the product's).",
    '',
    'Many: --file F, a JSON array or JSON Lines of {"product_id", "channel_account_id",',
    '"overrides"?, "attributes"?}. The whole file is checked first (exit 2, nothing sent), then',
    `sent ${BATCH_MAX_ITEMS} per request; a product already listed on that account is skipped.`,
    'Exit 3 when any listing failed (--report OUT.csv names each).',
  ],
  examples: [
    'svc listings publish --product prod_123 --channel-account chac_456',
    'svc listings publish --product prod_123 --channel-account chac_456 --override category_id=11457 --attribute size=M --wait',
    'svc listings publish --file listings.jsonl --dry-run',
    'svc listings publish --file listings.json --report publish-report.csv',
  ],
  run: (options, deps) =>
    options.file ? publishFromFile(deps, options.file, options) : publishListing(deps, options),
});

/** What publishing uses of the run's dependencies. */
type PublishDeps = Pick<
  Deps,
  'argv' | 'client' | 'credentials' | 'globals' | 'io' | 'now' | 'prompts' | 'signal' | 'env' | 'atEnd'
>;

/** Publishes one product on one account, after the local and discovery checks. */
async function publishListing(
  deps: Pick<Deps, 'client' | 'io' | 'signal'>,
  options: PublishOptions,
): Promise<void> {
  if (!options.product || !options.channelAccount) {
    throw new UsageError(
      'give --product ID and --channel-account ID (or --file F for many); see svc listings publish --help',
    );
  }
  if (options.report) throw new UsageError('--report goes with --file; one publish prints its own outcome');
  if (options.encoding) throw new UsageError('--encoding goes with --file; it says how the file is read');
  const input = await buildInput(
    deps,
    options.product,
    options.channelAccount,
    options.override,
    options.attribute,
  );
  const client = await deps.client();
  const account = (await requireAccounts(client, [input.channel_account_id])).get(input.channel_account_id);
  if (account && input.attributes) {
    const check = await checkAttributes(client, {
      account,
      productId: input.product_id,
      categoryId: input.overrides?.category_id,
      attributes: input.attributes,
    });
    if (check.note) deps.io.messages.warn(check.note);
  }
  if (options.dryRun) {
    await showVerdict(deps, input, publishDryRunText(input));
    return;
  }
  const { listing, outcome } = await publishOne(client, input);
  const headline =
    outcome === 'created'
      ? `Published ${input.product_id} on ${input.channel_account_id} as ${listing.id}`
      : `Already published: ${input.product_id} is listed on ${input.channel_account_id} as ${listing.id}`;
  await showWrite(deps, client, listing, headline, options);
}

async function buildInput(
  deps: Pick<Deps, 'io'>,
  productId: string,
  accountId: string,
  overrideArgs: string[],
  attributeArgs: string[],
): Promise<ListingInput> {
  const overrides = parseAssignments('--override', overrideArgs);
  const attributes = parseAssignments('--attribute', attributeArgs);
  const unknown = unknownOverrides(overrides);
  if (unknown.length > 0)
    deps.io.messages.warn(
      `${plural(unknown.length, 'override')} ${unknown.join(', ')} not documented by the API; sent as given`,
    );
  const input: ListingInput = { product_id: productId, channel_account_id: accountId };
  if (overrideArgs.length > 0) input.overrides = overrides as ListingInput['overrides'];
  if (attributeArgs.length > 0) input.attributes = attributes;
  return input;
}

/** Checks the whole file and the accounts it names, then publishes in chunks of 100. */
async function publishFromFile(deps: PublishDeps, path: string, options: PublishOptions): Promise<void> {
  if (
    options.product ||
    options.channelAccount ||
    options.override.length > 0 ||
    options.attribute.length > 0
  ) {
    throw new UsageError(
      '--file takes every listing from the file; leave out --product, --channel-account, --override and --attribute',
    );
  }
  if (options.wait)
    throw new UsageError(
      '--wait follows one publish; for a file, follow operations with `svc operations list`',
    );
  const file = await readInputFile(deps, path, options, (source, encoding, shownPath) =>
    checkPublishFile(source, shownPath, encoding),
  );
  await runBulk(deps, { ...publishPlan(deps, file, options), file: path }, options);
}

/** A file's publish as the bulk frame runs it. */
function publishPlan(deps: PublishDeps, file: CheckedPublishFile, options: PublishOptions): BulkPlan {
  const listings = counted(file.items.length, 'listing');
  const requests = Math.ceil(file.items.length / BATCH_MAX_ITEMS);
  const inRequests = `${requests} ${plural(requests, 'request')}`;
  const accounts = file.accountIds.length;
  const requireFileAccounts = async (client: ApiClient): Promise<void> => {
    await requireAccounts(client, file.accountIds);
  };
  const dryRun: DryRun = {
    plan: {
      file: file.path,
      format: file.format,
      listings: file.items.length,
      channel_accounts: file.accountIds,
      requests,
      write_quota: requests,
      first_listings: file.items.slice(0, 5).map((item) => ({ line: item.line, ...item.input })),
    },
    what: `${listings} on ${accounts} channel ${plural(accounts, 'account')} would be published in ${inRequests} (${counted(requests, 'unit')} of daily write quota)`,
    heading: 'First listings',
    first: file.items
      .slice(0, 5)
      .map((item) => `line ${item.line}: ${item.input.product_id} on ${item.input.channel_account_id}`),
  };
  return {
    noun: 'listings',
    total: file.items.length,
    items: () => file.items,
    report: options.report,
    dryRun: async () => {
      // A dry run checks the accounts too when a key is at hand; without one it stays offline.
      const keyed = Boolean((await deps.credentials()).apiKey);
      if (keyed) await requireFileAccounts(await deps.client());
      const rows =
        keyed && options.report ? await publishVerdicts(await deps.client(), file.items) : undefined;
      await showDryRun(deps, { ...dryRun, rows }, options.report);
    },
    prepare: requireFileAccounts,
    confirmation: `Publish ${listings} in ${inRequests} with a LIVE key (${counted(requests, 'unit')} of daily write quota)`,
    action: 'publish',
    send: async (session, client) => {
      await sendPublish(client, file.items, session);
    },
    verb: 'Published',
    rerunNote: '; listings already published count as published, not published twice',
  };
}
