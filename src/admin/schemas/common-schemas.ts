// JSON Schema pieces shared by every admin resource: names, bounded text, free-form config objects and server-set fields.

/** Resource names: letters, digits and `_ . : @ -`, starting with a letter or digit, at most 128 characters. */
export const nameSchema = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$' } as const;

/** The longest description (templates, applications, MCP registries), in characters. */
export const MAX_DESCRIPTION_LENGTH = 1024;

/** The longest short text field (a type, a group, an organization, a model or secret name), in characters. */
export const MAX_SHORT_TEXT_LENGTH = 256;

/** The longest URL (a provider's `api_base`, a registry's `url`), in characters. */
export const MAX_URL_LENGTH = 2048;

/** A description: free text of at most {@link MAX_DESCRIPTION_LENGTH} characters. */
export const descriptionSchema = { type: 'string', maxLength: MAX_DESCRIPTION_LENGTH } as const;

/** A short text field: at most {@link MAX_SHORT_TEXT_LENGTH} characters. */
export const shortTextSchema = { type: 'string', maxLength: MAX_SHORT_TEXT_LENGTH } as const;

/** A non-empty short text field. */
export const requiredShortTextSchema = { type: 'string', minLength: 1, maxLength: MAX_SHORT_TEXT_LENGTH } as const;

/** An http(s) URL of at most {@link MAX_URL_LENGTH} characters. */
export const urlSchema = { type: 'string', format: 'uri', maxLength: MAX_URL_LENGTH, pattern: '^https?://' } as const;

/** A free-form JSON object. */
export const objectSchema = { type: 'object' } as const;

/** Fields the server sets; accepted in bodies (clients echo what they read) but ignored. */
export const serverSetFields = {
  created_at: {},
  modified_at: {},
  created_by: {},
  modified_by: {},
} as const;

/** The server-set fields, by name. */
export const SERVER_SET_FIELDS = Object.keys(serverSetFields);
