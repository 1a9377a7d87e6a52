// The standalone guardrail endpoint: POST /v1/guardrail/:processor/apply evaluates text with one processor.
import { Router, type Request } from 'express';
import type { AdminKeyring } from '../admin/admin-auth.js';
import type { AdminServices } from '../admin/admin-services.js';
import { policyKey } from '../admin/applications-router.js';
import { DEFAULT_APPLICATION_POLICY, type GuardrailPolicy } from '../admin/policy-validation.js';
import { requireEnabledApplication } from '../auth/application-gate.js';
import { callerOf, identifyCaller, type Caller } from '../auth/caller-identity.js';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { jsonBody } from '../http/json-body.js';
import { compileValidator } from '../validation/schema-validator.js';
import { DEFAULT_STANDALONE_POLICY, processorOptions } from './policy-options.js';

/** The body of a standalone evaluation. */
interface ApplyBody {
  input: { text: string; filename?: string };
  config?: { threshold?: number; [option: string]: unknown };
}

const validateApplyBody = compileValidator<ApplyBody>({
  type: 'object',
  required: ['input'],
  properties: {
    input: {
      type: 'object',
      required: ['text'],
      properties: { text: { type: 'string' }, filename: { type: 'string' } },
    },
    config: { type: 'object', properties: { threshold: { type: 'number', minimum: 0, maximum: 1 } } },
  },
});

/** Options of {@link guardrailRouter}. */
export interface GuardrailRouterOptions {
  services: AdminServices;
  keyring: AdminKeyring;
  /** Largest `input.text`, in bytes (UTF-8). Default 1 MB. */
  maxTextBytes?: number;
  /** Deepest JSON nesting accepted in bodies (default 64). */
  maxJsonDepth?: number;
  logger?: GatewayLogger;
}

/**
 * Creates the standalone guardrail router.
 * @example
 * app.use(gateway.guardrailsRouter);
 */
export function guardrailRouter(options: GuardrailRouterOptions): Router {
  const { services, keyring } = options;
  const maxTextBytes = options.maxTextBytes ?? 1024 * 1024;
  const router = Router();

  /**
   * The policy in force: the named application's, or the default one. A developer key may name only its
   * own application (403 otherwise, before any lookup, so the answer does not tell which names exist);
   * admin keys may name any.
   */
  const policyFor = async (req: Request, caller: Caller): Promise<GuardrailPolicy> => {
    const header = req.headers['x-gateway-application'];
    if (header === undefined || header === '') return DEFAULT_STANDALONE_POLICY;
    const name = String(header);
    if (caller.kind === 'application' && caller.application !== name) throw Errors.applicationForbidden(['x-gateway-application'], { param: 'x-gateway-application' });
    await services.applications.get(name);
    const stored = await services.storage.get<GuardrailPolicy>(policyKey(name));
    return stored ?? DEFAULT_APPLICATION_POLICY;
  };

  router.post(
    '/v1/guardrail/:processor/apply',
    async function authenticateGuardrailCaller(req, _res, next) {
      const caller = await identifyCaller(req, services.developerKeys, { keyring });
      if (caller.kind === 'application') await requireEnabledApplication(services.storage, caller.application);
      next();
    },
    jsonBody({ limitBytes: maxTextBytes * 2 + 64 * 1024, maxDepth: options.maxJsonDepth }),
    async function applyGuardrail(req, res) {
      const processor = String(req.params.processor);
      if (!services.guardrails.has(processor)) {
        throw Errors.notFound(['guardrail processor', processor], { details: { processors: services.guardrails.names() } });
      }
      if (req.body === undefined) throw Errors.bodyNotObject();
      const body = validateApplyBody(req.body);
      if (Buffer.byteLength(body.input.text, 'utf8') > maxTextBytes) {
        throw Errors.bodyTooLarge([String(maxTextBytes)], { param: 'input.text' });
      }
      const caller = callerOf(req) ?? (await identifyCaller(req, services.developerKeys, { keyring }));
      const policy = await policyFor(req, caller);
      const { threshold, ...requestOptions } = body.config ?? {};
      const outcome = await services.guardrails.evaluate(processor, body.input.text, {
        options: { ...processorOptions(policy, processor), ...requestOptions },
        threshold,
        input: body.input,
      });
      const requestReject = policy.mode === 'reject' && outcome.flagged;
      res.json({ assessments: [{ [processor]: { request_reject: requestReject, results: outcome.results } }] });
    },
  );
  router.use('/v1/guardrail', errorMiddleware(options.logger));
  return router;
}
