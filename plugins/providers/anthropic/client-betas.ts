// The anthropic-beta header sent to Anthropic: the provider's configured betas, and those of the client's its allow-list takes.
import type { ProviderRequestContext } from '../../../src/plugins/plugin-api.js';

/** The form of one beta name, for the allow-list and the configured ones alike. */
const BETA_NAME = /^[a-z0-9-]{1,64}$/;
/** The most client betas sent on in one request. */
export const MAX_CLIENT_BETAS = 8;

/**
 * The client betas taken when a provider sets no `config.allowed_client_betas`: features of the model's own answer
 * (thinking between tool calls, tool arguments streamed unbuffered, leaner tool tokens, longer answers, the 1-hour
 * prompt cache). None lets the model reach anything (server tools, files, MCP servers, code execution), changes how
 * Anthropic authenticates the request, or changes its price beyond what the price table knows (the 1M-token context,
 * billed at a long-context price above 200K input tokens, would let budgets undercount); those must be allowed by name.
 */
export const DEFAULT_ALLOWED_CLIENT_BETAS: readonly string[] = [
  'interleaved-thinking-2025-05-14',
  'fine-grained-tool-streaming-2025-05-14',
  'token-efficient-tools-2025-02-19',
  'output-128k-2025-02-19',
  'extended-cache-ttl-2025-04-11',
  'prompt-caching-2024-07-31',
];

/** The betas of `config.allowed_client_betas` (names of another form ignored), else the default list. */
function allowedBetas(context: ProviderRequestContext): readonly string[] {
  const configured = context.provider.config.allowed_client_betas;
  if (!Array.isArray(configured)) return DEFAULT_ALLOWED_CLIENT_BETAS;
  return configured.filter((name): name is string => typeof name === 'string' && BETA_NAME.test(name));
}

/** The comma-separated names of a configured `anthropic_beta`, trimmed, empty ones left out. */
function configuredBetas(context: ProviderRequestContext): string[] {
  const value = context.provider.config.anthropic_beta;
  if (typeof value !== 'string') return [];
  return value.split(',').map((name) => name.trim()).filter((name) => name !== '');
}

/**
 * The `anthropic-beta` header value: `config.anthropic_beta` as configured, then each client beta the provider allows
 * (`config.allowed_client_betas`, else {@link DEFAULT_ALLOWED_CLIENT_BETAS}) that is of beta form, at most
 * {@link MAX_CLIENT_BETAS} of them, no name twice. Client betas not allowed are left out. Undefined when there is none.
 */
export function anthropicBetaHeader(context: ProviderRequestContext): string | undefined {
  const names = configuredBetas(context);
  const client = context.clientBetas ?? [];
  if (client.length > 0) {
    const allowed = allowedBetas(context);
    let taken = 0;
    for (const name of client) {
      if (taken >= MAX_CLIENT_BETAS) break;
      if (!BETA_NAME.test(name) || !allowed.includes(name) || names.includes(name)) continue;
      names.push(name);
      taken++;
    }
  }
  return names.length > 0 ? names.join(',') : undefined;
}
