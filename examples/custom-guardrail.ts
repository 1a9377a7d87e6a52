// A custom guardrail processor written as a user would, registered with register() and served at /v1/guardrail/<name>/apply.
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createGateway, defineGuardrail, errorMiddleware, memoryStorage } from '../src/index.js';

/** Options of the competitor-mention guardrail. */
export interface CompetitorOptions {
  competitors: string[];
}

/** Results of the competitor-mention guardrail. */
export interface CompetitorResults {
  mentions: string[];
  score: number;
}

/**
 * Flags text that names a competitor. The score is 1 when any competitor is named, else 0.
 * Register it with `gateway.register(competitorMentions)`; it is then served at
 * `POST /v1/guardrail/competitor_mentions/apply` and usable in policies, exactly like a built-in.
 */
export const competitorMentions = defineGuardrail<CompetitorOptions, CompetitorResults>({
  name: 'competitor_mentions',
  description: 'Flags text that names a competitor.',
  defaultThreshold: 0.5,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { competitors: { type: 'array', items: { type: 'string', minLength: 1 }, default: ['acme', 'globex'] } },
  },
  evaluate(text, { options, threshold }) {
    const lower = text.toLowerCase();
    const mentions = options.competitors.filter((name) => lower.includes(name.toLowerCase()));
    const score = mentions.length > 0 ? 1 : 0;
    return { results: { mentions, score }, flagged: score > threshold, triggered: mentions };
  },
});

// Run directly (`npx tsx examples/custom-guardrail.ts`) to serve it on its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const adminKey = process.env.GATEWAY_ADMIN_KEY ?? 'change-me-admin-key-0123456789';
  const gateway = createGateway({ storage: memoryStorage(), adminKeys: [{ key: adminKey, role: 'super_admin' }] });
  await gateway.register(competitorMentions);
  await gateway.ready;
  const app = express();
  app.use(gateway.router);
  app.use(errorMiddleware());
  const port = Number(process.env.PORT ?? 3001);
  app.listen(port, () => {
    console.log(`try: curl -s localhost:${port}/v1/guardrail/competitor_mentions/apply -H 'x-gateway-apikey: <admin key>' \\`);
    console.log(`       -H 'content-type: application/json' -d '{"input":{"text":"Acme is cheaper"}}'`);
  });
}
