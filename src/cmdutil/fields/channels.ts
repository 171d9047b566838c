import { schemaFields } from '../fields.js';

const schemas = () => import('../../contract/schemas/channel-account.js');

/** The field paths of a channel account in a list, for --fields. */
export const accountSummaryFields = schemaFields(async () => (await schemas()).ChannelAccountSummary);

/** The field paths of one channel account in full. */
export const accountFields = schemaFields(async () => (await schemas()).ChannelAccount);

/** The field paths of a policy. */
export const policyFields = schemaFields(async () => (await schemas()).Policy);

/** The field paths of a category. */
export const categoryFields = schemaFields(async () => (await schemas()).Category);
