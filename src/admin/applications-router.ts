// Admin endpoints for applications, their developer keys (shown in clear once) and their guardrail policy.
import { Router } from 'express';
import { adminOf } from './admin-auth.js';
import type { AdminServices } from './admin-services.js';
import { DeveloperKeyStore } from './developer-key-store.js';
import { DEFAULT_APPLICATION_POLICY, validatePolicy } from './policy-validation.js';
import { objectBody, pathParam } from './request-body.js';
import { compileValidator } from '../validation/schema-validator.js';
import { developerKeySettingsSchema } from '../usage/usage-schemas.js';
import type { DeveloperKeySettings } from './developer-key-store.js';

const validateKeySettings = compileValidator<DeveloperKeySettings>(developerKeySettingsSchema);

/** The storage key of an application's policy. */
export const policyKey = (application: string): string => `application-policies/${application}`;

/**
 * `GET|POST /applications`, `GET|PUT|DELETE /applications/:appname`,
 * `GET|POST /applications/:appname/keys`, `PUT|DELETE /applications/:appname/keys/:keyid` (name, budget, limits),
 * `GET|PUT /applications/:appname/policy`.
 */
export function applicationsRouter(services: AdminServices): Router {
  const router = Router();
  const { applications, developerKeys, storage, guardrails } = services;

  router.get('/applications', async function listApplications(_req, res) {
    res.json((await applications.list()).map((record) => applications.present(record)));
  });
  router.post('/applications', async function createApplication(req, res) {
    const record = applications.prepareCreate(objectBody(req), adminOf(req).name);
    await applications.insert(record);
    res.status(201).json({ message: `Application ${record.name} created` });
  });
  router.get('/applications/:appname', async function getApplication(req, res) {
    res.json(applications.present(await applications.get(pathParam(req, 'appname'))));
  });
  router.put('/applications/:appname', async function updateApplication(req, res) {
    const record = await applications.update(pathParam(req, 'appname'), objectBody(req), adminOf(req).name);
    res.json({ message: `Application ${record.name} updated` });
  });
  router.delete('/applications/:appname', async function deleteApplication(req, res) {
    // Grants go first (key index, then key records), then the policy and the log, and the application last:
    // a crash at any step leaves an application that still exists, with no orphan a re-created one could inherit.
    // First the record is marked: from then on no replica adds to its request log or usage graph (their writes are
    // guarded by the unmarked record), so nothing written late brings them back once they are deleted.
    const record = await applications.remove(pathParam(req, 'appname'), async (current) => {
      await storage.set(applications.key(current.name), { ...current, deleting_at: new Date().toISOString() });
      await developerKeys.revokeAll(current.name);
      await storage.delete(policyKey(current.name));
      for (const hook of services.applicationDeletedHooks) await hook(current.name);
    });
    res.json({ message: `Application ${record.name} deleted` });
  });

  router.post('/applications/:appname/keys', async function createDeveloperKey(req, res) {
    const body = validateKeySettings(req.body === undefined ? {} : objectBody(req));
    // Under the application's lock, so a key is never created for an application being deleted.
    const { application, key, record } = await applications.whileExists(pathParam(req, 'appname'), async (current) => ({
      application: current.name,
      ...(await developerKeys.create(current.name, adminOf(req).name, body.name, body)),
    }));
    res.status(201).json({
      message: `Developer key created for ${application}. Store it now: it is not shown again.`,
      key,
      ...DeveloperKeyStore.present(record),
    });
  });
  router.get('/applications/:appname/keys', async function listDeveloperKeys(req, res) {
    const application = (await applications.get(pathParam(req, 'appname'))).name;
    res.json((await developerKeys.list(application)).map((record) => DeveloperKeyStore.present(record)));
  });
  router.put('/applications/:appname/keys/:keyid', async function updateDeveloperKey(req, res) {
    const record = await applications.whileExists(pathParam(req, 'appname'), (current) =>
      developerKeys.update(current.name, pathParam(req, 'keyid'), objectBody(req), validateKeySettings, adminOf(req).name),
    );
    res.json({ message: `Developer key ${record.id} updated`, ...DeveloperKeyStore.present(record) });
  });
  router.delete('/applications/:appname/keys/:keyid', async function revokeDeveloperKey(req, res) {
    const application = (await applications.get(pathParam(req, 'appname'))).name;
    await developerKeys.revoke(application, pathParam(req, 'keyid'));
    res.json({ message: `Developer key ${pathParam(req, 'keyid')} revoked` });
  });

  router.get('/applications/:appname/policy', async function getPolicy(req, res) {
    const application = (await applications.get(pathParam(req, 'appname'))).name;
    const policy = await storage.get(policyKey(application));
    res.json(policy ?? DEFAULT_APPLICATION_POLICY);
  });
  router.put('/applications/:appname/policy', async function putPolicy(req, res) {
    await applications.get(pathParam(req, 'appname'));
    const policy = validatePolicy(objectBody(req), guardrails);
    const application = await applications.whileExists(pathParam(req, 'appname'), async (current) => {
      await storage.set(policyKey(current.name), policy);
      return current.name;
    });
    res.json({ message: `Policy of ${application} updated` });
  });
  return router;
}
