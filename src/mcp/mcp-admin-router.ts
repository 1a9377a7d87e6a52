// Admin endpoints of MCP registries: CRUD with a sealed token, the Tools tab (scan on open, no writes), tool toggles and policies.
import { Router, type Request } from 'express';
import { adminOf } from '../admin/admin-auth.js';
import { unmaskedUrl } from '../admin/masked-urls.js';
import { objectBody, pathParam } from '../admin/request-body.js';
import { Errors } from '../errors/error-registry.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { publicBaseUrl } from '../http/public-base-url.js';
import { presentRegistry, type RegistryRecord } from './registry-records.js';
import type { RegistryService } from './registry-service.js';

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
    const record = seal(registries.prepareCreate(objectBody(req), adminOf(req).name) as RegistryRecord);
    unmaskedUrl(record.url, undefined, 'url');
    // The record and its tools' pins are stored together, or neither (a failed write undoes the pins).
    await registries.insert(record, undefined, (write) => service.pinAround(record, write));
    res.status(201).json({ message: `MCP registry ${record.name} created`, request_url: present(req, record).request_url });
  });
  router.get('/mcp/registries/:name', async function getRegistry(req, res) {
    res.json(present(req, (await registries.get(pathParam(req, 'name'))) as RegistryRecord));
  });
  router.put('/mcp/registries/:name', async function updateRegistry(req, res) {
    const body = objectBody(req);
    const current = (await registries.get(pathParam(req, 'name'))) as RegistryRecord;
    // A token echoed back masked keeps the stored one; a new value replaces it at once.
    const echoed = typeof body.authorization_token === 'string' && current.authorization_token !== undefined && present(req, current).authorization_token === body.authorization_token;
    const { authorization_token: _echo, ...withoutToken } = body;
    const changes = echoed ? withoutToken : body;
    const record = await registries.update(current.name, changes, adminOf(req).name, (old, next) => {
      const typed = next as RegistryRecord;
      // A URL sent back masked, as answers show it, keeps the stored one.
      typed.url = unmaskedUrl(typed.url, old.url, 'url') as string;
      if (echoed) typed.authorization_token = current.authorization_token;
      else if (typeof body.authorization_token === 'string') typed.authorization_token = box.seal(body.authorization_token);
      delete typed.request_url;
    }, (write, next) => service.pinAround(next as RegistryRecord, write));
    res.json({ message: `MCP registry ${record.name} updated` });
  });
  router.delete('/mcp/registries/:name', async function deleteRegistry(req, res) {
    // Its tool states and policies go before the record, so a failure midway never leaves them for a re-created registry.
    const record = await registries.remove(pathParam(req, 'name'), (current) => service.forget(current.name));
    res.json({ message: `MCP registry ${record.name} deleted` });
  });

  router.get('/mcp/registries/:name/tools', async function listRegistryTools(req, res) {
    res.json((await service.listTools(pathParam(req, 'name'))).views);
  });
  router.put('/mcp/registries/:name/tools/:tool', async function toggleTool(req, res) {
    const body = objectBody(req);
    if (typeof body.enabled !== 'boolean') throw Errors.validation(["The field 'enabled' is required and must be a boolean."], { param: 'enabled' });
    const name = pathParam(req, 'name');
    const toolName = pathParam(req, 'tool');
    const { upstream } = await service.listTools(name);
    const tool = upstream.find((candidate) => candidate.name === toolName);
    if (!tool) throw Errors.mcpToolNotFound([name, toolName]);
    // The tool's state and the pins of its not yet pinned siblings are stored together, or none (a failure undoes the
    // pins); under the registry's lock, so a delete or an update cannot interleave (404 when it is gone meanwhile).
    const enabled = body.enabled;
    const view = await registries.whileExists(name, () => service.toggleTool(name, tool, enabled, upstream));
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
