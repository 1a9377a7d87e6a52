// The gateway-service CLI, spawned as a user runs it: `validate` prints every problem with its path; `start` runs the server from gateway.yaml.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { exitWithin, findLogLine, spawnGateway } from '../helpers/gateway-process.js';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';

const CLI = ['--import', 'tsx', 'src/cli/gateway-service.ts'];
const ADMIN_KEY = 'gwa_cli_test_admin_key_0123456789';
const PROVIDER_KEY = 'sk-cli-provider-secret-7f3a9c2e41';
const REGISTRY_TOKEN = 'mcp-cli-registry-token-55e1d0b7';
const SECRET_ENV = { TEST_ADMIN_KEY: ADMIN_KEY, TEST_PROVIDER_KEY: PROVIDER_KEY, TEST_REGISTRY_TOKEN: REGISTRY_TOKEN };

/** A custom guardrail as a plain ES module: it flags any of `words`. */
const BANNED_WORDS_PLUGIN = `export default {
  kind: 'guardrail', name: 'banned_words', defaultThreshold: 0.5,
  optionsSchema: { type: 'object', properties: { words: { type: 'array', items: { type: 'string' }, default: [] } } },
  evaluate(text, { options }) {
    const matched = options.words.filter((word) => text.includes(word));
    return { results: { matched }, flagged: matched.length > 0, triggered: matched };
  },
};
`;

function gatewayYaml(fakeUrl: string): string {
  return `# A gateway for the CLI test: secrets come from the environment.
server:
  host: 127.0.0.1
  port: \${TEST_GATEWAY_PORT:-0}
  admin_key: \${TEST_ADMIN_KEY}
  secret: at-rest-secret-for-the-test
  data_dir: ./data
plugins:
  - ./banned-words.mjs
providers:
  - name: fake
    type: openai
    config: { api_base: "${fakeUrl}/v1", models: [gpt-4o-mini] }
    api_keys:
      - api_key: \${TEST_PROVIDER_KEY}
routes:
  - name: chat
    type: chat
    models: [{ name: gpt-4o-mini, provider: fake }]
applications:
  - name: shop
    policy:
      mode: reject
      processors:
        banned_words: { words: [forbidden] }
registries:
  - name: tools
    url: http://127.0.0.1:9/mcp
    authorization_token: \${TEST_REGISTRY_TOKEN}
    policies:
      security_filters: { mode: reject }
`;
}

const run = promisify(execFile);

