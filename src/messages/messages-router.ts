// POST /v1/messages: Anthropic's Messages API in front of every route and provider, with the same policies, limits and request log.
import { Router, type RequestHandler } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { handlerSequence } from '../http/handler-sequence.js';
import { jsonBody } from '../http/json-body.js';
import { requireDeveloperKey } from '../auth/caller-identity.js';
import type { AnswerFormat } from '../traffic/response-relay.js';
import { resolveModelRequest, type ResolutionDeps } from '../traffic/model-request-resolution.js';
import { chatToMessage, MessageStreamWriter, streamErrorEvent } from './messages-answer.js';
import { anthropicError } from './messages-errors.js';
import { clientBetasOf } from './messages-client-betas.js';
import { checkContextManagement } from './messages-members.js';
import { checkToolMembers } from './messages-tool-members.js';
import { countRequestToChat, messagesToChat } from './messages-request.js';

/** The path of the Messages endpoint. */
export const MESSAGES_PATH = '/v1/messages';
/** Anthropic's token counting path (the SDK's `messages.countTokens()`). */
export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** Answers written as Anthropic's: a `message`, or its stream events. */
const ANTHROPIC_FORMAT: AnswerFormat = {
  json: chatToMessage,
  stream(model, provider) {
    const writer = new MessageStreamWriter(model, provider);
    return { chunk: (payload) => writer.chunk(payload), end: () => writer.end(), error: (error) => streamErrorEvent(anthropicError(error)) };
  },
};

/** What the router needs: resolution as for the model endpoints, and the steps after it (rate limiter, budgets and per-minute limits, guardrail pipeline, response cache, proxy). */
export interface MessagesRouterDeps extends ResolutionDeps {
  /** The Chronicles watcher, run first. */
  watch: RequestHandler;
  after: RequestHandler[];
  /** The steps of a token count after resolution: rate limiter and budgets, guardrail pipeline, then the counting step (see countTokensHandler). */
  countAfter: RequestHandler[];
  bodyLimitBytes: number;
  maxJsonDepth?: number;
  logger?: GatewayLogger;
}

/**
 * Anthropic's SDK sends its key as `x-api-key`: without an X-Gateway-Apikey, that header carries the developer key.
 * It is copied before authentication, so the key is checked before the body is read and scrubbed from the request log.
 */
const anthropicKeyHeader: RequestHandler = function anthropicApiKey(req, _res, next) {
  const key = req.headers['x-api-key'];
  if (req.headers['x-gateway-apikey'] === undefined && typeof key === 'string' && key !== '') req.headers['x-gateway-apikey'] = key;
  next();
};

/**
 * Creates the Messages router. A request is authenticated (X-Gateway-Apikey, `x-api-key` or `Authorization: Bearer`
 * with a developer key), translated into an OpenAI chat body, resolved to a route and providers (X-Gateway-route, or
 * `model`), then rate-limited, held to budgets, checked by the guardrail policy and proxied exactly like a chat completion; the answer
 * (JSON or stream) is written in Anthropic's format, and errors in Anthropic's error shape. A token count
 * (`/v1/messages/count_tokens`) goes the same way up to the guardrail pipeline, then to the provider's counting endpoint.
 * A client's `anthropic-beta` names are checked here and offered to the adapters (only Anthropic's sends any on).
 * @example
 * app.use(messagesRouter({ services, directory, watch, after: [rateLimit, guardrails, responseCache, proxy], countAfter: [rateLimit, guardrails, countTokensHandler(proxyDeps)], bodyLimitBytes }));
 */
export function messagesRouter(deps: MessagesRouterDeps): Router {
  const resolve: RequestHandler = async function resolveMessages(req, res, next) {
    if (req.body === undefined) throw Errors.bodyNotObject();
    const betas = clientBetasOf(req.headers);
    const { request, chat } = messagesToChat(req.body);
    const stream = request.stream === true;
    const context = await resolveModelRequest(req, res, deps, { endpoint: 'chat', body: chat, model: request.model, stream, routeTypes: ['chat', 'messages'] });
    checkContextManagement(request, context.candidates);
    checkToolMembers(request, context.candidates);
    context.answerFormat = ANTHROPIC_FORMAT;
    context.clientFormat = 'anthropic';
    if (betas.length > 0) context.clientBetas = betas;
    next();
  };
  const resolveCount: RequestHandler = async function resolveTokenCount(req, res, next) {
    if (req.body === undefined) throw Errors.bodyNotObject();
    const betas = clientBetasOf(req.headers);
    const { model, chat } = countRequestToChat(req.body);
    const context = await resolveModelRequest(req, res, deps, { endpoint: 'chat', body: chat, model, stream: false, routeTypes: ['chat', 'messages'] });
    // Counting is free at the provider: a count whose client leaves mid-call is not billed an estimate of its prompt.
    context.unbilled = true;
    checkToolMembers(chat as { tools?: Array<Record<string, unknown>> }, context.candidates);
    context.clientFormat = 'anthropic';
    if (betas.length > 0) context.clientBetas = betas;
    next();
  };
  const front = [deps.watch, anthropicKeyHeader, requireDeveloperKey(deps.services.developerKeys), jsonBody({ limitBytes: deps.bodyLimitBytes, maxDepth: deps.maxJsonDepth })];
  const steps = [...front, resolve, ...deps.after];
  const router = Router();
  // The error handler is on the route itself, not `use`d under the path, so req.path stays whole for the request log.
  const anthropicErrors = errorMiddleware(deps.logger, (error) => ({ type: 'error', error: anthropicError(error) }));
  router.post(MESSAGES_PATH, handlerSequence(steps), anthropicErrors);
  router.post(COUNT_TOKENS_PATH, handlerSequence([...front, resolveCount, ...deps.countAfter]), anthropicErrors);
  return router;
}
