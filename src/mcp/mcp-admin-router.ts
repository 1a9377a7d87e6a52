// Admin endpoints of MCP registries: CRUD with a sealed token, the Tools tab (scan on open, no writes), tool toggles and policies.
import { Router, type Request } from 'express';
import { adminOf } from '../admin/admin-auth.js';
import { unmaskedUrl } from '../admin/masked-urls.js';
import { objectBody, pathParam } from '../admin/request-body.js';
import { Errors } from '../errors/error-registry.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { publicBaseUrl } from '../http/public-base-url.js';
import { looksMasked } from '../secrets/mask-secret.js';
import { compileValidator } from '../validation/schema-validator.js';
import { presentRegistry, toolToggleSchema, type RegistryRecord } from './registry-records.js';
import type { RegistryService } from './registry-service.js';

const validateToggle = compileValidator<{ enabled: boolean }>(toolToggleSchema);

/**
 * `GET|POST /mcp/registries`, `GET|PUT|DELETE /mcp/registries/:name`, `GET /mcp/registries/:name/tools`,
 * `PUT /mcp/registries/:name/tools/:tool`, `GET|PUT /mcp/registries/:name/policies` (mounted under /v1/admin).
 */
export function mcpAdminRouter(service: RegistryService, configuredBaseUrl: string | undefined, engine?: GuardrailEngine): Router {
  const router = Router();
  const { registries, box } = service;
  const present = (req: Request, record: RegistryRecord) => presentRegistry(record, box, publicBaseUrl(req, configuredBaseUrl, '/v1/admin'));
  const seal = (record: RegistryRecord): RegistryRecord => {
    delete record.request_url;
    if (typeof record.authorization_token === 'string') record.authorization_token = box.seal(record.authorization_token);
    return record;
  };

  router.get('/mcp/registries', async function listRegistries(req, res) {
    res.json((await registries.list()).map((record) => present(req, record as RegistryRecord)));
  });
  router.post('/mcp/registries', async function createRegistry(req, res) {
    const body = objectBody(req);
    if (typeof body.authorization_token === 'string') refuseMaskedToken(body.authorization_token);
    const record = seal(registries.prepareCreate(body, adminOf(req).name) as RegistryRecord);
    unmaskedUrl(record.url, undefined, 'url');
    // The record and its tools' pins are stored together, or neither (a failed write undoes the pins); what a delete
    // cut short left under this name goes first, so the new registry inherits no pin or policy.
    await registries.insert(record, () => service.removeLeftovers(record.name), (write) => service.pinAround(record, write));
    res.status(201).json({ message: `MCP registry ${record.name} created`, request_url: present(req, record).request_url });
  });
  router.get('/mcp/registries/:name', async function getRegistry(req, res) {
    res.json(present(req, (await registries.get(pathParam(req, 'name'))) as RegistryRecord));
  });
  router.put('/mcp/registries/:name', async function updateRegistry(req, res) {
    const body = objectBody(req);
    const token = body.authorization_token;
    // Decided under the registry's lock against the record stored then (`old`), never one read before it.
    const record = await registries.update(pathParam(req, 'name'), body, adminOf(req).name, (old, next) => {
      const typed = next as RegistryRecord;
      // A URL sent back masked, as answers show it, keeps the stored one.
      typed.url = unmaskedUrl(typed.url, old.url, 'url') as string;
      // A token sent back masked keeps the stored one; a new value replaces it at once.
      if (typeof token === 'string') {
        const echoed = old.authorization_token !== undefined && present(req, old as RegistryRecord).authorization_token === token;
        if (echoed) typed.authorization_token = old.authorization_token as string;
        else typed.authorization_token = box.seal(refuseMaskedToken(token));
      }
      delete typed.request_url;
    }, (write, next) => service.pinAround(next as RegistryRecord, write));
    res.json({ message: `MCP registry ${record.name} updated` });
  });
  router.delete('/mcp/registries/:name', async function deleteRegistry(req, res) {
    // The record first, then its tool states and policies: a failure midway never leaves a live registry without pins.
    const record = await service.remove(pathParam(req, 'name'));
    res.json({ message: `MCP registry ${record.name} deleted` });
  });

  router.get('/mcp/registries/:name/tools', async function listRegistryTools(req, res) {
    res.json((await service.listTools(pathParam(req, 'name'))).views);
  });
  router.put('/mcp/registries/:name/tools/:tool', async function toggleTool(req, res) {
    // `enabled` and nothing else: an unknown field is 400 naming it, as in every other admin write.
    const body = validateToggle(objectBody(req));
    const toolName = pathParam(req, 'tool');
    // Listed, pinned and written under the registry's lock: all or nothing, and never from an outdated URL or token.
    const view = await service.toggleTool(pathParam(req, 'name'), toolName, body.enabled);
    res.json({ message: `Tool ${toolName} ${body.enabled ? 'enabled' : 'disabled'}`, tool: view });
  });

  router.get('/mcp/registries/:name/policies', async function getRegistryPolicies(req, res) {
    const name = (await registries.get(pathParam(req, 'name'))).name;
    res.json(await service.policies(name));
  });
  router.put('/mcp/registries/:name/policies', async function putRegistryPolicies(req, res) {
    // Under the registry's lock: a delete running meanwhile cannot leave these policies for a re-created registry.
    const name = await registries.whileExists(pathParam(req, 'name'), async (current) => {
      await service.setPolicies(current.name, objectBody(req), engine);
      return current.name;
    });
    res.json({ message: `Policies of MCP registry ${name} updated` });
  });
  return router;
}

/**
 * Returns `token` unless it has the shape of a mask and so is not the echo of the stored token (a stale one, read
 * before the token was replaced, or another registry's): storing it would replace the token with its mask (400).
 */
function refuseMaskedToken(token: string): string {
  if (!looksMasked(token)) return token;
  throw Errors.validation(["The field 'authorization_token' holds a masked token (as answers show one), not the mask of the stored token: send the whole token, or, in an update, the stored token's mask unchanged to keep it."], { param: 'authorization_token' });
}
