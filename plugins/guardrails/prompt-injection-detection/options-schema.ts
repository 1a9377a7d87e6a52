// The options schema promptinjectiondetection and toolinjectiondetection share: payload decoding and the scan limit.
import { DEFAULT_SCAN_LIMIT } from './normalise.js';

/** JSON Schema of `{ decode_payloads, scan_limit }`, with their defaults. */
export const INJECTION_OPTIONS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    decode_payloads: { type: 'boolean', default: true },
    scan_limit: { type: 'integer', minimum: 1000, maximum: 1_000_000, default: DEFAULT_SCAN_LIMIT },
  },
} as const;
