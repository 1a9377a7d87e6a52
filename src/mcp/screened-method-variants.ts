// Client methods written as a variant of one the proxy screens (`Tools/Call`, ` tools/call`): refused, never forwarded unscreened.
import { CONTENT_METHODS } from './result-slots.js';

/** The methods whose requests or answers the proxy screens, in their one exact spelling. */
const SCREENED = new Set([...CONTENT_METHODS, 'tools/list']);

/**
 * The screened method `method` is a variant of (another letter case, white space around it), or undefined when it is
 * exactly one or none. MCP method names are exact, so an SDK never dispatches a variant; a lenient tool server might,
 * which would run a call the proxy never screened (a disabled tool, a result no policy read).
 */
export function screenedMethodVariant(method: string): string | undefined {
  if (SCREENED.has(method)) return undefined;
  const canonical = method.trim().toLowerCase();
  return SCREENED.has(canonical) ? canonical : undefined;
}
