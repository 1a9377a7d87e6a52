// The labels, span name and gen_ai span attributes of model calls to one candidate: worked out once per route model or configured model, not per request.
import type { Candidate, ModelRequestContext, ProviderRecord } from '../traffic/model-request-context.js';
import { scrubSecretShapes } from '../secrets/secret-shapes.js';
import { configuredModel, OPERATION_NAMES, OTHER, semconvProvider } from './metric-labels.js';

/** What the metrics and spans of a model call to one candidate are labelled with. */
export interface CallLabels {
  /** The provider record these were made from (a changed record makes new ones). */
  readonly provider: ProviderRecord;
  /** The route's name. */
  readonly route: string;
  /** `gen_ai.operation.name`. */
  readonly operation: string;
  /** `gen_ai.provider.name`. */
  readonly providerType: string;
  /** The model as a label: the configured model name, or `other`. */
  readonly model: string;
  /** The attempt span's name: `<operation> <model>`, with the model as labelled (`other` unless configured). */
  readonly spanName: string;
  /** The gen_ai attributes of the attempt and request spans (shared: the SDK copies them). */
  readonly attributes: Readonly<Record<string, string>>;
}

function makeLabels(context: ModelRequestContext, candidate: Candidate): CallLabels {
  const operation = OPERATION_NAMES[context.endpoint] ?? context.endpoint;
  const providerType = semconvProvider(candidate.provider.type);
  const model = configuredModel(candidate) ?? OTHER;
  return {
    provider: candidate.provider,
    route: context.routeName,
    operation,
    providerType,
    model,
    // Span names are what tracing backends group by: a model the caller named freely (`provider/<anything>`) reads
    // `other` there, as in the metrics; `gen_ai.request.model` keeps its name.
    spanName: `${operation} ${model}`,
    attributes: Object.freeze({
      'gen_ai.operation.name': operation,
      'gen_ai.provider.name': providerType,
      // The model may be the caller's own: key-shaped text and URL credentials are removed.
      'gen_ai.request.model': scrubSecretShapes(candidate.model),
      'gateway.provider': candidate.provider.name,
      'gateway.route': context.routeName,
    }),
  };
}

type Level<T> = Map<string, T>;

function level<T>(map: Map<string, Level<T>>, key: string): Level<T> {
  let next = map.get(key);
  if (!next) {
    next = new Map();
    map.set(key, next);
  }
  return next;
}

/**
 * Call labels kept per route model (custom routes) or provider record (unified routes), then by endpoint, route and
 * model. Only admin-configured models are kept, so the cache is bounded; a provider or route written through the admin
 * API gets new records, and with them new labels.
 */
export class CallLabelCache {
  private readonly byOwner = new WeakMap<object, Map<string, Level<Level<CallLabels>>>>();

  /** The labels of a call for `context` to `candidate`. */
  of(context: ModelRequestContext, candidate: Candidate): CallLabels {
    const owner = candidate.routeModel ?? candidate.provider;
    let byEndpoint = this.byOwner.get(owner);
    if (!byEndpoint) {
      byEndpoint = new Map();
      this.byOwner.set(owner, byEndpoint);
    }
    const byModel = level(level(byEndpoint, context.endpoint), context.routeName);
    const found = byModel.get(candidate.model);
    if (found && found.provider === candidate.provider) return found;
    const labels = makeLabels(context, candidate);
    if (labels.model !== OTHER) byModel.set(candidate.model, labels);
    return labels;
  }
}
