// JSON Schema of a guardrail policy, shared by applications and route overrides; processor options are checked by each plugin.

import { requiredShortTextSchema } from './common-schemas.js';

/** DLP strategies, as the spec's state table lists them. */
export const DLP_STRATEGIES = ['mask', 'redact', 'replace', 'inspect', 'reject'] as const;

const processorEntrySchema = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean', default: true },
    threshold: { type: 'number', minimum: 0, maximum: 1 },
    apply_to: { type: 'array', items: { enum: ['input', 'output'] }, minItems: 1, uniqueItems: true, default: ['input', 'output'] },
  },
} as const;

/** The properties of a policy; the route override adds `enabled`. */
export const policyProperties = {
  mode: { enum: ['inspect', 'reject'], default: 'inspect' },
  processors: { type: 'object', additionalProperties: processorEntrySchema, default: {} },
  dlp: {
    type: 'object',
    additionalProperties: false,
    properties: {
      strategy: { enum: DLP_STRATEGIES },
      info_types: { type: 'array', items: requiredShortTextSchema, maxItems: 256 },
    },
  },
  on_error: { enum: ['fail_open', 'fail_closed'], default: 'fail_closed' },
  timeout_ms: { type: 'integer', minimum: 1, maximum: 60000, default: 2000 },
  /** Content the input checks cannot read (images, audio, PDFs and other binary files): passed unread, or refused. */
  unreadable_content: { enum: ['allow', 'reject'], default: 'allow' },
  /** Read the text of PDFs sent inline, for input checks (in a worker thread, within `timeout_ms` and fixed bounds). */
  read_pdf_text: { type: 'boolean', default: false },
} as const;

/** An application policy. */
export const policySchema = {
  type: 'object',
  additionalProperties: false,
  properties: policyProperties,
} as const;

/** A route's policy override: a policy plus `enabled`. */
export const routePolicySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { enabled: { type: 'boolean', default: false }, ...policyProperties },
} as const;
