// The upstream body of an OpenAI-format request: JSON text, or a multipart form for uploads (audio transcriptions).
import type { ProviderRequestContext } from '../../../src/plugins/plugin-api.js';

/** The client's form fields and file as a FormData: strings as they came, arrays as repeated `name[]` fields, the file with its name. */
export function formBody(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : 'upload');
    else if (Array.isArray(value)) for (const item of value) form.append(`${name}[]`, String(item));
    else if (value !== undefined && value !== null) form.append(name, String(value));
  }
  return form;
}

/**
 * Sets the headers that depend on the body: a form leaves `content-type` to the HTTP client (it carries the
 * boundary); endpoints that answer audio or images accept any type.
 */
export function bodyHeaders(context: ProviderRequestContext, headers: Record<string, string>, body: string | FormData): Record<string, string> {
  if (typeof body !== 'string') delete headers['content-type'];
  if (!context.stream && (context.endpoint === 'speech' || context.endpoint === 'images' || context.endpoint === 'transcriptions')) headers.accept = '*/*';
  return headers;
}
