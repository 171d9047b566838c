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
import * as read from '../schemas/index.js';
import { defineOperations } from './operation.js';

const ACCOUNT = { id: 'channel account id (`chac_…`), from the list of channel accounts' };

/** The answer of GET /openapi.json, in outline. */
export const OpenApiDocumentShape = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** The public operations (status, health, this document) and the channel accounts with their discovery data. */
export const SERVICE_OPERATIONS = defineOperations({
  getStatus: {
    id: 'getStatus',
    method: 'GET',
    path: '/status',
    tag: 'Service',
    summary: 'The public status page: state, latest probe, seven days of half-hour buckets',
    scope: null,
    repeatable: true,
    status: 200,
    response: Status,
    result: read.Status,
  },
  getHealth: {
    id: 'getHealth',
    method: 'GET',
    path: '/health',
    tag: 'Service',
    summary: 'Liveness: `ok` while the API and its database are reachable',
    scope: null,
    repeatable: true,
    status: 200,
    response: Health,
    result: read.Health,
  },
  getOpenApiDocument: {
    id: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Service',
    summary: 'This document',
    description:
      'Served by the emulator, with no key: the operations, parameters, bodies and answers it implements. The reference of the live service does not name this path.',
    scope: null,
    repeatable: true,
    status: 200,
    response: OpenApiDocumentShape,
    result: OpenApiDocumentShape,
  },
  listChannelAccounts: {
    id: 'listChannelAccounts',
    method: 'GET',
    path: '/channel_accounts',
    tag: 'Channel accounts',
    summary: 'The connected channel accounts, one entry per account, in one page',
    scope: 'products:read',
    repeatable: true,
    paging: 'one-page',
    status: 200,
    response: ChannelAccountList,
    result: read.ChannelAccountSummary,
  },
  getChannelAccount: {
    id: 'getChannelAccount',
    method: 'GET',
    path: '/channel_accounts/{id}',
    tag: 'Channel accounts',
    summary: 'One channel account with its sync, pricing and inventory settings',
    scope: 'products:read',
    params: ACCOUNT,
    repeatable: true,
    status: 200,
    response: ChannelAccount,
    result: read.ChannelAccount,
  },
  listPolicies: {
    id: 'listPolicies',
    method: 'GET',
    path: '/channel_accounts/{id}/policies',
    tag: 'Channel accounts',
    summary: "The account's shipping, return and payment policies, in one page",
    scope: 'products:read',
    params: ACCOUNT,
    repeatable: true,
    paging: 'one-page',
    status: 200,
    response: PolicyList,
    result: read.Policy,
  },
  listCategories: {
    id: 'listCategories',
    method: 'GET',
    path: '/channel_accounts/{id}/categories',
    tag: 'Channel accounts',
    summary: "Search or browse the channel's categories, ordered by path",
    scope: 'products:read',
    params: ACCOUNT,
    query: CategoriesQuery,
    repeatable: true,
    paging: 'cursor',
    status: 200,
    response: CategoryList,
    result: read.Category,
  },
  getAttributeSchema: {
    id: 'getAttributeSchema',
    method: 'GET',
    path: '/channel_accounts/{id}/categories/{category_id}/attribute_schema',
    tag: 'Channel accounts',
    summary: 'The attributes a category asks for',
    scope: 'products:read',
    params: { ...ACCOUNT, category_id: 'category id, from the categories of the account' },
    repeatable: true,
    status: 200,
    response: AttributeSchema,
    result: read.AttributeSchema,
  },
});
