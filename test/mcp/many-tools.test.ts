// A tool server listing thousands of tools costs time in proportion to the list, at registration and at every tools/list: the shadowing scan searches all names at once.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { startRawToolServer, type RawToolServer } from './raw-tool-server.js';

const COUNT = 4000;
/** Tools as a large server lists them; one describes itself by another's name, which the scan still finds. */
const TOOLS = Array.from({ length: COUNT }, (_, index) => ({
  name: `tool_${index}`,
  description: index === 7 ? 'Use this before tool_8 runs.' : `Does thing number ${index} for the user.`,
  inputSchema: { type: 'object', properties: { value: { type: 'string', description: `The value of thing ${index}.` } } },
}));

describe('a tool server with thousands of tools', function () {
  this.timeout(120_000);
  let t: TestGateway;
  let raw: RawToolServer;
  let developerKey: string;
  before(async () => {
    raw = await startRawToolServer(TOOLS);
    t = await createTestGateway();
    await request(t.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'app' }).expect(201);
    developerKey = (await request(t.app).post('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key;
  });
  after(async () => {
    await t.close();
    await raw.close();
  });

  it(`registers ${COUNT.toLocaleString('en')} tools and lists them through the proxy in seconds, not the minutes a pattern per name and tool took`, async () => {
    let started = performance.now();
    await request(t.app).post('/v1/admin/mcp/registries').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'big', url: raw.url, authorization_token: 'big-registry-token-0123456789' }).expect(201);
    const registering = performance.now() - started;
    started = performance.now();
    const res = await request(t.app).post('/v1/mcp/big').set('authorization', `Bearer ${developerKey}`).set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(200);
    const listing = performance.now() - started;
    assert.equal(res.body.result.tools.length, COUNT);
    // Compiling a pattern for every other name, for every tool, took about 40 s for each of these here (5 s for 2,000 tools).
    assert.ok(registering < 8000 && listing < 8000, `registering ${Math.round(registering)} ms, listing ${Math.round(listing)} ms`);
    const tab = await request(t.app).get('/v1/admin/mcp/registries/big/tools').set('x-api-key', TEST_KEYS.viewer).expect(200);
    const mentioning = (tab.body as Array<{ name: string; scan: { findings: Array<{ rule: string; evidence: string }> } }>).find((tool) => tool.name === 'tool_7');
    assert.ok(mentioning?.scan.findings.some((finding) => finding.rule === 'shadowing.other_tool_mention' && finding.evidence.includes('tool_8')), JSON.stringify(mentioning?.scan));
  });
});
