// JSON Schema pieces shared by every admin resource: names, free-form config objects and server-set fields.

/** Resource names: letters, digits and `_ . : @ -`, starting with a letter or digit, at most 128 characters. */
export const nameSchema = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$' } as const;

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
