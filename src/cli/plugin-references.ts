// Checks what a config file names among plugins: provider types and policy processors, against the built-ins and the file's own plugins.
import { validatePolicy, validateRoutePolicy } from '../admin/policy-validation.js';
import { builtinPlugins } from '../builtin-plugins.js';
import { isGatewayError } from '../errors/error-registry.js';
import { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import type { GatewayPlugin } from '../plugins/plugin-types.js';
import type { ConfigProblem } from './config-file.js';
import type { GatewayConfig } from './config-schema.js';
import type { RegisteredPlugins } from './plugin-registration.js';

/** Runs `check`; a coded error becomes a problem at `prefix` + its param, in the admin API's words. */
function collect(problems: ConfigProblem[], prefix: string, check: () => unknown): void {
  try {
    check();
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    const path = `${prefix}${error.param ?? ''}`.replace(/\.$/, '');
    const message = error.param ? error.message.replaceAll(`'${error.param}'`, `'${path}'`) : error.message;
    problems.push({ path, message: message.includes(`'${path}'`) ? message : `The field '${path}': ${message}` });
  }
}

/**
 * The problems in what the file names: a provider `type` with no adapter, a policy processor that is
 * not registered or whose options its schema refuses. The built-in plugins and `plugins` (the file's
 * own, already loaded) are what a gateway started from the file would have; `registered` gives them already
 * registered (see `registerPluginModules`). Items whose path `checked` refuses (they have problems of their own) are skipped.
 */
export async function pluginReferenceProblems(
  config: GatewayConfig,
  plugins: readonly GatewayPlugin[],
  checked: (path: string) => boolean = () => true,
  registered?: Pick<RegisteredPlugins, 'engine' | 'providerTypes'>,
): Promise<ConfigProblem[]> {
  const all = [...builtinPlugins(), ...plugins];
  let engine = registered?.engine;
  if (!engine) {
    engine = new GuardrailEngine();
    for (const plugin of all) if (plugin.kind === 'guardrail') await engine.add(plugin);
  }
  const providerTypes = registered?.providerTypes ?? new Set(all.filter((plugin) => plugin.kind === 'provider').map((plugin) => plugin.name));
  const problems: ConfigProblem[] = [];
  for (const [index, provider] of (config.providers ?? []).entries()) {
    if (!checked(`providers[${index}]`)) continue;
    if (!providerTypes.has(String(provider.type))) {
      const path = `providers[${index}].type`;
      problems.push({ path, message: `The field '${path}' names the provider type '${String(provider.type)}', which has no adapter; known: ${[...providerTypes].join(', ')}.` });
    }
  }
  for (const [index, route] of (config.routes ?? []).entries()) {
    if (!checked(`routes[${index}]`)) continue;
    const policy = (route.config as { policy?: unknown } | undefined)?.policy;
    if (policy !== undefined) collect(problems, `routes[${index}].`, () => validateRoutePolicy(structuredClone(policy), engine));
  }
  for (const [index, application] of (config.applications ?? []).entries()) {
    if (!checked(`applications[${index}]`)) continue;
    if (application.policy !== undefined) collect(problems, `applications[${index}].policy.`, () => validatePolicy(structuredClone(application.policy), engine));
  }
  return problems;
}
