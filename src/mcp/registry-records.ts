// MCP registry records: schema, stored shape with the sealed token, and the answer shape with request_url, a masked token and a masked URL.
import { descriptionSchema, MAX_URL_LENGTH, nameSchema, serverSetFields, urlSchema } from '../admin/schemas/common-schemas.js';
import type { ResourceRecord } from '../admin/resource-collection.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { maskSecret, SEALED_SECRET_MASK } from '../secrets/mask-secret.js';
import { maskUrlCredentials } from '../secrets/url-credentials.js';
import { headerSecretSchema } from '../validation/header-safe-text.js';

/** JSON Schema of a registry body; the token (sent as the tool server's Bearer) is bounded and header-safe. */
export const registrySchema = {
  type: 'object',
  required: ['name', 'url'],
  additionalProperties: false,
  properties: {
    name: nameSchema,
    url: urlSchema,
    description: descriptionSchema,
    authorization_token: headerSecretSchema,
    request_url: { type: 'string', maxLength: MAX_URL_LENGTH },
    ...serverSetFields,
  },
} as const;

/** Registry fields stored sealed: an update that leaves them out keeps the stored form, which the schema does not describe. */
export const REGISTRY_SEALED_FIELDS = ['authorization_token'] as const;

/** JSON Schema of a tool toggle body: `enabled` and nothing else. */
export const toolToggleSchema = {
  type: 'object',
  required: ['enabled'],
  additionalProperties: false,
  properties: { enabled: { type: 'boolean' } },
} as const;

/** The fields of a registry, as the spec's table lists them. */
export const REGISTRY_FIELDS = ['name', 'url', 'request_url', 'description', 'authorization_token'] as const;

/** A stored registry: the token sealed (encrypted when GATEWAY_SECRET is set). */
export interface RegistryRecord extends ResourceRecord {
  url: string;
  description?: string;
  authorization_token?: string;
}

/** The registry request URL: `{base_url}/v1/mcp/<name>`. */
export function requestUrl(baseUrl: string, name: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/mcp/${encodeURIComponent(name)}`;
}

/** The registry as answers show it: request_url generated, token and the credentials inside `url` masked. */
export function presentRegistry(record: RegistryRecord, box: SecretBox, baseUrl: string): Record<string, unknown> {
  let token: string | null = null;
  if (typeof record.authorization_token === 'string') {
    try {
      token = maskSecret(box.open(record.authorization_token));
    } catch {
      token = SEALED_SECRET_MASK;
    }
  }
  return {
    name: record.name,
    url: maskUrlCredentials(record.url),
    request_url: requestUrl(baseUrl, record.name),
    description: record.description ?? null,
    authorization_token: token,
    created_at: record.created_at,
    modified_at: record.modified_at,
    created_by: record.created_by,
    modified_by: record.modified_by,
  };
}
