// Admin endpoints for templates and gateway records: plain CRUD over named resources.
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { adminOf } from './admin-auth.js';
import type { AdminServices } from './admin-services.js';
import { objectBody, pathParam } from './request-body.js';

/**
 * Templates: `GET /templates`, `POST|GET|PUT|DELETE /templates/:templatename`.
 * Gateways: `GET|POST /gateways`, `GET|PUT|DELETE /gateways/:gatewayname`; create and update answer a JSON string.
 */
export function templatesAndGatewaysRouter(services: AdminServices): Router {
  const router = Router();
  const { templates, gateways } = services;

  router.get('/templates', async function listTemplates(_req, res) {
    res.json((await templates.list()).map((record) => templates.present(record)));
  });
  router.post('/templates/:templatename', async function createTemplate(req, res) {
    const record = templates.prepareCreate(objectBody(req), adminOf(req).name, pathParam(req, 'templatename'));
    await templates.insert(record);
    res.status(201).json({ message: `Template ${record.name} created` });
  });
  router.get('/templates/:templatename', async function getTemplate(req, res) {
    res.json(templates.present(await templates.get(pathParam(req, 'templatename'))));
  });
  router.put('/templates/:templatename', async function updateTemplate(req, res) {
    const record = await templates.update(pathParam(req, 'templatename'), objectBody(req), adminOf(req).name);
    res.json({ message: `Template ${record.name} updated` });
  });
  router.delete('/templates/:templatename', async function deleteTemplate(req, res) {
    const record = await templates.remove(pathParam(req, 'templatename'));
    res.json({ message: `Template ${record.name} deleted` });
  });

  router.get('/gateways', async function listGateways(_req, res) {
    res.json({ gateways: (await gateways.list()).map((record) => gateways.present(record)) });
  });
  router.post('/gateways', async function createGateway(req, res) {
    const body = objectBody(req);
    const record = gateways.prepareCreate({ gateway_id: randomUUID(), ...body }, adminOf(req).name);
    await gateways.insert(record);
    res.status(201).json(`Gateway ${record.name} created`);
  });
  router.get('/gateways/:gatewayname', async function getGateway(req, res) {
    res.json(gateways.present(await gateways.get(pathParam(req, 'gatewayname'))));
  });
  router.put('/gateways/:gatewayname', async function updateGateway(req, res) {
    const record = await gateways.update(pathParam(req, 'gatewayname'), objectBody(req), adminOf(req).name);
    res.json(`Gateway ${record.name} updated`);
  });
  router.delete('/gateways/:gatewayname', async function deleteGateway(req, res) {
    const record = await gateways.remove(pathParam(req, 'gatewayname'));
    res.json(`Gateway ${record.name} deleted`);
  });
  return router;
}
