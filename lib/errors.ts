/**
 * Errors a client can trigger. Code and HTTP status are independent columns: the real server
 * answers "not found" with HTTP 404 but code BAD_REQUEST, and role gates with HTTP 400 but code
 * UNAUTHORIZED_PRINCIPAL.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    /** Extra body fields, written between `msg` and `code` as the real server orders them. */
    readonly data: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (msg: string, data?: Record<string, unknown>): ApiError =>
  new ApiError('BAD_REQUEST', 400, msg, data);

/** The real server's resource-not-found class: HTTP 404, code still BAD_REQUEST. */
export const resourceNotFound = (msg: string): ApiError => new ApiError('BAD_REQUEST', 404, msg);

export const missingArgument = (name: string): ApiError =>
  new ApiError('REQUEST_VARIABLE_MISSING', 400, `Missing '${name}' argument`, { var_name: name });

/** A value the parameter's converter refused (`REQUEST_VARIABLE_INVALID`, echoing the value as sent). */
export const badValue = (name: string, raw: string | number | boolean): ApiError =>
  new ApiError('REQUEST_VARIABLE_INVALID', 400, `Bad value for '${name}': ${raw}`, { var_name: name, bad_value: raw });

export const confusingArguments = (first: string, second: string): ApiError =>
  new ApiError('REQUEST_CONFUSING_VAR', 400, `Can't decide between '${first}' and '${second}' arguments`, {
    var_name1: first,
    var_name2: second,
  });

export const insufficientPermission = (): ApiError => badRequest('Insufficient permission');

export const mustBeAdministrator = (): ApiError =>
  new ApiError('UNAUTHORIZED_PRINCIPAL', 400, 'Must be an organization administrator');

export const mustBeOwner = (): ApiError => new ApiError('UNAUTHORIZED_PRINCIPAL', 400, 'Must be an organization owner');

export const notForGuests = (): ApiError => badRequest('Not allowed for guest users');

export const notForBots = (): ApiError => badRequest('This endpoint does not accept bot requests.');

const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Basic realm="zulip"' };

export const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';

/** Every REST authentication failure is re-wrapped by the real server as 401 UNAUTHORIZED. */
export const unauthorized = (msg: string = NOT_LOGGED_IN): ApiError =>
  new ApiError('UNAUTHORIZED', 401, msg, {}, WWW_AUTHENTICATE);

export const rateLimited = (retryAfterSeconds: number): ApiError =>
  new ApiError(
    'RATE_LIMIT_HIT',
    429,
    'API usage exceeded rate limit',
    { 'retry-after': retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
