// The gateway's one record per request, kept on the request as a single property: its id, its trace and how its end is observed.
import type { Context, Span } from '@opentelemetry/api';
import type { Request, Response } from 'express';

/** A request span and the context its children are made in. */
export interface RequestTrace {
  span: Span;
  context: Context;
}

/** Ends the observation of a request once its answer is over: one per gateway, shared by all its requests. */
export interface RequestFinisher {
  finish(req: Request, res: Response, record: RequestRecord): void;
}

/**
 * What the gateway's first step keeps per request. It is one property, set once with every field present: after
 * Express has handled a request, V8 gives each request object a hidden class of its own, so each property added to a
 * request later builds a new one (about 2 KB and a runtime call, per property and request).
 */
export interface RequestRecord {
  /** The request id, returned as `x-request-id`. */
  readonly id: string;
  /** The request's span and the context its children are made in, when a tracer is live. */
  trace: RequestTrace | undefined;
  /** The endpoint label of the request metrics (metrics on, model endpoints only). */
  endpoint: string | undefined;
  /** When the first step saw the request (`performance.now()`). */
  started: number;
  /** Ends the request's observation at its answer's end; cleared once called. */
  finisher: RequestFinisher | undefined;
  /** The identified caller (src/auth/caller-identity.ts keeps it here when the record exists). */
  caller: unknown;
  /** The model request's context (src/traffic/model-request-context.ts keeps it here when the record exists). */
  model: unknown;
  /** An MCP request's target registry (src/mcp/mcp-proxy-router.ts). */
  mcp: unknown;
  /** An admin request's principal (src/admin/admin-auth.ts). */
  admin: unknown;
}

/** The record's fields that later steps fill. */
export type RecordSlot = 'caller' | 'model' | 'mcp' | 'admin';

const RECORD = Symbol('gateway.request');

type RecordedRequest = Request & { [RECORD]?: RequestRecord };

/** Creates the request's record with its id, and keeps it on the request. */
export function createRequestRecord(req: Request, id: string): RequestRecord {
  const record: RequestRecord = { id, trace: undefined, endpoint: undefined, started: 0, finisher: undefined, caller: undefined, model: undefined, mcp: undefined, admin: undefined };
  (req as RecordedRequest)[RECORD] = record;
  return record;
}

/** The request's record, once the gateway's first step has seen it. */
export function requestRecordOf(req: Request): RequestRecord | undefined {
  return (req as RecordedRequest)[RECORD];
}

/**
 * Keeps a later step's value with the request: in the record's `slot` when the gateway's first step made a record
 * (one property per request), else on the request itself under `fallback` (routers mounted on their own).
 */
export function keepWithRequest(req: Request, slot: RecordSlot, fallback: symbol, value: unknown): void {
  const record = requestRecordOf(req);
  if (record) record[slot] = value;
  else (req as Request & Record<symbol, unknown>)[fallback] = value;
}

/** The value {@link keepWithRequest} kept, if any. */
export function keptWithRequest<T>(req: Request, slot: RecordSlot, fallback: symbol): T | undefined {
  return ((requestRecordOf(req)?.[slot] ?? (req as Request & Record<symbol, unknown>)[fallback]) as T | undefined);
}
