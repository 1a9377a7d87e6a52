// MCP session ids bound to their caller: the client sees the tool server's id with an HMAC of (application, registry, id), so a leaked id is useless elsewhere.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Errors } from '../errors/error-registry.js';

/** Longest `Mcp-Session-Id` a client may present (400 over it, before any HMAC is computed). */
export const MAX_SESSION_ID_LENGTH = 1024;

/** `.` and 22 characters of base64url: 128 bits of HMAC-SHA256. */
const TAG_LENGTH = 23;

/**
 * Binds a tool server's `Mcp-Session-Id` to the application and registry it was opened for, with no shared state:
 * the id the client sees is `<upstream id>.<tag>`, the tag an HMAC keyed from the gateway secret (GATEWAY_SECRET);
 * without one, a random key per process, so several replicas need the same secret. The same session always gets
 * the same id, and the ids stay visible ASCII as the MCP spec asks.
 * @example
 * const ids = new McpSessionIds(process.env.GATEWAY_SECRET);
 * const seen = ids.bind('app', 'github', upstreamId); // sent to the client
 * ids.unbind('app', 'github', seen); // upstreamId; another application or registry gets undefined
 */
export class McpSessionIds {
  private readonly key: Buffer;

  constructor(secret: string | undefined) {
    this.key = secret ? createHmac('sha256', 'gateway-mcp-session-ids').update(secret).digest() : randomBytes(32);
  }

  private tag(application: string, registry: string, upstream: string): string {
    return createHmac('sha256', this.key).update(JSON.stringify([application, registry, upstream])).digest().subarray(0, 16).toString('base64url');
  }

  /**
   * The id the client sees for the tool server's `upstream` id.
   * @throws `upstream_invalid_response` (502) when the bound id would be longer than {@link MAX_SESSION_ID_LENGTH}.
   */
  bind(application: string, registry: string, upstream: string): string {
    if (upstream.length + TAG_LENGTH > MAX_SESSION_ID_LENGTH) {
      throw Errors.mcpUpstreamInvalidResponse([registry, `its Mcp-Session-Id is longer than ${MAX_SESSION_ID_LENGTH - TAG_LENGTH} characters`]);
    }
    return `${upstream}.${this.tag(application, registry, upstream)}`;
  }

  /**
   * The tool server's id behind a presented one, when this gateway bound it for exactly this application and registry.
   * @throws `invalid_value` (400) for an id over {@link MAX_SESSION_ID_LENGTH}; `mcp_session_not_found` (404, as the
   * MCP spec answers an unknown session, so a client starts a new one) for any id not bound to this caller.
   */
  unbind(application: string, registry: string, presented: string): string {
    if (presented.length > MAX_SESSION_ID_LENGTH) throw Errors.validation([`The header Mcp-Session-Id is longer than ${MAX_SESSION_ID_LENGTH} characters.`], { param: 'Mcp-Session-Id' });
    const cut = presented.length - TAG_LENGTH;
    if (cut < 1 || presented[cut] !== '.') throw Errors.mcpSessionNotFound([registry]);
    const upstream = presented.slice(0, cut);
    const expected = Buffer.from(this.tag(application, registry, upstream));
    const given = Buffer.from(presented.slice(cut + 1));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw Errors.mcpSessionNotFound([registry]);
    return upstream;
  }
}
