// The built-in plugins: the five guardrail processors and the provider adapters, registered like a user's own.
import type { GatewayPlugin } from './plugins/plugin-types.js';

/** The built-in plugins, in dependency order. */
export function builtinPlugins(): GatewayPlugin[] {
  // TEMPORARY until plugins/providers lands.
  return [{ kind: 'provider', name: 'openai', openaiCompatible: true, buildRequest: () => ({ url: '', method: 'POST', headers: {}, body: '' }) }];
}
