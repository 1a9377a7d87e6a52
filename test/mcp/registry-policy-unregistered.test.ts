// Registry policies whose processor is not registered (issue 11, point 8): refused when written, and failing closed on tool results when found stored.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

describe('registry policies naming unregistered processors', () => {
  let f: McpFixture;
  // A gateway without the built-in processors: every registry filter family names a missing one.
  beforeEach(async () => {
    f = await createMcpFixture({ builtins: false });
  });
  afterEach(() => f.close());

  it('the defaults skip families whose processor is missing, so tool calls still work', async () => {
    const client = await f.connect();
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    assert.notEqual(result.isError, true);
  });

  it('11.8: a registry policy enabling a family whose processor is not registered is refused 400 and not stored', async () => {
    const res = await request(f.app)
      .put('/v1/admin/mcp/registries/tools/policies')
      .set('x-api-key', TEST_KEYS.superAdmin)
      .send({ malicious_instruction_injection: { enabled: true, mode: 'inspect' } })
      .expect(400);
    assert.equal(res.body.error.param, 'malicious_instruction_injection');
    assert.equal(await f.gateway.storage.get('mcp-policies/tools'), undefined);
  });

  it('11.8: a stored registry policy naming a missing processor blocks tool results, even in inspect mode', async () => {
    const off = { enabled: false, mode: 'inspect' };
    await f.gateway.storage.set('mcp-policies/tools', {
      malicious_instruction_injection: { enabled: true, mode: 'inspect' },
      tool_injection: off,
      data_protection: { ...off, action: 'redact' },
      security_filters: off,
      on_error: 'fail_open',
      timeout_ms: 1000,
    });
    const client = await f.connect();
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /Blocked by the registry policy malicious_instruction_injection/);
    assert.ok(!JSON.stringify(result.content).includes('5'), 'the unchecked result is withheld');
  });
});
