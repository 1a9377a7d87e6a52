// The input side of a guardrail policy, shared by the model endpoints and /v1/responses: refuse unenforceable policies, run input checks.
import type { GuardrailPolicy } from '../../admin/policy-validation.js';
import type { GatewayLogger } from '../../errors/error-middleware.js';
import type { Storage } from '../../storage/storage-facade.js';
import type { ModelRequestContext } from '../../traffic/model-request-context.js';
import type { GuardrailEngine } from '../guardrail-engine.js';
import { runChecks, unavailableRun, unregisteredProcessors } from './check-runner.js';
import { effectivePolicy, processorsFor, type GuardrailPhase } from './effective-policy.js';
import type { TextSlot } from './message-text.js';
import type { CheckedRequest } from './content-parts.js';
import { refuseUnreadableInput } from './unreadable-input.js';
import { readPdfFiles, refuseRewrittenPdfs } from '../pdf/pdf-file-texts.js';

/** What enforcing a policy's input side needs. */
export interface InputPolicyDeps {
  engine: GuardrailEngine;
  storage: Storage;
  logger?: GatewayLogger;
}

/**
 * Reads the policy in force for the request, refuses it with 503 `guardrail_unavailable` (logged, recorded on the
 * context) when it names a processor that is not registered in `phases`, and runs its input checks on `slots`
 * (DLP transforms rewrite them in place). While input checks run, a policy with `unreadable_content: "reject"` first
 * refuses `request` with 400 when it carries content they cannot read (an image, audio, a PDF: see unreadable-input);
 * with `read_pdf_text`, the text of its PDFs is read first and checked, and a PDF a transform would rewrite is refused.
 * Throws the policy's rejection; answers the policy for the output side.
 */
export async function enforceInputPolicy(
  deps: InputPolicyDeps,
  context: ModelRequestContext,
  phases: readonly GuardrailPhase[],
  slots: () => TextSlot[],
  request: () => CheckedRequest,
): Promise<Readonly<GuardrailPolicy>> {
  const { policy, source } = await effectivePolicy(deps.storage, context.application, context.route);
  // A policy naming a processor that is not registered cannot be enforced: refuse before any provider call.
  const missing = unregisteredProcessors(deps.engine, policy, phases);
  if (missing.length > 0) {
    const run = unavailableRun(missing, 'input');
    context.checks.push(...run.checks);
    deps.logger?.error('guardrail policy names processors that are not registered; the request is refused', {
      request_id: context.requestId,
      application: context.application,
      route: context.routeName,
      policy: source,
      processors: missing,
    });
    throw run.reject;
  }
  if (processorsFor(policy, 'input').length > 0) {
    // PDFs' text is read first (when the policy asks), so the checks read it and a PDF read whole is not unreadable.
    if (policy.read_pdf_text === true) await readPdfFiles(request(), policy.timeout_ms);
    if (policy.unreadable_content === 'reject') refuseUnreadableInput(request());
    const run = await runChecks(deps.engine, policy, 'input', slots());
    context.checks.push(...run.checks);
    if (run.reject) throw run.reject;
    if (policy.read_pdf_text === true) refuseRewrittenPdfs(request());
  }
  return policy;
}
