// Replaces `${NAME}` and `${NAME:-default}` in a parsed config's string values with environment variables; `$${` stays literal.

const REFERENCE = /\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** One reference to an environment variable that is not set (and has no default). */
export interface MissingVariable {
  /** Where it is, as `providers[0].api_keys[0].api_key`. */
  path: string;
  name: string;
}

function joinPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

function substitute(text: string, env: NodeJS.ProcessEnv, path: string, missing: MissingVariable[]): string {
  return text.replace(REFERENCE, (whole, escaped: string | undefined, name: string, fallback: string | undefined) => {
    if (escaped) return whole.slice(1);
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.push({ path, name });
    return '';
  });
}

/**
 * Answers a copy of `value` with every reference in its string values replaced (keys are left as written),
 * and the references that named an unset or empty variable. Values are never logged, only names and paths.
 * @example
 * resolveEnvReferences({ api_key: '${OPENAI_API_KEY}' }, process.env)
 */
export function resolveEnvReferences(value: unknown, env: NodeJS.ProcessEnv, path = '', missing: MissingVariable[] = []): { value: unknown; missing: MissingVariable[] } {
  if (typeof value === 'string') return { value: substitute(value, env, path, missing), missing };
  if (Array.isArray(value)) return { value: value.map((item, index) => resolveEnvReferences(item, env, joinPath(path, index), missing).value), missing };
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = resolveEnvReferences(item, env, joinPath(path, key), missing).value;
    return { value: copy, missing };
  }
  return { value, missing };
}
