/** The zod schemas shared by the client and the emulator, one file per noun. */
export * from './batch.js';
export * from './channel-account.js';
export * from './common.js';
export * from './event.js';
export * from './file.js';
export * from './inventory.js';
export * from './listing.js';
export * from './operation.js';
export * from './order.js';
export * from './product.js';
export * from './status.js';
export * from './webhook-endpoint.js';
