// The console's only way to the gateway: fetch with the admin key from sessionStorage in x-api-key, errors in OpenAI's shape.

const KEY_SLOT = 'gateway.console.adminKey';

/** The admin key of this tab's session, if signed in. Kept in sessionStorage only, never in a URL. */
export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_SLOT);
}

/** Keeps the admin key for this tab's session. */
export function storeKey(key: string): void {
  sessionStorage.setItem(KEY_SLOT, key);
}

/** Forgets the admin key. */
export function forgetKey(): void {
  sessionStorage.removeItem(KEY_SLOT);
}

/** An error answered by the gateway: its message, code and the field (`param`) it is about. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
    readonly param: string | null,
  ) {
    super(message);
  }
}

/** The gateway's /v1/ base, relative to the page (served at <base>/console/). */
const V1 = new URL('../v1/', location.href);

/** A raw answer: status and body text, as the gateway sent them. */
export interface RawAnswer {
  status: number;
  text: string;
}

/** Sends a request to the gateway and answers the raw status and text. */
export async function send(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; key?: string } = {}): Promise<RawAnswer> {
  // The admin key goes in x-api-key unless the caller passes its own headers for another endpoint (key '').
  const key = init.key ?? storedKey() ?? '';
  const headers: Record<string, string> = { ...(key === '' ? {} : { 'x-api-key': key }), ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(new URL(path.replace(/^\//, ''), V1), {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  });
  return { status: response.status, text: await response.text() };
}

/** Sends a request and answers the parsed JSON; throws {@link ApiError} on a status of 400 or more. */
export async function api<T>(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; key?: string } = {}): Promise<T> {
  const { status, text } = await send(method, path, init);
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (status >= 400) {
    const error = (parsed as { error?: { message?: unknown; code?: unknown; param?: unknown } } | null)?.error;
    throw new ApiError(
      typeof error?.message === 'string' ? error.message : `The gateway answered ${status}.`,
      status,
      typeof error?.code === 'string' ? error.code : null,
      typeof error?.param === 'string' ? error.param : null,
    );
  }
  return parsed as T;
}

/** Encodes one path segment. */
export const seg = (value: string): string => encodeURIComponent(value);
