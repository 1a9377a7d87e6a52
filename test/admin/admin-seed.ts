// Seeds one of every admin resource over HTTP, so endpoint tables have something to act on.
import request from 'supertest';
import type { Express } from 'express';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { sampleApplication, sampleGateway, sampleKey, sampleProvider, sampleRoute, sampleTemplate } from './admin-fixtures.js';

/** Creates a template, gateway, provider (with a namespaced key), route and application; fails loudly on any error. */
export async function seedAll(app: Express): Promise<{ developerKeyId: string; developerKey: string }> {
  const as = TEST_KEYS.superAdmin;
  await request(app).post('/v1/admin/templates/inspect-pii').set('x-api-key', as).send(sampleTemplate()).expect(201);
  await request(app).post('/v1/admin/gateways').set('x-api-key', as).send(sampleGateway()).expect(201);
  await request(app).post('/v1/admin/providers').set('x-api-key', as).send(sampleProvider()).expect(201);
  await request(app)
    .post('/v1/admin/providers/openai-main/keys/team-key')
    .set('x-api-key', as)
    .set('x-gateway-namespace', 'team-a')
    .send(sampleKey())
    .expect(201);
  await request(app).post('/v1/admin/routes').set('x-api-key', as).send(sampleRoute()).expect(201);
  await request(app).post('/v1/admin/applications').set('x-api-key', as).send(sampleApplication()).expect(201);
  const created = await request(app).post('/v1/admin/applications/shop/keys').set('x-api-key', as).send({}).expect(201);
  return { developerKeyId: created.body.id as string, developerKey: created.body.key as string };
}
