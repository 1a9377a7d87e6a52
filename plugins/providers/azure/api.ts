// Azure OpenAI's URL and headers: the deployment path, the api-version query and the `api-key` header.
import { Errors, type ModelEndpoint, type ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { isRecord } from '../shared/openai-chat.js';
import { baseUrl, configString, joinUrl, jsonHeaders, pathSegment, placeApiKey, withQuery } from '../shared/upstream-url.js';

/** The api-version sent when `config.api_version` is not set: the latest GA data-plane version. */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/** The operation path of each endpoint under the deployment. */
const OPERATIONS: Record<ModelEndpoint, string> = {
  chat: 'chat/completions',
  completions: 'completions',
  embeddings: 'embeddings',
};

/** `https://{config.resource}.openai.azure.com`, or `config.api_base`; throws `provider_misconfigured` without either. */
export function azureBase(context: ProviderRequestContext): string {
  const resource = configString(context, 'resource');
  if (configString(context, 'api_base')) return baseUrl(context, '');
  if (!resource) throw Errors.providerMisconfigured([context.provider.name, 'set config.resource or config.api_base']);
  if (!/^[A-Za-z0-9-]+$/.test(resource)) throw Errors.providerMisconfigured([context.provider.name, 'config.resource must be a resource name']);
  return `https://${resource}.openai.azure.com`;
}

/** The deployment of the model: `config.deployments[model]` when mapped, else the model name. */
export function azureDeployment(context: ProviderRequestContext): string {
  const deployments = context.provider.config.deployments;
  const mapped = isRecord(deployments) ? deployments[context.model] : undefined;
  return typeof mapped === 'string' && mapped.length > 0 ? mapped : context.model;
}

/**
 * `{base}/openai/deployments/{deployment}/{operation}?api-version={version}`. A model `suffix`
 * replaces the operation (`chat/completions`, `completions` or `embeddings`), keeping the deployment
 * path and the api-version. A deployment name that would change the path (`..`, `/`, `%2F`) is 400.
 */
export function azureUrl(context: ProviderRequestContext): string {
  const deployment = pathSegment(azureDeployment(context));
  const operation = context.suffix || OPERATIONS[context.endpoint];
  const url = joinUrl(`${azureBase(context)}/openai/deployments/${deployment}`, operation);
  return withQuery(url, { 'api-version': configString(context, 'api_version') ?? AZURE_DEFAULT_API_VERSION });
}

/** The headers, and the URL once the key is placed: `api-key: <key>` unless the key record says otherwise. */
export function azureHeaders(context: ProviderRequestContext, url: string): { url: string; headers: Record<string, string> } {
  const headers = jsonHeaders(context.stream);
  return { url: placeApiKey(url, headers, context.apiKey, { header: 'api-key' }), headers };
}
