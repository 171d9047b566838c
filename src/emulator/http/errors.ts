/** Error answers of the emulator: the contract's `{error: {type, code, message, param?}}`. */
import { ERROR_CODES, ERROR_TYPES } from '../../contract/contract.js';

/** An error answer a handler or check throws; the pipeline turns it into a response. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly param?: string;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    type: string,
    code: string,
    message: string,
    options: { param?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = options.param;
    this.headers = options.headers ?? {};
  }

  /** The wire body. */
  body(): { error: { type: string; code: string; message: string; param?: string } } {
    const error: { type: string; code: string; message: string; param?: string } = {
      type: this.type,
      code: this.code,
      message: this.message,
    };
    if (this.param !== undefined) error.param = this.param;
    return { error };
  }
}

/** 400 parameter_invalid naming the parameter. */
export function invalidParam(param: string, message: string): HttpError {
  return new HttpError(400, ERROR_TYPES.invalidRequest, ERROR_CODES.parameterInvalid, message, { param });
}

/** 400 parameter_missing naming the parameter. */
export function missingParam(param: string, message: string): HttpError {
  return new HttpError(400, ERROR_TYPES.invalidRequest, ERROR_CODES.parameterMissing, message, { param });
}

/** 404 resource_missing for an unknown id, SKU or path. */
export function notFound(message: string, param?: string): HttpError {
  return new HttpError(404, ERROR_TYPES.invalidRequest, ERROR_CODES.resourceMissing, message, { param });
}
