// The request id: taken from a sane `x-request-id`, else generated; kept in the request's record and returned on every answer.
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { createRequestRecord, requestRecordOf, type RequestRecord } from './request-record.js';

/** The header that carries the request id, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** The longest client request id kept; a longer one is replaced. */
export const MAX_REQUEST_ID_LENGTH = 128;

const SANE_REQUEST_ID = /^[A-Za-z0-9._:\-]+$/;

/** The client's id when it is 1 to 128 characters of letters, digits and `.` `_` `:` `-`; otherwise undefined. */
export function saneRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_REQUEST_ID_LENGTH && SANE_REQUEST_ID.test(value) ? value : undefined;
}

/** Gives the request its id (the client's sane one, or a new UUID), kept in its new record, which it returns. */
export function assignRequestId(req: Request): RequestRecord {
  return createRequestRecord(req, saneRequestId(req.headers[REQUEST_ID_HEADER]) ?? randomUUID());
}

/** The request's id, once the gateway's router has seen it. */
export function requestIdOf(req: Request): string | undefined {
  return requestRecordOf(req)?.id;
}
