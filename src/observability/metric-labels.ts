// Label values with bounded cardinality: only admin-configured names (routes, providers, models, tools), anything else is "other".
import type { Candidate, ModelRequestContext } from '../traffic/model-request-context.js';

/** The label value that stands in for names the admin did not configure, and for names past the cap. */
export const OTHER = 'other';
/** The label value of a request that never reached a route, provider or model. */
export const NONE = 'none';

/**
 * A bounded set of label values: the first `max` distinct values pass, later ones read as `other`.
 * A guard behind the "admin-configured names only" rule, so a misconfiguration cannot grow a series set without end.
 */
export class LabelCap {
  private readonly seen = new Set<string>();

  constructor(private readonly max: number) {}

  /** The value itself while the cap allows it, else `other`. */
  value(name: string): string {
    if (this.seen.has(name)) return name;
    if (this.seen.size >= this.max) return OTHER;
    this.seen.add(name);
    return name;
  }
}

/** The model name when an admin configured it (a route's model, or a model listed in the provider's `config.models` or `config.deployments`); else undefined. */
export function configuredModel(candidate: Candidate): string | undefined {
  if (candidate.routeModel) return candidate.model;
  const { models, deployments } = candidate.provider.config;
  if (Array.isArray(models) && models.includes(candidate.model)) return candidate.model;
  // Azure names its models by deployment.
  return deployments !== null && typeof deployments === 'object' && Object.hasOwn(deployments, candidate.model) ? candidate.model : undefined;
}

/** The candidate a recorded attempt went to. */
export function candidateOf(context: ModelRequestContext, provider: string, model: string): Candidate | undefined {
  for (const candidate of context.candidates) if (candidate.provider.name === provider && candidate.model === model) return candidate;
  return undefined;
}

/** GenAI semantic-convention provider names for the built-in adapter types; other types keep their own name. */
const SEMCONV_PROVIDERS: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  azure: 'azure.ai.openai',
  azure_openai: 'azure.ai.openai',
  bedrock: 'aws.bedrock',
  mistral: 'mistral_ai',
};

/** `gen_ai.provider.name` for an adapter type (registered plugin names only, so bounded). */
export function semconvProvider(type: string): string {
  return SEMCONV_PROVIDERS[type] ?? type;
}

/** `gen_ai.operation.name` of each model endpoint. */
export const OPERATION_NAMES: Record<string, string> = { chat: 'chat', completions: 'text_completion', embeddings: 'embeddings' };
