// Chooses where a model request goes: weighted random choice on custom routes, model lookup on unified routes.
import { MAX_MODEL_WEIGHT } from '../admin/schemas/model-config-schema.js';
import { Errors } from '../errors/error-registry.js';
import type { Candidate, ProviderRecord, RouteModel, RouteRecord } from './model-request-context.js';
import type { ProviderDirectory } from './provider-directory.js';

/**
 * A model's weight as the choice counts it: at most {@link MAX_MODEL_WEIGHT}, as routes stored before that bound (or
 * written to storage directly) may hold more; anything not a positive number counts 0. So the sum stays finite.
 */
function weightOf(model: RouteModel): number {
  const weight = model.weight ?? 1;
  return typeof weight === 'number' && weight > 0 ? Math.min(weight, MAX_MODEL_WEIGHT) : 0;
}

/**
 * Orders a custom route's models: the first is a weighted random choice among models with weight > 0;
 * the others follow in list order after it, wrapping around (weight 0 makes a model fallback-only).
 */
export function orderByWeight(models: readonly RouteModel[], random: () => number = Math.random): RouteModel[] {
  let total = 0;
  for (const model of models) total += weightOf(model);
  let first = 0;
  if (total > 0) {
    let point = random() * total;
    first = models.findIndex((model) => (point -= weightOf(model)) < 0);
    // Rounding may leave the point past the end: the last model with a weight takes it, never a fallback-only one.
    if (first === -1) first = models.findLastIndex((model) => weightOf(model) > 0);
  }
  return [...models.slice(first), ...models.slice(0, first)];
}

/** A candidate on `provider`, or undefined when it is missing, disabled or of a type no adapter serves. */
function candidateOn(directory: ProviderDirectory, provider: Readonly<ProviderRecord> | undefined, model: string, routeModel?: RouteModel): Candidate | undefined {
  if (!provider || provider.enabled === false) return undefined;
  const adapter = directory.adapter(provider.type);
  if (!adapter) return undefined;
  return { provider: provider as ProviderRecord, adapter, model, routeModel };
}

async function candidateFor(directory: ProviderDirectory, providerName: string, model: string, routeModel?: RouteModel): Promise<Candidate | undefined> {
  return candidateOn(directory, await directory.provider(providerName), model, routeModel);
}

/**
 * A custom route's candidates from the cached provider records alone, with no promise: undefined when a provider must
 * be read from storage (then {@link resolveCandidates} reads it). Throws 503 as it does when no provider is enabled.
 */
export function cachedRouteCandidates(
  directory: ProviderDirectory,
  route: Readonly<RouteRecord>,
  routeName: string,
  random?: () => number,
): Candidate[] | undefined {
  // Every provider is checked before the weighted choice, so a miss leaves `random` uncalled for the slow path.
  for (const routeModel of route.models!) if (!directory.peekProvider(routeModel.provider)) return undefined;
  const candidates: Candidate[] = [];
  for (const routeModel of orderByWeight(route.models!, random)) {
    const candidate = candidateOn(directory, directory.peekProvider(routeModel.provider)!.value, routeModel.name, routeModel);
    if (candidate) candidates.push(candidate);
  }
  if (candidates.length === 0) throw Errors.noProviderAvailable([routeName]);
  return candidates;
}

/**
 * A unified route's candidate from the built model index and cached provider records alone, with no promise, as
 * {@link resolveCandidates} finds it: undefined when anything must be read, and when the model is unknown (the full
 * resolution then answers the error).
 */
export function cachedUnifiedCandidates(directory: ProviderDirectory, model: unknown): Candidate[] | undefined {
  if (typeof model !== 'string' || model === '') return undefined;
  const owners = directory.peekProvidersListing(model);
  if (!owners) return undefined;
  for (const owner of owners) {
    const cached = directory.peekProvider(owner);
    if (!cached) return undefined;
    const candidate = candidateOn(directory, cached.value, model);
    if (candidate) return [candidate];
  }
  const slash = model.indexOf('/');
  if (slash <= 0) return undefined;
  const cached = directory.peekProvider(model.slice(0, slash));
  const candidate = cached && candidateOn(directory, cached.value, model.slice(slash + 1));
  return candidate ? [candidate] : undefined;
}

/** Resolves a unified route's model: `provider/model`, or a model listed in a provider's `config.models`. */
async function unifiedCandidates(directory: ProviderDirectory, model: unknown): Promise<Candidate[]> {
  if (typeof model !== 'string' || model === '') {
    throw Errors.validation(["The field 'model' is required on a unified route."], { param: 'model' });
  }
  for (const owner of await directory.providersListing(model)) {
    const candidate = await candidateFor(directory, owner, model);
    if (candidate) return [candidate];
  }
  const slash = model.indexOf('/');
  if (slash > 0) {
    const candidate = await candidateFor(directory, model.slice(0, slash), model.slice(slash + 1));
    if (candidate) return [candidate];
  }
  throw Errors.unknownModel([JSON.stringify(model)], { param: 'model' });
}

/**
 * The providers and models a request may use, in order of preference.
 * Throws 400 for an unknown model on a unified route, and 503 when a custom route has no enabled provider.
 */
export async function resolveCandidates(
  directory: ProviderDirectory,
  route: Readonly<RouteRecord> | undefined,
  routeName: string,
  body: Record<string, unknown>,
  random?: () => number,
): Promise<Candidate[]> {
  if (!route?.models?.length) return unifiedCandidates(directory, body.model);
  const candidates: Candidate[] = [];
  for (const routeModel of orderByWeight(route.models, random)) {
    const candidate = await candidateFor(directory, routeModel.provider, routeModel.name, routeModel);
    if (candidate) candidates.push(candidate);
  }
  if (candidates.length === 0) throw Errors.noProviderAvailable([routeName]);
  return candidates;
}
