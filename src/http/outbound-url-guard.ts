// Guards outbound requests to URLs a caller chose: an operator's pattern list, public addresses only (checked on the address connected to), no cross-origin redirects.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, fetch as undiciFetch } from 'undici';
import { addressRange, canonicalAddress } from './public-address.js';
import { UrlPatternList } from './url-patterns.js';

/** A refused outbound URL; its message is the gateway's own and safe to show to the caller. */
export class OutboundUrlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundUrlRefused';
  }
}

/** The fetch signature the MCP SDK's transports accept. */
export type GuardedFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup for net.connect that fails when any address of the name is not public, so the address checked is the one connected to. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => addressRange(entry.address) !== 'unicast');
    if (refused) {
      return callback(Object.assign(new OutboundUrlRefused(`The host ${hostname} resolves to a ${addressRange(refused.address)} address, which is not allowed.`), { code: 'EADDRNOTALLOWED' }), []);
    }
    if (addresses.length === 0) return callback(Object.assign(new Error(`The host ${hostname} has no address.`), { code: 'ENOTFOUND' }), []);
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/**
 * Decides which caller-chosen URLs the gateway may fetch, and fetches them safely:
 * - the URL must match the operator's {@link UrlPatternList};
 * - an IP literal must be public unless a pattern names that address exactly;
 * - a host name must resolve to public addresses only, checked in the connection's own DNS lookup (no TOCTOU);
 * - redirects are never followed by this fetch (a caller may follow them through it again, which re-checks each hop).
 * Build it once per gateway; {@link close} releases its connection pool.
 */
export class OutboundUrlGuard {
  private readonly patterns: UrlPatternList;
  private readonly agent: Agent;

  /** Throws `config_invalid` for a malformed pattern. */
  constructor(patterns: readonly string[]) {
    this.patterns = new UrlPatternList(patterns);
    this.agent = new Agent({ connect: { lookup: publicOnlyLookup as never } });
  }

  /** Why the URL may not be fetched, or undefined when it may (its host name's addresses are checked at connection). */
  refusal(url: URL): string | undefined {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs can be used';
    if (url.username || url.password) return 'URLs with credentials are not allowed; send them in headers';
    const match = this.patterns.match(url);
    if (!match) return "the URL does not match the gateway's responses.allowExternalMcpUrls";
    const address = canonicalAddress(url.hostname);
    if (address !== undefined && addressRange(address) !== 'unicast' && !match.explicitAddress) {
      return `the address is ${addressRange(address)}, which is allowed only when responses.allowExternalMcpUrls names it explicitly`;
    }
    return undefined;
  }

  /** A fetch that applies {@link refusal} to each URL, connects only to allowed addresses, and leaves redirects unfollowed. */
  readonly fetch: GuardedFetch = async (url, init) => {
    const target = new URL(url);
    const refused = this.refusal(target);
    if (refused) throw new OutboundUrlRefused(`The URL is not allowed: ${refused}.`);
    const response = await undiciFetch(target, { ...(init as object), redirect: 'manual', dispatcher: this.agent });
    return response as unknown as Response;
  };

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}
