// What each kind of plugin must carry to be registered: the calls the gateway makes on it, checked before it is recorded.
import type { GatewayPlugin } from './plugin-types.js';

const GUARDRAIL_OPTIONAL_CALLS = ['setup', 'pipelineInput', 'transformsText'] as const;
const PROVIDER_OPTIONAL_CALLS = ['translateResponse', 'createStreamTranslator', 'errorMessage', 'retryAfterMs'] as const;

function notAFunction(plugin: object, names: readonly string[]): string | undefined {
  const record = plugin as Record<string, unknown>;
  return names.find((name) => record[name] !== undefined && typeof record[name] !== 'function');
}

/**
 * Why `plugin` cannot be registered as the kind it names, or undefined when it can: a guardrail needs `evaluate()`
 * and a `defaultThreshold` from 0 to 1, a provider `buildRequest()` and a boolean `openaiCompatible`, a storage
 * plugin `create()`; optional members, when given, must be what the gateway calls them as.
 * @example
 * pluginShapeProblem({ kind: 'guardrail', name: 'x', defaultThreshold: 0.5 }); // 'guardrail x has no evaluate()'
 */
export function pluginShapeProblem(plugin: GatewayPlugin): string | undefined {
  const record = plugin as unknown as Record<string, unknown>;
  if (plugin.dependencies !== undefined && !(Array.isArray(plugin.dependencies) && plugin.dependencies.every((name) => typeof name === 'string'))) {
    return `the dependencies of ${plugin.name} must be an array of plugin names`;
  }
  if (plugin.kind === 'guardrail') {
    if (typeof record.evaluate !== 'function') return `guardrail ${plugin.name} has no evaluate()`;
    const threshold = record.defaultThreshold;
    if (typeof threshold !== 'number') return `guardrail ${plugin.name} has no defaultThreshold`;
    if (!(threshold >= 0 && threshold <= 1)) return `the defaultThreshold of guardrail ${plugin.name} must be a number from 0 to 1`;
    const optionsSchema = record.optionsSchema;
    if (optionsSchema !== undefined && (optionsSchema === null || typeof optionsSchema !== 'object' || Array.isArray(optionsSchema))) {
      return `the optionsSchema of guardrail ${plugin.name} must be a JSON Schema object`;
    }
    const call = notAFunction(plugin, GUARDRAIL_OPTIONAL_CALLS);
    return call === undefined ? undefined : `the ${call} of guardrail ${plugin.name} must be a function`;
  }
  if (plugin.kind === 'provider') {
    if (typeof record.buildRequest !== 'function') return `provider ${plugin.name} has no buildRequest()`;
    if (typeof record.openaiCompatible !== 'boolean') return `the openaiCompatible of provider ${plugin.name} must be true or false`;
    const call = notAFunction(plugin, PROVIDER_OPTIONAL_CALLS);
    if (call !== undefined) return `the ${call} of provider ${plugin.name} must be a function`;
    const counter = record.countTokens as Record<string, unknown> | undefined;
    if (counter !== undefined && (counter === null || typeof counter.buildRequest !== 'function' || typeof counter.readCount !== 'function')) {
      return `the countTokens of provider ${plugin.name} must have buildRequest() and readCount()`;
    }
    return undefined;
  }
  return typeof record.create === 'function' ? undefined : `storage plugin ${plugin.name} has no create()`;
}
