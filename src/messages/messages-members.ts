// Top-level members of a Messages request beyond the prompt: refused by name, carried to Anthropic providers, or translated.
import { Errors } from '../errors/error-registry.js';
import type { Candidate } from '../traffic/model-request-context.js';

/** A member the gateway cannot honour on any route, when the request sets it (`asks`), and why. */
interface UnservedMember {
  name: string;
  asks: (value: unknown) => boolean;
  why: string;
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Members that change what the model does, or what answers it, in ways no route behind the gateway can keep: refused
 * with 400 naming the member rather than dropped (dropping them answers another request than the one sent). Their
 * empty forms (`null`, `[]`, `bill_to: "self"`, `speed: "standard"`) ask nothing and pass.
 */
const UNSERVED_MEMBERS: readonly UnservedMember[] = [
  { name: 'inference_geo', asks: isSet, why: "the region a model runs in is the route's provider's, not chosen per request" },
  { name: 'container', asks: isSet, why: 'containers hold the state of code execution and skills, server tools this gateway does not run' },
  {
    name: 'mcp_servers',
    asks: (value) => isSet(value) && !(Array.isArray(value) && value.length === 0),
    why: "Anthropic's MCP connector is not offered through this gateway; send the tools in tools, or use /v1/responses, where the gateway runs MCP tools itself",
  },
  { name: 'compaction', asks: isSet, why: 'a compaction request answers a compaction block, which this gateway does not translate' },
  { name: 'thread', asks: isSet, why: 'server-held conversations are not kept by this gateway; send the whole conversation in messages' },
  { name: 'fallbacks', asks: isSet, why: "fallback models are the route's (fallback_enabled), not chosen per request" },
  { name: 'fallback_credit_token', asks: isSet, why: 'the refusal details such a token comes in are not relayed by this gateway, so it cannot be redeemed through it' },
  {
    name: 'billing_policy',
    asks: (value) => isSet(value) && !(typeof value === 'object' && (value as { bill_to?: unknown }).bill_to === 'self'),
    why: "billing another party is not supported: the gateway's budgets and costs count this application's spend",
  },
  { name: 'speed', asks: (value) => value === 'fast', why: "fast mode is billed at a price the gateway's price table does not hold, so budgets would undercount it" },
];

/** The JSON Schema of the members checked here, for the request schema (shape only; meaning is checked by {@link checkMessagesMembers}). */
export const MEMBER_SCHEMAS = {
  service_tier: { enum: ['auto', 'standard_only', null] },
  speed: { enum: ['standard', 'fast', null] },
  context_management: { type: ['object', 'null'] },
  mcp_servers: { type: ['array', 'null'] },
  output_format: {
    type: ['object', 'null'],
    required: ['type', 'schema'],
    additionalProperties: false,
    properties: { type: { const: 'json_schema' }, schema: { type: 'object' } },
  },
} as const;

/**
 * Refuses (400 `invalid_value` naming the member) the first member of {@link UNSERVED_MEMBERS} the request sets, and a
 * deprecated `output_format` sent together with `output_config.format` (two formats for one answer).
 */
export function checkMessagesMembers(body: Record<string, unknown>): void {
  for (const member of UNSERVED_MEMBERS) {
    if (member.asks(body[member.name])) throw Errors.validation([`${member.name} is not taken: ${member.why}.`], { param: member.name });
  }
  const config = body.output_config as { format?: unknown } | undefined;
  if (isSet(body.output_format) && isSet(config?.format)) {
    throw Errors.validation(['output_format is the deprecated form of output_config.format: send one of them.'], { param: 'output_format' });
  }
}

/**
 * Refuses a `context_management` (Anthropic's server-side context editing) when a model the request may reach is not on
 * an `anthropic` provider: only Anthropic edits the context, and the others would answer the unedited conversation.
 */
export function checkContextManagement(request: { context_management?: unknown }, candidates: readonly Candidate[]): void {
  if (!isSet(request.context_management)) return;
  const other = candidates.find((candidate) => candidate.provider.type !== 'anthropic');
  if (other) {
    throw Errors.validation([
      `context_management is only taken on routes whose models are all on Anthropic providers; this request may go to ${other.provider.name} (${other.provider.type}), which would answer without the edits.`,
    ], { param: 'context_management' });
  }
}
