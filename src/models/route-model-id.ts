// The model id under which /v1/models lists a custom route, `route:<name>`, and its reading back on the model endpoints.

/** The prefix of a route's model id. */
export const ROUTE_MODEL_PREFIX = 'route:';

/** The model id that names a route. */
export function routeModelId(route: string): string {
  return `${ROUTE_MODEL_PREFIX}${route}`;
}

/** The route a `model` value names (`route:<name>`), or undefined for any other value. */
export function routeOfModel(model: unknown): string | undefined {
  if (typeof model !== 'string' || !model.startsWith(ROUTE_MODEL_PREFIX)) return undefined;
  const name = model.slice(ROUTE_MODEL_PREFIX.length);
  return name === '' ? undefined : name;
}
