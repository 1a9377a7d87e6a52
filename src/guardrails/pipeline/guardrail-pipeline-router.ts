// The guardrail pipeline router: runs the policy's input checks before any provider call and arms the output checks.
import { Router, type RequestHandler } from 'express';
import { errorMiddleware, type GatewayLogger } from '../../errors/error-middleware.js';
import type { Storage } from '../../storage/storage-facade.js';
import { ENDPOINT_PATHS, TEXT_ANSWER_ENDPOINTS } from '../../traffic/model-endpoints.js';
import { modelContextOf, type ModelRequestContext } from '../../traffic/model-request-context.js';
import type { GuardrailEngine } from '../guardrail-engine.js';
import { cachedEffectivePolicy, isEmptyPolicy, processorsFor } from './effective-policy.js';
import { enforceInputPolicy } from './input-policy.js';
import { requestSlots } from './message-text.js';
import { OutputGuard, type StreamWindowing } from './output-guard.js';
import { refuseUnreadableOutput } from './unreadable-output.js';

/** What the pipeline needs. */
export interface GuardrailPipelineDeps {
  engine: GuardrailEngine;
  storage: Storage;
  windowing?: StreamWindowing;
  logger?: GatewayLogger;
}

/** The guardrail pipeline router's step: runs the input checks of the resolved request's policy and arms its output checks. */
export function guardrailPolicyHandler(deps: GuardrailPipelineDeps): RequestHandler {
  const apply = async (context: ModelRequestContext): Promise<void> => {
    // Output checks read model text: chat and completions answers, not embeddings, moderations, images or audio.
    const textAnswer = TEXT_ANSWER_ENDPOINTS.has(context.endpoint);
    const policy = await enforceInputPolicy(deps, context, textAnswer ? ['input', 'output'] : ['input'], () => requestSlots(context.endpoint, context.body), () => context);
    if (processorsFor(policy, 'output').length > 0 && textAnswer) {
      context.outputGuard = new OutputGuard(deps.engine, policy, context.checks, deps.windowing);
      refuseUnreadableOutput(context.body, context.outputGuard);
    }
  };
  return function applyGuardrailPolicy(req, _res, next) {
    const context = modelContextOf(req);
    // No request to check, or a cached policy that checks nothing: on without a promise.
    const known = context && cachedEffectivePolicy(deps.storage, context.application, context.route);
    if (!context || (known && isEmptyPolicy(known))) {
      next();
      return;
    }
    apply(context).then(() => next(), next);
  };
}

/**
 * Creates the guardrail pipeline router for the model endpoints. It acts on requests the route
 * resolver has resolved, and must run before the proxy.
 */
export function guardrailPipelineRouter(deps: GuardrailPipelineDeps): Router {
  const router = Router();
  router.post(Object.values(ENDPOINT_PATHS), guardrailPolicyHandler(deps));
  router.use(Object.values(ENDPOINT_PATHS), errorMiddleware(deps.logger));
  return router;
}
