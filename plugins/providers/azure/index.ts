// The Azure OpenAI provider adapter: OpenAI's wire format behind deployment URLs.
import { defineProvider } from '../../../src/plugins/plugin-api.js';
import { openaiBody } from '../openai/request.js';
import { bodyHeaders } from '../shared/form-body.js';
import { commonErrorMessage } from '../shared/openai-chunks.js';
import { azureHeaders, azureUrl } from './api.js';

/**
 * Azure OpenAI. Provider `config`: `resource` or `api_base`, `api_version` (default
 * `2024-10-21`, the latest GA version), `deployments` (model name → deployment name), `max_tokens_field` (as for openai).
 * @example
 * { name: 'azure-east', type: 'azure', config: { resource: 'contoso', deployments: { 'gpt-4o': 'gpt4o-prod' } } }
 */
export default defineProvider({
  name: 'azure',
  description: 'Azure OpenAI deployments (OpenAI-compatible answers).',
  openaiCompatible: true,
  buildRequest(context) {
    const { url, headers } = azureHeaders(context, azureUrl(context));
    const body = openaiBody(context);
    return { url, method: 'POST', headers: bodyHeaders(context, headers, body), body };
  },
  errorMessage: (_status, body) => commonErrorMessage(body),
});
