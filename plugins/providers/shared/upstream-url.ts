// Base URL, path joining and API key placement shared by the provider adapters.
import { Errors, type ProviderRequestContext } from '../../../src/plugins/plugin-api.js';

/** Where a provider puts the key when the key record names no header and no query parameter. */
export interface DefaultKeyPlacement {
  /** The header name, e.g. `Authorization`, `api-key`, `x-api-key`. */
  header: string;
  /** Text before the key in that header, e.g. `Bearer `. Not used for a custom `header_key`. */
  prefix?: string;
}

/** A string member of the provider's `config`, or undefined. */
export function configString(context: ProviderRequestContext, key: string): string | undefined {
  const value = context.provider.config[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** `config.api_base` when set, else `fallback`; without trailing slashes either way. */
export function baseUrl(context: ProviderRequestContext, fallback: string): string {
  return (configString(context, 'api_base') ?? fallback).replace(/\/+$/, '');
}

/**
 * What may not appear in a name put into a URL path: dot segments, separators (raw or encoded), control characters and
 * lone surrogates (with the `u` flag, `\ud800-\udfff` matches only unpaired ones, which have no UTF-8 form).
 */
const UNSAFE_PATH_NAME = /^\.{1,2}$|\.\.|[/\\\u0000-\u001f\u007f\ud800-\udfff]|%(?:2e|2f|5c)/iu;

/**
 * A client-chosen name (a model or deployment) as one URL path segment, encoded. A name that could
 * change the path once normalised (`..`, `/`, `\`, `%2F`, control characters) is refused with 400
 * naming `param`, before any request is built, so a stored key is never sent to another path.
 * @example
 * const url = `${base}/openai/deployments/${pathSegment(deployment)}/chat/completions`;
 */
export function pathSegment(name: string, param = 'model'): string {
  if (name === '' || UNSAFE_PATH_NAME.test(name)) {
    throw Errors.validation([`The ${param} name ${JSON.stringify(name)} cannot be used in a URL path.`], { param });
  }
  return encodeURIComponent(name);
}

/** Joins a base URL and a path with exactly one slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/**
 * Puts the API key where the key record says, and answers the final URL. Precedence:
 * `queryParamKey` (the raw key as that query parameter, no header), then `headerKey` (the raw key
 * in that header), then the provider's default header with its prefix. No key, no change.
 * @example
 * url = placeApiKey(url, headers, context.apiKey, { header: 'Authorization', prefix: 'Bearer ' });
 */
export function placeApiKey(
  url: string,
  headers: Record<string, string>,
  apiKey: ProviderRequestContext['apiKey'],
  defaults: DefaultKeyPlacement,
): string {
  if (!apiKey?.value) return url;
  if (apiKey.queryParamKey) return withQuery(url, { [apiKey.queryParamKey]: apiKey.value });
  if (apiKey.headerKey) headers[apiKey.headerKey] = apiKey.value;
  else headers[defaults.header] = `${defaults.prefix ?? ''}${apiKey.value}`;
  return url;
}

/** Adds (or replaces) query parameters, keeping those already in the URL. */
export function withQuery(url: string, params: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(params)) parsed.searchParams.set(name, value);
  return parsed.toString();
}

/** The JSON request headers every adapter sends; `Accept` follows the streaming flag. */
export function jsonHeaders(stream: boolean): Record<string, string> {
  return { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' };
}
