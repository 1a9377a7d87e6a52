// The Azure OpenAI provider adapter: OpenAI's wire format behind deployment URLs.
import { defineProvider } from '../../../src/plugins/plugin-api.js';
import { openaiBody } from '../openai/request.js';
import { commonErrorMessage } from '../shared/openai-chunks.js';
import { azureHeaders, azureUrl } from './api.js';

/**
 * Azure OpenAI. Provider `config`: `resource` or `api_base`, `api_version` (default
 * `2024-10-21`, the latest GA version), `deployments` (model name → deployment name).
 * @example
 * { name: 'azure-east', type: 'azure', config: { resource: 'contoso', deployments: { 'gpt-4o': 'gpt4o-prod' } } }
 */
export default defineProvider({
  name: 'azure',
  description: 'Azure OpenAI deployments (OpenAI-compatible answers).',
  openaiCompatible: true,
  buildRequest(context) {
    const { url, headers } = azureHeaders(context, azureUrl(context));
    return { url, method: 'POST', headers, body: openaiBody(context) };
  },
  errorMessage: (_status, body) => commonErrorMessage(body),
});
