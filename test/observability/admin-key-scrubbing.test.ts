// Configured admin keys (any string, not only `gwa_…`) are scrubbed like stored secrets: from Chronicles, log lines and kept responses.
import assert from 'node:assert/strict';
import request from 'supertest';
import type { GatewayLogger } from '../../src/index.js';
import { eventually } from '../helpers/eventually.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** Every form of `secret` a scrubbed text must not hold. */
const forms = (secret: string): string[] => [secret, secret.toUpperCase(), Buffer.from(secret).toString('base64'), encodeURIComponent(`${secret}/`)];

describe('admin keys are scrubbed like stored secrets', () => {
  let f: TrafficFixture;
  const lines: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const logger: GatewayLogger = {
    info: (message, fields) => void lines.push({ message, fields }),
    warn: (message, fields) => void lines.push({ message, fields }),
    error: (message, fields) => void lines.push({ message, fields }),
  };
  beforeEach(async () => {
    lines.length = 0;
    f = await createTrafficFixture({ logger, logRequests: true });
  });
  afterEach(() => f.close());

  it("a super_admin key pasted into a prompt does not reach a viewer through the application's Chronicles", async () => {
    // A developer asks for help with the gateway's configuration file, admin keys and all.
    const pasted = `adminKeys:\n  - key: ${TEST_KEYS.superAdmin}\n    role: super_admin\n# as base64: ${Buffer.from(TEST_KEYS.superAdmin).toString('base64')}`;
    f.fake.script({ text: `Your super_admin key ${TEST_KEYS.superAdmin.toUpperCase()} looks fine.` });
    await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ messages: [{ role: 'user', content: pasted }] })).expect(200);
    const recorded = await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.equal(recorded.body.data.length, 1);
    for (const form of forms(TEST_KEYS.superAdmin).slice(0, 3)) assert.ok(!recorded.text.includes(form), `found ${form} in ${recorded.text}`);
    assert.match(recorded.body.data[0].output, /Your super_admin key \[REDACTED\] looks fine/);
  });

  it('an admin key in a logged request line (a path) is scrubbed, in any case and encoding', async () => {
    for (const form of forms(TEST_KEYS.admin)) {
      await request(f.app).get(`/v1/admin/applications/${encodeURIComponent(form)}`).set('x-api-key', TEST_KEYS.viewer).expect(404);
    }
    const logged = await eventually(() => {
      const found = lines.filter((line) => line.message === 'request' && line.fields?.status === 404);
      assert.equal(found.length, 4);
      return found;
    });
    const text = JSON.stringify(logged);
    for (const form of forms(TEST_KEYS.admin)) assert.ok(!text.includes(form) && !text.includes(encodeURIComponent(form)), `found ${form} in ${text}`);
    assert.ok(logged.every((line) => String(line.fields?.path).includes('[REDACTED]')), text);
  });
});
