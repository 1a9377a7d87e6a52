// Decides where each `mcp` tool of a Responses request leads: one of the gateway's registries, or an external URL the operator allows; anything else is refused before any request.
import { Errors, isGatewayError } from '../errors/error-registry.js';
import type { OutboundUrlGuard } from '../http/outbound-url-guard.js';
import type { RegistryService } from '../mcp/registry-service.js';
import type { McpToolEntry } from './responses-types.js';

/** Where an `mcp` tool leads. */
export type McpTarget = { kind: 'registry'; registry: string; path: string } | { kind: 'external'; url: URL };

/** What deciding needs. */
export interface TargetDeps {
  registries: RegistryService;
  /** Origins at which this gateway is reached (configured base URL, the request's own origin). */
  ownOrigins: string[];
  /** Paths the gateway is mounted under at those origins (`''` at the root, `/ai` for `app.use('/ai', …)`). Default `['']`. */
  ownPrefixes?: string[];
  /** The operator's allow-list of external MCP URLs; absent when none is allowed. */
  guard?: OutboundUrlGuard;
}

/** A stable name of the target, bound into approval ids. */
export function targetKey(target: McpTarget): string {
  return target.kind === 'registry' ? `registry:${target.registry}` : `url:${target.url.href}`;
}

async function registryExists(registries: RegistryService, name: string): Promise<boolean> {
  try {
    await registries.registry(name);
    return true;
  } catch (error) {
    if (isGatewayError(error) && error.statusCode === 404) return false;
    throw error;
  }
}

/**
 * The target of one entry (at `tools[index]`). A `server_url` must be a registry's request URL
 * (`{base_url}/v1/mcp/<name>`), or be allowed by `responses.allowExternalMcpUrls`; without one,
 * `server_label` must name a registry. Throws a 400 otherwise.
 */
export async function targetOf(entry: McpToolEntry, index: number, deps: TargetDeps): Promise<McpTarget> {
  if (entry.server_url === undefined) {
    if (await registryExists(deps.registries, entry.server_label)) return { kind: 'registry', registry: entry.server_label, path: `/v1/mcp/${encodeURIComponent(entry.server_label)}` };
    throw Errors.validation([`tools[${index}] has no server_url, and its server_label names no MCP registry of this gateway.`], { param: `tools[${index}].server_label` });
  }
  const param = `tools[${index}].server_url`;
  let url: URL;
  try {
    url = new URL(entry.server_url);
  } catch {
    throw Errors.validation([`The field '${param}' is not a valid URL.`], { param });
  }
  const own = /^(.*)\/v1\/mcp\/([^/]+)\/?$/.exec(url.pathname);
  if (own && (deps.ownPrefixes ?? ['']).includes(own[1]!) && deps.ownOrigins.includes(url.origin) && !url.username && !url.password) {
    let name: string;
    try {
      name = decodeURIComponent(own[2]!);
    } catch {
      throw Errors.validation([`The field '${param}' names no MCP registry of this gateway.`], { param });
    }
    if (!(await registryExists(deps.registries, name))) throw Errors.validation([`The field '${param}' names no MCP registry of this gateway.`], { param });
    return { kind: 'registry', registry: name, path: `/v1/mcp/${own[2]!}` };
  }
  const refused = deps.guard ? deps.guard.refusal(url) : 'only the request_url of an MCP registry of this gateway ({base_url}/v1/mcp/<name>) is allowed; other URLs need the operator to list them in responses.allowExternalMcpUrls';
  if (refused) throw Errors.validation([`The field '${param}' is not allowed: ${refused}.`], { param });
  return { kind: 'external', url };
}

/** The targets of every entry, in order; the first refused entry throws. */
export async function targetsOf(entries: Array<{ entry: McpToolEntry; index: number }>, deps: TargetDeps): Promise<McpTarget[]> {
  const targets: McpTarget[] = [];
  for (const { entry, index } of entries) targets.push(await targetOf(entry, index, deps));
  return targets;
}
