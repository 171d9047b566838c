/** The public operations (status, health, this document) and the channel accounts with their discovery data. */
import { z } from 'zod';
import { CategoriesQuery } from '../queries.js';
import {
  AttributeSchema,
  CategoryList,
  ChannelAccount,
  ChannelAccountList,
  Health,
  PolicyList,
  Status,
} from '../responses/store.js';
import type { ApiOperation } from './operation.js';

const ACCOUNT = { id: 'channel account id (`chac_…`), from the list of channel accounts' };

/** The answer of GET /openapi.json, in outline. */
export const OpenApiDocumentShape = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** The public operations (status, health, this document) and the channel accounts with their discovery data. */
export const SERVICE_OPERATIONS: readonly ApiOperation[] = [
  {
    id: 'getStatus',
    method: 'GET',
    path: '/status',
    tag: 'Service',
    summary: 'The public status page: state, latest probe, seven days of half-hour buckets',
    scope: null,
    status: 200,
    response: Status,
  },
  {
    id: 'getHealth',
    method: 'GET',
    path: '/health',
    tag: 'Service',
    summary: 'Liveness: `ok` while the API and its database are reachable',
    scope: null,
    status: 200,
    response: Health,
  },
  {
    id: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Service',
    summary: 'This document',
    description:
      'Served by the emulator, with no key: the operations, parameters, bodies and answers it implements. The reference of the live service does not name this path.',
    scope: null,
    status: 200,
    response: OpenApiDocumentShape,
  },
  {
    id: 'listChannelAccounts',
    method: 'GET',
    path: '/channel_accounts',
    tag: 'Channel accounts',
    summary: 'The connected channel accounts, one entry per account, in one page',
    scope: 'products:read',
    status: 200,
    response: ChannelAccountList,
  },
  {
    id: 'getChannelAccount',
    method: 'GET',
    path: '/channel_accounts/{id}',
    tag: 'Channel accounts',
    summary: 'One channel account with its sync, pricing and inventory settings',
    scope: 'products:read',
    params: ACCOUNT,
    status: 200,
    response: ChannelAccount,
  },
  {
    id: 'listPolicies',
    method: 'GET',
    path: '/channel_accounts/{id}/policies',
    tag: 'Channel accounts',
    summary: "The account's shipping, return and payment policies, in one page",
    scope: 'products:read',
    params: ACCOUNT,
    status: 200,
    response: PolicyList,
  },
  {
    id: 'listCategories',
    method: 'GET',
    path: '/channel_accounts/{id}/categories',
    tag: 'Channel accounts',
    summary: "Search or browse the channel's categories, ordered by path",
    scope: 'products:read',
    params: ACCOUNT,
    query: CategoriesQuery,
    status: 200,
    response: CategoryList,
  },
  {
    id: 'getAttributeSchema',
    method: 'GET',
    path: '/channel_accounts/{id}/categories/{category_id}/attribute_schema',
    tag: 'Channel accounts',
    summary: 'The attributes a category asks for',
    scope: 'products:read',
    params: { ...ACCOUNT, category_id: 'category id, from the categories of the account' },
    status: 200,
    response: AttributeSchema,
  },
];
