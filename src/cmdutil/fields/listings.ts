import { schemaFields } from '../fields.js';
import { idArg } from '../resource-commands.js';

/** The field paths of a listing, for --fields. */
export const listingFields = schemaFields(
  async () => (await import('../../contract/schemas/listing.js')).Listing,
);

/** The `<id>` of a listing (list_…): any other word is refused before sending. */
export const listingIdArg = idArg('listing', 'svc listings list');
