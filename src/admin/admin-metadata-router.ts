// Admin endpoints that describe the caller and the gateway to clients such as the admin console: who am I, the policy schemas, the registered plugins.
import { Router } from 'express';
import { adminOf } from './admin-auth.js';
import type { AdminServices } from './admin-services.js';
import { policySchema, routePolicySchema } from './schemas/policy-schema.js';

/**
 * `GET /whoami` (the key's name and role), `GET /schemas/policy` (the JSON Schemas the policy endpoints validate
 * with, and each guardrail processor's options schema), `GET /plugins` (registered plugins by kind).
 * Mounted under /v1/admin; every role may read them.
 */
export function adminMetadataRouter(services: AdminServices): Router {
  const router = Router();
  const { plugins } = services;

  router.get('/whoami', function whoAmI(req, res) {
    const { name, role } = adminOf(req);
    res.json({ name, role });
  });
  router.get('/schemas/policy', function policySchemas(_req, res) {
    const processors = plugins.ofKind('guardrail').map((plugin) => ({
      name: plugin.name,
      default_threshold: plugin.defaultThreshold,
      options_schema: plugin.optionsSchema ?? null,
    }));
    res.json({ application: policySchema, route: routePolicySchema, processors });
  });
  router.get('/plugins', function listPlugins(_req, res) {
    res.json({
      guardrail: plugins.ofKind('guardrail').map((plugin) => plugin.name),
      provider: plugins.ofKind('provider').map((plugin) => plugin.name),
      storage: plugins.ofKind('storage').map((plugin) => plugin.name),
    });
  });
  return router;
}
