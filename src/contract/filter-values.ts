/**
 * The values of the filters the service's API reference enumerates (docs/service-contract.md), in one place: the CLI checks `--status`,
 * `--type` and `--events` against them before sending, and completion offers them. Channel
 * kinds are not here: the API reference does not list them, so they are checked against the
 * store's own channel accounts. Issue codes are open-ended (the service names new ones), so
 * the known ones only spare a read: another code passes when some listing carries it.
 */
import {
  EVENT_TYPES,
  ISSUE_CODES,
  LISTING_STATUSES,
  OPERATION_STATUSES,
  ORDER_STATUSES,
} from './contract.js';

/** A filter's accepted values and what one of them is called in a message. */
export interface FilterValues {
  /** "an order status". */
  what: string;
  values: readonly string[];
}

/** `--status` of each noun that filters by one. */
export const STATUS_FILTERS: Readonly<Record<string, FilterValues>> = {
  listings: { what: 'a listing status', values: LISTING_STATUSES },
  orders: { what: 'an order status', values: ORDER_STATUSES },
  operations: { what: 'an operation status', values: OPERATION_STATUSES },
};

/** `--type` of events and the entries of a webhook endpoint's `--events`. */
export const EVENT_TYPE_FILTER: FilterValues = { what: 'an event type', values: EVENT_TYPES };

/** `--error-code` of listings: the issue codes svc knows. */
export const ISSUE_CODE_FILTER: FilterValues = { what: 'an issue code svc knows', values: ISSUE_CODES };
