// gateway.yaml parsing: `${ENV_VAR}` references (defaults, escapes, unset names), YAML syntax errors with their line, unreadable files.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGatewayConfig, readGatewayConfig } from '../../src/cli/config-file.js';
import { pluginReferenceProblems } from '../../src/cli/plugin-references.js';
import { serverEnvironment } from '../../src/cli/start-command.js';
import { defineGuardrail } from '../../src/index.js';

describe('gateway.yaml', () => {
  it('15.7: ${NAME} takes the variable, ${NAME:-default} its default when unset, $${NAME} stays literal', () => {
    const result = parseGatewayConfig(
      `server:
  port: \${TEST_PORT:-8181}
  admin_key: "\${TEST_ADMIN}"
providers:
  - name: p1
    type: openai
    api_keys:
      - api_key: prefix-\${TEST_KEY}-suffix
        organization: "$\${NOT_A_REFERENCE}"
`,
      { TEST_ADMIN: 'gwa_0123456789abcdefgh', TEST_KEY: 'sk-abc' },
    );
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.config.server?.port, '8181');
    assert.equal(result.config.server?.admin_key, 'gwa_0123456789abcdefgh');
    const key = (result.config.providers?.[0]?.api_keys as Array<Record<string, string>>)[0];
    assert.equal(key?.api_key, 'prefix-sk-abc-suffix');
    assert.equal(key?.organization, '${NOT_A_REFERENCE}');
  });

  it('15.7: an unset or empty variable is one problem naming it and its path, not a schema problem too', () => {
    const result = parseGatewayConfig('server:\n  admin_key: ${TEST_EMPTY}\n', { TEST_EMPTY: '' });
    assert.ok(!result.ok);
    assert.deepEqual(result.problems, [
      { path: 'server.admin_key', message: "The field 'server.admin_key' refers to the environment variable TEST_EMPTY, which is not set." },
    ]);
  });

  it('15.7: a YAML syntax error is reported once, with its line; an empty file is a valid empty config', () => {
    const result = parseGatewayConfig('providers:\n  - name: a\n   type: b\n', {});
    assert.ok(!result.ok);
    assert.equal(result.problems.length, 1);
    assert.match(result.problems[0]?.message ?? '', /^YAML: .*line 3/);
    assert.ok(parseGatewayConfig('', {}).ok);
    const duplicate = parseGatewayConfig('routes: []\nroutes: []\n', {});
    assert.ok(!duplicate.ok, 'a duplicated key is an error');
  });

  it('15.7: a file that cannot be read is one problem with its reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-config-'));
    try {
      const missing = await readGatewayConfig(join(dir, 'nowhere.yaml'));
      assert.ok(!missing.ok);
      assert.match(missing.problems[0]?.message ?? '', /cannot be read: ENOENT/);
      await writeFile(join(dir, 'ok.yaml'), 'routes:\n  - name: unified\n');
      assert.ok((await readGatewayConfig(join(dir, 'ok.yaml'))).ok);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('15.7: the server section becomes the example server environment; data_dir and plugin paths are taken from the file folder', () => {
    const env = serverEnvironment({ server: { host: '::1', port: 9000, data_dir: 'state' }, plugins: ['./plugins/a.js'] }, '/etc/gateway/gateway.yaml');
    assert.deepEqual(env, {
      GATEWAY_CONFIG: '/etc/gateway/gateway.yaml',
      HOST: '::1',
      PORT: '9000',
      GATEWAY_DATA_DIR: '/etc/gateway/state',
      GATEWAY_PLUGINS: '/etc/gateway/plugins/a.js',
    });
  });

  it('the server section takes the Redis key prefix that replicas sharing one Redis agree on', () => {
    const result = parseGatewayConfig('server:\n  redis_url: redis://127.0.0.1:6379\n  redis_key_prefix: "shop-eu:"\n', {});
    assert.ok(result.ok, JSON.stringify(result));
    const env = serverEnvironment(result.config, '/etc/gateway/gateway.yaml');
    assert.equal(env.GATEWAY_REDIS_URL, 'redis://127.0.0.1:6379');
    assert.equal(env.GATEWAY_REDIS_KEY_PREFIX, 'shop-eu:');
  });

  it('the server section sets logging, metrics, draining, more admin keys and the request log buffer too; wrong values are problems at their paths', () => {
    const result = parseGatewayConfig(
      `server:
  log_level: warn
  log_requests: false
  metrics: \${TEST_METRICS}
  metrics_token: \${TEST_METRICS_TOKEN}
  drain_seconds: 2.5
  stop_timeout_seconds: 15
  chronicles_max_pending: 500
  admin_keys:
    - key: \${TEST_VIEWER_KEY}
      role: viewer
      name: console
`,
      { TEST_METRICS: 'true', TEST_METRICS_TOKEN: 'metrics-token-0123456789', TEST_VIEWER_KEY: 'viewer-key-0123456789' },
    );
    assert.ok(result.ok, JSON.stringify(result));
    const env = serverEnvironment(result.config, '/etc/gateway/gateway.yaml');
    assert.deepEqual(
      [env.LOG_LEVEL, env.GATEWAY_LOG_REQUESTS, env.GATEWAY_METRICS, env.GATEWAY_METRICS_TOKEN, env.GATEWAY_DRAIN_SECONDS, env.GATEWAY_STOP_TIMEOUT_SECONDS, env.GATEWAY_CHRONICLES_MAX_PENDING],
      ['warn', 'false', 'true', 'metrics-token-0123456789', '2.5', '15', '500'],
    );
    assert.deepEqual(JSON.parse(env.GATEWAY_ADMIN_KEYS!), [{ key: 'viewer-key-0123456789', role: 'viewer', name: 'console' }]);

    const wrong = parseGatewayConfig('server:\n  log_level: verbose\n  metrics: maybe\n  drain_seconds: 7200\n  stop_timeout_seconds: 0\n  metrics_token: short\n  admin_keys: [{ key: short, role: root }]\n', {});
    assert.equal(wrong.ok, false);
    const paths = (wrong as { problems: Array<{ path: string }> }).problems.map((problem) => problem.path);
    for (const path of ['server.log_level', 'server.metrics', 'server.drain_seconds', 'server.stop_timeout_seconds', 'server.metrics_token', 'server.admin_keys[0].key', 'server.admin_keys[0].role']) assert.ok(paths.includes(path), `${path} in ${JSON.stringify(paths)}`);
  });

  it('15.7: what the file names among plugins is checked: provider types, policy processors and their options, its own plugins included', async () => {
    const result = parseGatewayConfig(
      `providers:
  - { name: p, type: nosuch }
  - { name: q, type: anthropic }
routes:
  - name: r
    type: chat
    models: [{ name: m, provider: q }]
    config: { policy: { enabled: true, processors: { ghost: {} } } }
applications:
  - name: a
    policy: { processors: { dlp_cloud: { strategy: explode } } }
  - name: b
    policy: { processors: { banned_words: { words: [x] }, promptinjectiondetection: {} } }
`,
      {},
    );
    assert.ok(result.ok);
    const bannedWords = defineGuardrail({ name: 'banned_words', defaultThreshold: 0.5, evaluate: () => ({ results: {}, flagged: false }) });
    const problems = await pluginReferenceProblems(result.config, [bannedWords]);
    assert.deepEqual(
      problems.map((problem) => problem.path),
      ['providers[0].type', 'routes[0].config.policy.processors.ghost', 'applications[0].policy.processors.dlp_cloud.strategy'],
    );
    assert.match(problems[1]?.message ?? '', /^The field 'routes\[0\]\.config\.policy\.processors\.ghost': The processor 'ghost' is not registered/);
  });

  it('refuses provider keys, registry tokens and model weights the admin API refuses: control characters, over-long values, huge weights; values never shown', () => {
    const file = `providers:
  - name: p1
    type: openai
    api_keys:
      - api_key: \${BAD_KEY}
      - api_key: \${LONG_KEY}
        header_key: \${LONG_NAME}
routes:
  - name: split
    type: chat
    models:
      - { name: a, provider: p1, weight: 1e308 }
registries:
  - name: tools
    url: http://127.0.0.1:9/mcp
    authorization_token: \${BAD_TOKEN}
`;
    const env = { BAD_KEY: 'sk-marker\r\nX-Injected: 1', LONG_KEY: `sk-marker${'k'.repeat(9000)}`, LONG_NAME: 'h'.repeat(300), BAD_TOKEN: 'tok-marker\u0000' };
    const result = parseGatewayConfig(file, env);
    assert.ok(!result.ok);
    const paths = result.problems.map((problem) => problem.path);
    for (const path of ['providers[0].api_keys[0].api_key', 'providers[0].api_keys[1].api_key', 'providers[0].api_keys[1].header_key', 'routes[0].models[0].weight', 'registries[0].authorization_token']) {
      assert.ok(paths.includes(path), `${path} in ${JSON.stringify(paths)}`);
    }
    assert.ok(!JSON.stringify(result.problems).includes('marker'), 'no problem shows a secret');
    assert.ok(result.problems.some((problem) => problem.message.includes('control characters')), JSON.stringify(result.problems));
  });
});
