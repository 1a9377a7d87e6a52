// POST /v1/responses: the Responses API over any chat provider, with the MCP tool loop run by the gateway.
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { requestSecrets, type ToolInvocation } from '../chronicles/chronicle-entry.js';
import { requireDeveloperKey } from '../auth/caller-identity.js';
import { errorMiddleware, toGatewayError, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { jsonBody } from '../http/json-body.js';
import { requestTraceOf } from '../observability/gateway-tracing.js';
import { mountPrefix, publicBaseUrl } from '../http/public-base-url.js';
import { setGatewayHeaders } from '../traffic/gateway-headers.js';
import type { ModelRequestContext } from '../traffic/model-request-context.js';
import { resolveModelRequest, type ResolutionDeps } from '../traffic/model-request-resolution.js';
import { admitOnRoute } from '../traffic/rate-limiter-router.js';
import { targetsOf } from './mcp-server-targets.js';
import { checkToolHeaderKeys } from './tool-header-keys.js';
import { OutputTransform } from '../guardrails/pipeline/output-transform.js';
import { rewriteHeldEvents, type StreamEvent } from './held-stream-events.js';
import { newId, ResponseOutput } from './response-output.js';
import { validateResponsesRequest } from './responses-request.js';
import { CHECKED_OUTPUT_ITEMS, checkResponsesInput, checkResponsesOutput, checksOutput, outputText } from './responses-guardrails.js';
import type { McpToolEntry, OutputItem, ResponsesRequest } from './responses-types.js';
import { planResponse, runToolLoop, type ToolLoopDeps } from './tool-loop.js';
import { keepResponse, retrieveResponseHandler } from './stored-responses.js';

/** The items a held stream that fails drops from its failed response: the text it held back. */
const MESSAGE_ITEMS: ReadonlySet<string> = new Set(['message']);

/** The path of the Responses endpoint. */
export const RESPONSES_PATH = '/v1/responses';

/** What the router needs. */
export interface ResponsesRouterDeps extends ToolLoopDeps, ResolutionDeps {
  /** Refuses a request over its application's or developer key's budget or per-minute limits (429). */
  admit?: (res: Response, context: ModelRequestContext) => Promise<void>;
  baseUrl?: string;
  bodyLimitBytes: number;
  maxJsonDepth?: number;
  logger?: GatewayLogger;
  /** Stored provider keys and registry tokens, scrubbed from responses kept for GET /v1/responses/:id. */
  secrets?: () => Promise<string[]>;
}

/** The tools of the request as the response echoes them: headers (which carry keys) left out. */
function echoTools(request: ResponsesRequest): unknown[] {
  return (request.tools ?? []).map((tool) => {
    if (tool.type !== 'mcp') return tool;
    const { headers: _headers, ...rest } = tool;
    return rest;
  });
}

/** Resolves the request as the model endpoints do (developer key, route, providers). */
async function resolve(req: Request, res: Response, deps: ResponsesRouterDeps, request: ResponsesRequest): Promise<ModelRequestContext> {
  const body = request as unknown as Record<string, unknown>;
  return resolveModelRequest(req, res, deps, { endpoint: 'chat', body, model: request.model, stream: false, routeTypes: ['chat', 'responses'] });
}

/**
 * Creates the Responses router. Mount it after the Chronicles recorder (which watches this path too).
 * @example
 * app.use(gateway.responses);
 */
export function responsesRouter(deps: ResponsesRouterDeps): Router {
  const handle: RequestHandler = async function createResponse(req, res) {
    if (req.body === undefined) throw Errors.bodyNotObject();
    const request = validateResponsesRequest(req.body);
    const context = await resolve(req, res, deps, request);
    const ownOrigins = [...new Set([new URL(publicBaseUrl(req, undefined)).origin, ...(deps.baseUrl ? [new URL(deps.baseUrl).origin] : [])])];
    // Every MCP server and approval is checked before anything is called; the first model call then takes a rate-limit token.
    const mcpEntries = (request.tools ?? []).flatMap((tool, index) => (tool.type === 'mcp' ? [{ entry: tool as McpToolEntry, index }] : []));
    const ownPrefixes = [...new Set(['', mountPrefix(req), ...(deps.baseUrl ? [new URL(deps.baseUrl).pathname.replace(/\/+$/, '')] : [])])];
    const targets = await targetsOf(mcpEntries, { registries: deps.sessions.registries, ownOrigins, ownPrefixes, guard: deps.sessions.guard });
    await checkToolHeaderKeys(mcpEntries, targets, context.application, deps.services.developerKeys);
    const plan = await planResponse(deps, request, context.application, targets);
    // The application's (or route's) policy holds here as on the model endpoints: input checks before any model call.
    const policy = await checkResponsesInput(
      { engine: deps.sessions.engine, storage: deps.services.storage, logger: deps.logger },
      context,
      plan.request,
      plan.inputMessages as unknown as Array<Record<string, unknown>>,
    );
    // A request the budgets or per-minute limits refuse gives its route slot back.
    await admitOnRoute(deps.limits, context.routeName, context.route?.config.settings.rate_limit ?? 0, () => deps.admit?.(res, context));
    const id = newId('resp');
    const base = {
      id,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      model: request.model,
      error: null,
      incomplete_details: null,
      instructions: request.instructions ?? null,
      max_output_tokens: request.max_output_tokens ?? null,
      max_tool_calls: request.max_tool_calls ?? null,
      metadata: request.metadata ?? {},
      parallel_tool_calls: request.parallel_tool_calls ?? true,
      previous_response_id: request.previous_response_id ?? null,
      temperature: request.temperature ?? null,
      top_p: request.top_p ?? null,
      top_logprobs: request.top_logprobs ?? null,
      tool_choice: request.tool_choice ?? 'auto',
      tools: echoTools(request),
      text: request.text ?? { format: { type: 'text' } },
      reasoning: request.reasoning ?? null,
    };
    const invocations: ToolInvocation[] = [];
    // Tool calls are spans under this request's span, and registries' tool servers receive its trace context.
    const loopDeps: ToolLoopDeps = { ...deps, sessions: { ...deps.sessions, ownOrigins, traceParent: requestTraceOf(req)?.context, requestSecrets: requestSecrets(req) } };
    const stream = request.stream === true;
    if (stream) {
      res.status(200).set({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
      setGatewayHeaders(res, context);
      res.flushHeaders();
    }
    // Under an output policy a stream is held until the final text passes; under an output transform (DLP), its events
    // then go out with the transformed text of the final items.
    const held: StreamEvent[] | undefined = stream && checksOutput(policy) ? [] : undefined;
    const transforms = held !== undefined && OutputTransform.of(deps.sessions.engine, policy, []) !== undefined;
    let holding = held !== undefined;
    const line = (event: StreamEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    const release = (output?: OutputItem[]) => {
      if (held && output) for (const event of transforms ? rewriteHeldEvents(held, output) : held) res.write(line(event));
      held?.splice(0);
      holding = false;
    };
    const write = (event: StreamEvent) => (holding ? held!.push(event) : res.write(line(event)));
    const output = new ResponseOutput(base, stream ? (event) => void write(event) : undefined);
    output.start();
    const record = (text: string | null) => {
      context.exchange = { output: text, usage: { ...output.usage }, tool_invocations: invocations, rounds: context.attempts.length };
    };
    try {
      const response = await runToolLoop(loopDeps, plan, context, output, invocations, id);
      await checkResponsesOutput(deps.sessions.engine, policy, context, response.output as OutputItem[]).catch((rejected: unknown) => {
        // A rejected answer ends with none of the model's text: its messages and the arguments of its calls.
        output.withhold(CHECKED_OUTPUT_ITEMS);
        throw rejected;
      });
      // The items' text after any output transform (DLP): what a JSON answer carries, and what the log and the stored
      // response keep of a stream, whose events went out (held, then released) as they came.
      response.output_text = outputText(response.output as OutputItem[]);
      record(String(response.output_text));
      await keepResponse(stored, req, request, context.application, response);
      release(response.output as OutputItem[]);
      if (stream) res.end();
      else {
        setGatewayHeaders(res, context);
        res.json(response);
      }
    } catch (error) {
      record(null);
      if (held) output.withhold(MESSAGE_ITEMS);
      release();
      if (!stream) throw error;
      const failure = toGatewayError(error);
      res.locals.gatewayError = failure;
      output.fail({ code: failure.code, message: failure.message });
      res.end();
    }
  };
  const stored = { store: deps.store, developerKeys: deps.services.developerKeys, storage: deps.services.storage, secrets: deps.secrets, logger: deps.logger };
  const router = Router();
  // The error handler is on each route, not `use`d under the path, so req.path stays whole for the request log.
  const answerError = errorMiddleware(deps.logger);
  router.get(`${RESPONSES_PATH}/:id`, retrieveResponseHandler(stored), answerError);
  router.post(RESPONSES_PATH, requireDeveloperKey(deps.services.developerKeys), jsonBody({ limitBytes: deps.bodyLimitBytes, maxDepth: deps.maxJsonDepth }), handle, answerError);
  return router;
}