/** Runs the CLI to its end and answers its exit code and output. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('gateway-service CLI', function () {
  this.timeout(90_000);
  let dir: string;
  let fake: FakeProvider;
  let config: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-cli-'));
    fake = await startFakeProvider();
    config = join(dir, 'gateway.yaml');
    await writeFile(config, gatewayYaml(fake.url));
    await writeFile(join(dir, 'banned-words.mjs'), BANNED_WORDS_PLUGIN);
  });
  after(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('15.7: validate accepts a good file, naming what it holds, and loads its plugin modules', async () => {
    const { code, stdout } = await cli(['validate', config], SECRET_ENV);
    assert.equal(code, 0);
    assert.match(stdout, /valid \(1 provider, 1 route, 1 application, 1 registry, 1 plugin module\)/);
  });

  it('15.7: validate prints every problem with its path, names unset variables, never their values, and exits 1', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(
      bad,
      `providers:
  - name: p1
    config: { api_base: "ftp://example.test" }
    api_keys:
      - api_key: \${TEST_UNSET_PROVIDER_KEY}
routes:
  - name: chat
    type: chat
    models: [{ name: m, provider: p1, weight: -1 }]
    colour: blue
applications:
  - name: shop
    policy: { mode: block }
registries:
  - name: tools
    authorization_token: \${TEST_ADMIN_KEY}
servers: {}
`,
    );
    const { code, stderr } = await cli(['validate', bad], SECRET_ENV);
    assert.equal(code, 1);
    const lines = stderr.trim().split('\n');
    for (const expected of [
      "The field 'providers[0].type' is required.",
      "The field 'providers[0].config.api_base' must match",
      "The field 'providers[0].api_keys[0].api_key' refers to the environment variable TEST_UNSET_PROVIDER_KEY, which is not set.",
      "The field 'routes[0].colour' is not a known field.",
      "The field 'routes[0].models[0].weight'",
      "The field 'applications[0].policy.mode' must be one of: inspect, reject.",
      "The field 'registries[0].url' is required.",
      "The field 'servers' is not a known field.",
    ]) {
      assert.ok(lines.some((line) => line.startsWith(`${bad}: ${expected}`)), `missing "${expected}" in:\n${stderr}`);
    }
    assert.match(lines.at(-1) ?? '', /: \d+ problems$/);
    assert.ok(!stderr.includes(ADMIN_KEY), 'a resolved secret was printed');
    assert.equal((await cli(['frobnicate'])).code, 2, 'an unknown command is a usage error');
  });

  it('--version prints the version of the package, as -v does', async () => {
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const { code, stdout } = await cli([flag]);
      assert.equal(code, 0, flag);
      assert.equal(stdout.trim(), version);
    }
  });

  it('15.7: validate reports its plugin modules and what the file names among plugins in the same run as the file\'s other problems', async () => {
    const unloadable = join(dir, 'unloadable.yaml');
    await writeFile(unloadable, 'plugins:\n  - ./no-such-plugin.mjs\nproviders:\n  - name: p1\nroutes:\n  - name: chat\n    colour: blue\n');
    const first = await cli(['validate', unloadable]);
    assert.equal(first.code, 1);
    assert.deepEqual(first.stderr.trim().split('\n').map((line) => line.slice(unloadable.length + 2).replace(/ cannot be loaded: .*/, ' cannot be loaded')), [
      "The field 'providers[0].type' is required.",
      "The field 'routes[0].colour' is not a known field.",
      "The field 'plugins[0]': the plugin module ./no-such-plugin.mjs cannot be loaded",
      '3 problems',
    ]);
    const misnamed = join(dir, 'misnamed.yaml');
    await writeFile(
      misnamed,
      'plugins:\n  - ./banned-words.mjs\nproviders:\n  - name: p1\n    type: nosuch\n  - name: p2\napplications:\n  - name: shop\n    policy: { processors: { banned_words: { words: [x] }, ghost: {} } }\n  - name: 2nd\n    colour: red\n    policy: { processors: { ghost: {} } }\n',
    );
    const second = await cli(['validate', misnamed]);
    assert.equal(second.code, 1);
    const paths = second.stderr.trim().split('\n').map((line) => /The field '([^']+)'/.exec(line)?.[1] ?? line.slice(misnamed.length + 2));
    assert.deepEqual(paths, ['providers[1].type', 'applications[1].colour', 'providers[0].type', 'applications[0].policy.processors.ghost', '4 problems']);
  });

  it('validate and start refuse two items of one list with the same name, rather than dropping the second (and its policy) at start', async () => {
    const repeated = join(dir, 'repeated.yaml');
    await writeFile(
      repeated,
      `server:\n  port: 0\n  admin_key: \${TEST_ADMIN_KEY}\n  data_dir: ./data-repeated\nroutes:\n  - name: chat\n  - name: chat\napplications:\n  - name: shop\n  - name: shop\n    policy: { mode: reject, processors: { security_filters: {} } }\n`,
    );
    const validated = await cli(['validate', repeated], SECRET_ENV);
    assert.equal(validated.code, 1);
    assert.deepEqual(validated.stderr.trim().split('\n').map((line) => line.slice(repeated.length + 2)), [
      "The field 'routes[1].name' repeats the name 'chat' of routes[0]; each name may appear once.",
      "The field 'applications[1].name' repeats the name 'shop' of applications[0]; each name may appear once.",
      '2 problems',
    ]);
    const started = await cli(['start', '--config', repeated], SECRET_ENV);
    assert.equal(started.code, 1);
    assert.match(started.stderr, /applications\[1\]\.name' repeats the name 'shop'/);
    assert.ok(!started.stdout.includes('gateway listening'), started.stdout);
  });

  it('validate and start report a plugin the gateway would refuse (a built-in name taken, no evaluate(), no buildRequest()) as a problem of its module, not a crash', async () => {
    await writeFile(join(dir, 'taken-name.mjs'), "export default { kind: 'provider', name: 'openai', openaiCompatible: true, buildRequest: () => ({}) };\n");
    await writeFile(join(dir, 'half-guardrail.mjs'), "export default [{ kind: 'guardrail', name: 'half', defaultThreshold: 0.5 }];\n");
    await writeFile(join(dir, 'half-provider.mjs'), "export default { kind: 'provider', name: 'half-llm', openaiCompatible: true };\n");
    const refused = join(dir, 'refused-plugins.yaml');
    await writeFile(refused, `server:\n  port: 0\n  admin_key: \${TEST_ADMIN_KEY}\n  data_dir: ./data-refused\nplugins:\n  - ./taken-name.mjs\n  - ./half-guardrail.mjs\n  - ./half-provider.mjs\n`);
    const validated = await cli(['validate', refused], SECRET_ENV);
    assert.equal(validated.code, 1);
    assert.deepEqual(validated.stderr.trim().split('\n').map((line) => line.slice(refused.length + 2)), [
      "The field 'plugins[0]': the plugin module ./taken-name.mjs cannot be registered: A plugin named openai is already registered.",
      "The field 'plugins[1]': the plugin module ./half-guardrail.mjs cannot be registered: The plugin is not valid: guardrail half has no evaluate().",
      "The field 'plugins[2]': the plugin module ./half-provider.mjs cannot be registered: The plugin is not valid: provider half-llm has no buildRequest().",
      '3 problems',
    ]);
    const started = await cli(['start', '--config', refused], SECRET_ENV);
    assert.equal(started.code, 1);
    assert.match(started.stderr, /taken-name\.mjs cannot be registered: A plugin named openai is already registered/);
    assert.ok(!started.stdout.includes('gateway listening') && !/\n\s+at /.test(started.stderr), started.stdout + started.stderr);
  });

  it('15.7: start refuses a file whose ${ENV_VAR} is not set, with the variable and its path, and starts nothing', async () => {
    const { code, stdout, stderr } = await cli(['start', '--config', config], { TEST_ADMIN_KEY: ADMIN_KEY, TEST_REGISTRY_TOKEN: REGISTRY_TOKEN, TEST_PROVIDER_KEY: '' });
    assert.equal(code, 1);
    assert.match(stderr, /The field 'providers\[0\]\.api_keys\[0\]\.api_key' refers to the environment variable TEST_PROVIDER_KEY, which is not set\./);
    assert.ok(!stdout.includes('gateway listening'));
  });

  it('15.7: start refuses a file that names a processor no plugin registers, before it listens or stores anything', async () => {
    const unregistered = join(dir, 'unregistered.yaml');
    await writeFile(unregistered, `server:\n  port: 0\n  admin_key: \${TEST_ADMIN_KEY}\n  data_dir: ./data-unregistered\napplications:\n  - name: shop\n    policy: { mode: reject, processors: { ghost: {} } }\n`);
    const { code, stdout, stderr } = await cli(['start', '--config', unregistered], SECRET_ENV);
    assert.equal(code, 1);
    assert.match(stderr, /The field 'applications\[0\]\.policy\.processors\.ghost': The processor 'ghost' is not registered/);
    assert.ok(!stdout.includes('gateway listening'), stdout);
  });

  it('15.7: start runs the server from gateway.yaml: seeds every section with secrets from the environment, loads the custom plugin, serves and stops on SIGTERM', async () => {
    const gateway = await spawnGateway(process.execPath, [...CLI, 'start', '--config', config], { env: SECRET_ENV, waitFor: 'seed: applied' });
    try {
      const admin = { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' };
      const get = async (path: string) => {
        const response = await fetch(`${gateway.base}${path}`, { headers: admin });
        assert.equal(response.status, 200, `${path}: ${response.status}`);
        return (await response.json()) as Record<string, unknown>;
      };
      const provider = (await get('/v1/admin/providers/fake')) as { api_keys: Array<{ api_key: string }> };
      assert.equal(provider.api_keys[0]?.api_key, `sk-...${PROVIDER_KEY.slice(-4)}`, 'the provider key is the environment variable, masked');
      assert.equal(((await get('/v1/admin/routes/chat')) as { type: string }).type, 'chat');
      const policy = (await get('/v1/admin/applications/shop/policy')) as { mode: string; processors: Record<string, unknown> };
      assert.equal(policy.mode, 'reject');
      assert.deepEqual(Object.keys(policy.processors), ['banned_words']);
      const registryPolicies = (await get('/v1/admin/mcp/registries/tools/policies')) as { security_filters: { mode: string } };
      assert.equal(registryPolicies.security_filters.mode, 'reject');

      const created = await fetch(`${gateway.base}/v1/admin/applications/shop/keys`, { method: 'POST', headers: admin, body: '{}' });
      const developerKey = ((await created.json()) as { key: string }).key;
      const chat = (text: string) =>
        fetch(`${gateway.base}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${developerKey}`, 'x-gateway-route': 'chat', 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] }),
        });
      const answered = await chat('Hello');
      assert.equal(answered.status, 200);
      assert.equal(fake.requests.at(-1)?.headers.authorization, `Bearer ${PROVIDER_KEY}`);
      const rejected = await chat('a forbidden word');
      assert.equal(rejected.status, 400);
      assert.equal(((await rejected.json()) as { error: { code: string } }).error.code, 'guardrail_rejected');
      assert.ok(!gateway.output().includes(PROVIDER_KEY) && !gateway.output().includes(REGISTRY_TOKEN), 'a secret was logged');
    } finally {
      gateway.child.kill('SIGTERM');
    }
    assert.equal(await exitWithin(gateway, 20_000), 0);
    assert.equal(findLogLine(gateway.output(), 'shutting down')?.signal, 'SIGTERM');
  });
});
