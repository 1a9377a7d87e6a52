// Credentials inside an admin-set URL (provider api_base, registry url): masked in answers, log lines and Chronicles, kept when echoed back, still used upstream.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { createPinoLogger, defineProvider, pinoGatewayLogger } from '../../src/index.js';
import { startFakeMcpServer } from '../helpers/fake-mcp-server.js';
import { createRegistryFixture, REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const PROVIDER_PASSWORD = 'provider-url-password-0123';
const QUERY_TOKEN = 'registry-query-token-0123';

/** A logger writing into memory, and everything written so far. */
function memoryLogger(): { logger: ReturnType<typeof pinoGatewayLogger>; text: () => string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { logger: pinoGatewayLogger(createPinoLogger({ destination: out })), text: () => text };
}

/** A provider plugin that fails quoting its api_base, as a careless plugin might. */
const quotingProvider = defineProvider({
  name: 'quoting',
  openaiCompatible: true,
  buildRequest(context) {
    throw new Error(`could not reach ${String(context.provider.config.api_base)}`);
  },
});

const admin = (app: TrafficFixture['app'], method: 'get' | 'put' | 'post', path: string) => request(app)[method](`/v1/admin${path}`).set('x-api-key', TEST_KEYS.superAdmin);

describe('admin: credentials inside admin-set URLs', () => {
  it("11.2: a provider api_base's userinfo is masked in answers, kept when the answer is sent back, refused when a mask is left in a new URL, and scrubbed from Chronicles and logs", async () => {
    const log = memoryLogger();
    const f = await createTrafficFixture({ logger: log.logger, logRequests: true, plugins: [quotingProvider] });
    try {
      const port = new URL(f.fake.url).port;
      const real = `http://alice:${PROVIDER_PASSWORD}@127.0.0.1:${port}/v1`;
      const masked = `http://***@127.0.0.1:${port}/v1`;
      await f.create('/v1/admin/providers', { name: 'basic', type: 'openai', config: { api_base: real, models: ['basic-model'] } });

      const one = await admin(f.app, 'get', '/providers/basic').expect(200);
      assert.equal(one.body.config.api_base, masked);
      const list = await admin(f.app, 'get', '/providers').expect(200);
      assert.ok(!list.text.includes(PROVIDER_PASSWORD) && !list.text.includes('alice'), list.text);

      // A client that sends the answer back keeps the stored URL; the gateway still calls the real one.
      await admin(f.app, 'put', '/providers/basic').send({ config: one.body.config }).expect(200);
      assert.equal((await f.gateway.storage.get<{ config: { api_base: string } }>('providers/basic'))!.config.api_base, real);
      assert.equal((await admin(f.app, 'get', '/providers/basic').expect(200)).body.config.api_base, masked);
      // A changed URL that still holds the mask would store the mask as the password: refused, nothing changed.
      const refused = await admin(f.app, 'put', '/providers/basic').send({ config: { api_base: `http://***@127.0.0.1:${port}/v2` } }).expect(400);
      assert.equal(refused.body.error.param, 'config.api_base');
      await admin(f.app, 'post', '/providers').send({ name: 'copy', type: 'openai', config: { api_base: masked } }).expect(400);
      assert.equal((await f.gateway.storage.get<{ config: { api_base: string } }>('providers/basic'))!.config.api_base, real);

      // The password pasted into a prompt and echoed back is not stored; a URL with a short password is masked by shape.
      f.fake.script({ text: `The base is ${real}, and https://bob:pw@example.test/x?api_key=k1 too.` });
      await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody({ model: 'basic-model', messages: [{ role: 'user', content: `password ${PROVIDER_PASSWORD}` }] })).expect(200);
      assert.equal(f.fake.requests.at(-1)?.path, '/v1/chat/completions', 'the real URL is used upstream');
      const entries = (await admin(f.app, 'get', '/applications/app/chronicles').expect(200)).body.data;
      const text = JSON.stringify(entries);
      assert.ok(!text.includes(PROVIDER_PASSWORD), text);
      assert.equal(entries[0].output, `The base is ${masked}, and https://***@example.test/x?api_key=*** too.`);
      // A plugin's error quoting the URL reaches the log line masked.
      await f.create('/v1/admin/providers', { name: 'quoting', type: 'quoting', config: { api_base: real.replace('alice', 'carol'), models: ['quoting-model'] } });
      await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody({ model: 'quoting-model' })).expect(500);
      assert.match(log.text(), /could not reach http:\/\/\*\*\*@127\.0\.0\.1/);
      assert.ok(!log.text().includes(PROVIDER_PASSWORD), log.text());
    } finally {
      await f.close();
    }
  });

  it("11.2: a registry url's userinfo and token parameter are masked in answers and in the Tools tab's error, kept when echoed, and the real URL still reaches the tool server", async () => {
    const log = memoryLogger();
    const mcp = await startFakeMcpServer({ token: REGISTRY_TOKEN });
    const real = `${mcp.url}?token=${QUERY_TOKEN}`;
    const f = await createRegistryFixture({ name: 'tools', url: real, authorization_token: REGISTRY_TOKEN }, mcp, { logger: log.logger, logRequests: true });
    try {
      const maskedUrl = `${mcp.url}?token=***`;
      const shown = await admin(f.app, 'get', '/mcp/registries/tools').expect(200);
      assert.equal(shown.body.url, maskedUrl);
      assert.ok(!(await admin(f.app, 'get', '/mcp/registries').expect(200)).text.includes(QUERY_TOKEN));
      await admin(f.app, 'put', '/mcp/registries/tools').send({ url: shown.body.url, description: 'echoed' }).expect(200);
      assert.equal((await f.gateway.storage.get<{ url: string }>('mcp-registries/tools'))!.url, real);
      const client = await f.connect();
      assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content, [{ type: 'text', text: '5' }], 'the stored URL is used upstream');
      await admin(f.app, 'put', '/mcp/registries/tools').send({ url: `${mcp.url}x?token=***` }).expect(400);

      // fetch refuses a URL with userinfo and quotes it: the Tools tab's 502 shows it masked, even a short password.
      const withUser = mcp.url.replace('http://', 'http://bob:pw@');
      await admin(f.app, 'post', '/mcp/registries').send({ name: 'userinfo', url: `${withUser}?api-key=${QUERY_TOKEN}`, authorization_token: REGISTRY_TOKEN }).expect(201);
      const failed = await admin(f.app, 'get', '/mcp/registries/userinfo/tools').expect(502);
      assert.ok(!failed.text.includes(':pw@') && !failed.text.includes(QUERY_TOKEN), failed.text);
      assert.equal((await admin(f.app, 'get', '/mcp/registries/userinfo').expect(200)).body.url, `${mcp.url.replace('http://', 'http://***@')}?api-key=***`);
      assert.ok(!log.text().includes(QUERY_TOKEN) && !log.text().includes(':pw@'), log.text());
    } finally {
      await f.close();
    }
  });
});
