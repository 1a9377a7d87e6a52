// Sample bodies for every admin resource, and the table of admin endpoints the auth and validation tests walk.

export const PROVIDER_SECRET = 'sk-test-provider-secret-value-9876wxyz';

export const sampleProvider = (name = 'openai-main'): Record<string, unknown> => ({
  name,
  type: 'openai',
  config: { api_base: 'http://127.0.0.1:9/v1', models: ['gpt-4o-mini'] },
  api_keys: [{ api_key_secret_name: 'primary', api_key: PROVIDER_SECRET }],
});

export const sampleRoute = (name = 'chat-route', provider = 'openai-main'): Record<string, unknown> => ({
  name,
  type: 'chat',
  models: [{ name: 'gpt-4o-mini', provider, weight: 1 }],
});

export const sampleTemplate = (name = 'inspect-pii'): Record<string, unknown> => ({
  name,
  type: 'dlp',
  description: 'Inspects PII',
  config: { info_types: ['EMAIL_ADDRESS'] },
});

export const sampleGateway = (name = 'edge'): Record<string, unknown> => ({ name, type: 'standard', config: {} });

export const sampleApplication = (name = 'shop'): Record<string, unknown> => ({ name, description: 'Web shop' });

export const sampleKey = (): Record<string, unknown> => ({ api_key: 'sk-namespaced-secret-1234abcd', header_key: 'api-key' });

/** One admin endpoint: how to call it, and whether it changes state. */
export interface EndpointCase {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  body?: Record<string, unknown>;
  namespace?: boolean;
}

/** Every admin endpoint, with paths that exist after `seedAll()`. */
export const ENDPOINTS: EndpointCase[] = [
  { method: 'get', path: '/v1/admin/templates' },
  { method: 'post', path: '/v1/admin/templates/new-template', body: sampleTemplate('new-template') },
  { method: 'get', path: '/v1/admin/templates/inspect-pii' },
  { method: 'put', path: '/v1/admin/templates/inspect-pii', body: { description: 'changed' } },
  { method: 'delete', path: '/v1/admin/templates/inspect-pii' },
  { method: 'get', path: '/v1/admin/gateways' },
  { method: 'post', path: '/v1/admin/gateways', body: sampleGateway('new-gateway') },
  { method: 'get', path: '/v1/admin/gateways/edge' },
  { method: 'put', path: '/v1/admin/gateways/edge', body: { type: 'changed' } },
  { method: 'delete', path: '/v1/admin/gateways/edge' },
  { method: 'get', path: '/v1/admin/providers' },
  { method: 'post', path: '/v1/admin/providers', body: sampleProvider('new-provider') },
  { method: 'get', path: '/v1/admin/providers/openai-main' },
  { method: 'put', path: '/v1/admin/providers/openai-main', body: { enabled: false } },
  { method: 'delete', path: '/v1/admin/providers/openai-main' },
  { method: 'get', path: '/v1/admin/providers/openai-main/keys', namespace: true },
  { method: 'post', path: '/v1/admin/providers/openai-main/keys/extra', body: sampleKey(), namespace: true },
  { method: 'get', path: '/v1/admin/providers/openai-main/keys/team-key', namespace: true },
  { method: 'put', path: '/v1/admin/providers/openai-main/keys/team-key', body: { enabled: false }, namespace: true },
  { method: 'delete', path: '/v1/admin/providers/openai-main/keys/team-key', namespace: true },
  { method: 'get', path: '/v1/admin/routes' },
  { method: 'post', path: '/v1/admin/routes', body: sampleRoute('new-route') },
  { method: 'get', path: '/v1/admin/routes/chat-route' },
  { method: 'put', path: '/v1/admin/routes/chat-route', body: { enabled: false } },
  { method: 'delete', path: '/v1/admin/routes/chat-route' },
  { method: 'get', path: '/v1/admin/applications' },
  { method: 'post', path: '/v1/admin/applications', body: sampleApplication('new-app') },
  { method: 'get', path: '/v1/admin/applications/shop' },
  { method: 'put', path: '/v1/admin/applications/shop', body: { description: 'changed' } },
  { method: 'delete', path: '/v1/admin/applications/shop' },
  { method: 'post', path: '/v1/admin/applications/shop/keys', body: {} },
  { method: 'get', path: '/v1/admin/applications/shop/keys' },
  { method: 'get', path: '/v1/admin/applications/shop/policy' },
  { method: 'put', path: '/v1/admin/applications/shop/policy', body: { mode: 'reject' } },
];
