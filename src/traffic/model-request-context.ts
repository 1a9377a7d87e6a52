// The state of one model request as it passes the route resolver, rate limiter, guardrail pipeline and proxy.
import type { Context } from '@opentelemetry/api';
import type { Request } from 'express';
import type { AttemptRecord, GuardrailCheck, ProviderRecord, RouteModel, RouteRecord, ToolInvocation } from '../records/request-records.js';

export type { AttemptRecord } from '../records/request-records.js';
import type { OutputGuard } from '../guardrails/pipeline/output-guard.js';
import type { ModelEndpoint, ProviderPlugin } from '../plugins/plugin-types.js';
import type { AbortFlag } from './attempt-timer.js';
import type { AnswerFormat, RelayOutcome } from './response-relay.js';
import { keepWithRequest, keptWithRequest } from '../observability/request-record.js';

export type { ProviderRecord, RouteModel, RouteRecord } from '../records/request-records.js';

/** One provider and model the request may be sent to, in order of preference. */
export interface Candidate {
  provider: ProviderRecord;
  adapter: ProviderPlugin;
  /** The upstream model name. */
  model: string;
  /** The route's model configuration; absent on unified routes. */
  routeModel?: RouteModel;
}

/** Everything the gateway knows about one model request. */
export interface ModelRequestContext {
  id: string;
  /** The request id (`x-request-id`), for the log lines written about this request; absent on a router mounted without the gateway's first step. */
  requestId?: string;
  startedAt: number;
  endpoint: ModelEndpoint;
  application: string;
  /**
   * The application's incarnation: its record's `created_at`. An application deleted and re-created under the same
   * name is another tenant: what is kept per application (cached answers, spend, per-minute counts, usage totals) is
   * kept per incarnation, so the new one inherits nothing. Empty for a record without `created_at`.
   */
  incarnation: string;
  developerKeyId: string;
  /** The route, or undefined for a request without X-Gateway-route (an implicit unified route). */
  route?: RouteRecord;
  routeName: string;
  /** The client's body in OpenAI wire format; guardrails may replace it before the proxy sends it. */
  body: Record<string, unknown>;
  stream: boolean;
  candidates: Candidate[];
  attempts: AttemptRecord[];
  /** Turned when the client disconnects (an EventEmitter flag: cheaper per request than an AbortController). */
  abort: AbortFlag;
  /** Guardrail checks run so far, input and output. */
  checks: GuardrailCheck[];
  /** Set by the guardrail pipeline when the policy checks output. */
  outputGuard?: OutputGuard;
  /** The request span's context, parent of the attempt spans (set when an OpenTelemetry SDK is registered). */
  trace?: Context;
  /** When the first streamed chunk came from the provider (`performance.now()`), for time-to-first-token. */
  firstChunkAt?: number;
  /** Set on routes with a response cache: whether the cache answered. */
  cache?: 'hit' | 'miss';
  /** What the proxy relayed, for the request log. */
  relay?: RelayOutcome;
  /** Set by endpoints that answer in another API's format (POST /v1/messages); absent: OpenAI's. */
  answerFormat?: AnswerFormat;
  /** Set with `answerFormat` by POST /v1/messages: the body carries Anthropic's members (see ProviderRequestContext.clientFormat). */
  clientFormat?: 'anthropic';
  /** Set by POST /v1/messages: the betas its client asked for (see ProviderRequestContext.clientBetas); absent when none. */
  clientBetas?: string[];
  /**
   * Set by POST /v1/messages/count_tokens: the provider bills nothing for the call (a token count), so no usage is ever
   * estimated for it (see unreportedUsage), even when its client leaves mid-call.
   */
  unbilled?: true;
  /** Set by endpoints that make several model calls (the Responses tool loop): what the request log records as the exchange. */
  exchange?: { output: string | null; usage: Record<string, unknown> | null; tool_invocations: ToolInvocation[]; rounds: number };
}

const CONTEXT = Symbol('gateway.model-request');

/**
 * Attaches the context to the request: in the gateway's request record when its first step made one (one property
 * per request, see request-record.ts), else on the request itself (routers mounted on their own).
 */
export function setModelContext(req: Request, context: ModelRequestContext): void {
  keepWithRequest(req, 'model', CONTEXT, context);
}

/** The context of a model request, when the route resolver has run. */
export function modelContextOf(req: Request): ModelRequestContext | undefined {
  return keptWithRequest<ModelRequestContext>(req, 'model', CONTEXT);
}
