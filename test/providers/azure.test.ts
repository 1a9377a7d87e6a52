// Tests of the Azure OpenAI adapter: deployment URLs, api-version, the api-key header, and a round trip.
import assert from 'node:assert/strict';
import azure from '../../plugins/providers/azure/index.js';
import { FAKE_TEXT, startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { assertCoded, bodyOf, makeContext, sendJson, sendStream } from './provider-test-kit.js';

const provider = (config: Record<string, unknown>) => ({ name: 'azure-east', type: 'azure', config });

describe('azure adapter', () => {
  describe('buildRequest', () => {
    it('posts to the resource deployment with the default api-version and the api-key header', () => {
      const request = azure.buildRequest(makeContext('azure', { model: 'gpt-4o', provider: provider({ resource: 'contoso' }), apiKey: { value: 'az-key' } }));
      assert.equal(request.url, 'https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');
      assert.deepEqual(request.headers, { 'content-type': 'application/json', accept: 'application/json', 'api-key': 'az-key' });
      assert.deepEqual(bodyOf(request), { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
      assert.equal(azure.openaiCompatible, true);
    });

    it('maps the model to its deployment and uses config.api_version', () => {
      const config = { resource: 'contoso', api_version: '2025-01-01-preview', deployments: { 'gpt-4o': 'prod gpt4o' } };
      const request = azure.buildRequest(makeContext('azure', { model: 'gpt-4o', provider: provider(config) }));
      assert.equal(request.url, 'https://contoso.openai.azure.com/openai/deployments/prod%20gpt4o/chat/completions?api-version=2025-01-01-preview');
    });

    it('serves completions and embeddings, and streams with the event-stream accept header', () => {
      const config = { api_base: 'https://gw.example.com/azure/' };
      const embeddings = azure.buildRequest(makeContext('azure', { endpoint: 'embeddings', model: 'ada', provider: provider(config), body: { input: 'x' } }));
      assert.equal(embeddings.url, 'https://gw.example.com/azure/openai/deployments/ada/embeddings?api-version=2024-10-21');
      const completions = azure.buildRequest(makeContext('azure', { endpoint: 'completions', model: 'instruct', provider: provider(config), body: { prompt: 'p' } }));
      assert.equal(completions.url, 'https://gw.example.com/azure/openai/deployments/instruct/completions?api-version=2024-10-21');
      const streaming = azure.buildRequest(makeContext('azure', { stream: true, provider: provider(config) }));
      assert.equal(streaming.headers.accept, 'text/event-stream');
      assert.equal(bodyOf(streaming).stream, true);
    });

    it('lets a suffix replace the operation, and a key record move the key', () => {
      const suffixed = azure.buildRequest(makeContext('azure', { model: 'm', suffix: 'extensions/chat/completions', provider: provider({ resource: 'r' }) }));
      assert.equal(suffixed.url, 'https://r.openai.azure.com/openai/deployments/m/extensions/chat/completions?api-version=2024-10-21');
      const bearer = azure.buildRequest(makeContext('azure', { provider: provider({ resource: 'r' }), apiKey: { value: 'Bearer entra-token', headerKey: 'Authorization' } }));
      assert.equal(bearer.headers.Authorization, 'Bearer entra-token');
      assert.equal(bearer.headers['api-key'], undefined);
    });

    it('refuses a provider with neither resource nor api_base, or a resource that is not a name', () => {
      assertCoded(() => azure.buildRequest(makeContext('azure', { provider: provider({}) })), 'provider_misconfigured', 500);
      assertCoded(() => azure.buildRequest(makeContext('azure', { provider: provider({ resource: 'evil.com/x' }) })), 'provider_misconfigured', 500);
    });

    it('reads Azure error bodies', () => {
      const body = { error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' } };
      assert.equal(azure.errorMessage?.(404, body), 'The API deployment for this resource does not exist.');
    });
  });

  describe('round trip to the fake provider', () => {
    let fake: FakeProvider;
    before(async () => {
      fake = await startFakeProvider();
    });
    after(() => fake.close());
    beforeEach(() => fake.reset());

    it('sends the deployment path, api-version and api-key; answers pass through', async () => {
      const context = makeContext('azure', { model: 'gpt-4o', provider: provider({ api_base: fake.url, deployments: { 'gpt-4o': 'dep1' } }), apiKey: { value: 'az' } });
      const { body } = await sendJson(azure.buildRequest(context));
      assert.equal((body as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content, FAKE_TEXT);
      const [seen] = fake.requests;
      assert.equal(seen?.path, '/openai/deployments/dep1/chat/completions');
      assert.deepEqual(seen?.query, { 'api-version': '2024-10-21' });
      assert.equal(seen?.headers['api-key'], 'az');
    });

    it('streams OpenAI chunks', async () => {
      fake.script({ text: 'azure says hi', chunks: 2 });
      const context = makeContext('azure', { stream: true, provider: provider({ api_base: fake.url }) });
      const { events } = await sendStream(azure.buildRequest(context));
      assert.equal(events.at(-1)?.data, '[DONE]');
      assert.equal(events.length, 1 + 2 + 1 + 1, 'role chunk, two content chunks, finish chunk, [DONE]');
    });
  });
});
