// Origin patterns for outbound URLs an operator allows: `*`, or `scheme://host[:port][/path]` with `*.` subdomain and `:*` port wildcards.
import { Errors } from '../errors/error-registry.js';
import { canonicalAddress } from './public-address.js';

/** One compiled pattern. */
interface UrlPattern {
  /** The pattern as written, for messages. */
  source: string;
  /** Undefined for `*` (any http or https URL). */
  protocol?: string;
  /** Lower-case host (IP literals canonical, IPv6 without brackets); for `*.x` the suffix `.x`. */
  host?: string;
  wildcardHost?: boolean;
  /** The port as a string ('' for the scheme's default), or '*' for any. */
  port?: string;
  /** A path prefix matched at segment boundaries, or '' for any path. */
  path?: string;
  /** The host is an IP literal: the pattern names that address explicitly. */
  address?: string;
}

/** How a URL matched the patterns. */
export interface UrlPatternMatch {
  /** The URL's IP literal is named by an exact pattern, so it may be reached even if not public. */
  explicitAddress: boolean;
}

const PATTERN = /^(https?):\/\/(\*\.)?(\[[0-9a-fA-F:.]+\]|[^/:[\]*]+)(?::(\d{1,5}|\*))?(\/[^?#]*)?$/;

function compile(source: string): UrlPattern {
  if (source === '*') return { source };
  const parts = PATTERN.exec(source);
  if (!parts) throw Errors.configInvalid([`responses.allowExternalMcpUrls has ${JSON.stringify(source)}, which is not '*' or scheme://host[:port][/path]`]);
  const [, scheme, wildcard, rawHost, rawPort, rawPath] = parts;
  let parsed: URL;
  try {
    parsed = new URL(`${scheme}://${rawHost}${rawPort && rawPort !== '*' ? `:${rawPort}` : ''}/`);
  } catch {
    throw Errors.configInvalid([`responses.allowExternalMcpUrls has ${JSON.stringify(source)}, whose host is not valid`]);
  }
  const hostname = parsed.hostname;
  const address = wildcard ? undefined : canonicalAddress(hostname);
  const host = address ?? hostname;
  return {
    source,
    protocol: `${scheme}:`,
    host: wildcard ? `.${host}` : host,
    wildcardHost: Boolean(wildcard),
    port: rawPort === '*' ? '*' : parsed.port,
    path: (rawPath ?? '').replace(/\/+$/, ''),
    address,
  };
}

function matches(pattern: UrlPattern, url: URL, urlAddress: string | undefined): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (pattern.protocol === undefined) return true;
  if (url.protocol !== pattern.protocol) return false;
  if (pattern.port !== '*' && url.port !== pattern.port) return false;
  const host = urlAddress ?? url.hostname.toLowerCase().replace(/\.$/, '');
  if (pattern.wildcardHost ? !host.endsWith(pattern.host!) : host !== pattern.host) return false;
  return pattern.path === '' || url.pathname === pattern.path || url.pathname.startsWith(`${pattern.path}/`);
}

/**
 * A compiled list of URL patterns. Syntax of one entry:
 * - `*`: any http or https URL;
 * - `https://tools.example.com`: that origin (the scheme's default port), any path;
 * - `https://*.example.com`: any subdomain of example.com (not example.com itself);
 * - `http://10.0.0.5:8080`: that port (`:*` for any port); an IP literal names that address explicitly;
 * - `https://tools.example.com/mcp`: only paths at or under `/mcp`.
 * Query strings and fragments are not part of patterns.
 */
export class UrlPatternList {
  private readonly patterns: UrlPattern[];

  /** Throws `config_invalid` for a malformed entry. */
  constructor(sources: readonly string[]) {
    this.patterns = sources.map(compile);
  }

  /** True when the list is empty. */
  get empty(): boolean {
    return this.patterns.length === 0;
  }

  /** How the URL matches, or undefined when no pattern matches it. */
  match(url: URL): UrlPatternMatch | undefined {
    const urlAddress = canonicalAddress(url.hostname);
    let found: UrlPatternMatch | undefined;
    for (const pattern of this.patterns) {
      if (!matches(pattern, url, urlAddress)) continue;
      if (urlAddress !== undefined && pattern.address === urlAddress) return { explicitAddress: true };
      found = { explicitAddress: false };
    }
    return found;
  }
}
