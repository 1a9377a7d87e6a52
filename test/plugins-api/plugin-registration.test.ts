// gateway.register(): duplicates, unmet dependencies and invalid plugins are coded errors; guardrails are set up once.
import assert from 'node:assert/strict';
import { createGateway, defineGuardrail, defineProvider, defineStorage, memoryStorage, type GatewayPlugin, type StorageAdapter } from '../../src/index.js';

const echo = (name: string, dependencies: string[] = []) =>
  defineGuardrail<{ word: string }, { found: boolean }>({
    name,
    dependencies,
    defaultThreshold: 0.5,
    optionsSchema: { type: 'object', properties: { word: { type: 'string', default: 'bad' } }, additionalProperties: false },
    evaluate: (text, { options }) => ({ results: { found: text.includes(options.word) }, flagged: text.includes(options.word) }),
  });

describe('plugin registration', () => {
  it('rejects a duplicate name with plugin_duplicate', async () => {
    const gateway = createGateway({ builtins: false });
    await gateway.register(echo('words'));
    assert.throws(() => gateway.register(echo('words')), { code: 'plugin_duplicate' });
    await gateway.close();
  });

  it('rejects an unmet dependency with plugin_dependency_missing, and accepts it once the dependency exists', async () => {
    const gateway = createGateway({ builtins: false });
    assert.throws(() => gateway.register(echo('child', ['parent'])), { code: 'plugin_dependency_missing', message: /child depends on parent/ });
    await gateway.register(echo('parent'));
    await gateway.register(echo('child', ['parent']));
    assert.deepEqual(gateway.guardrailEngine.names(), ['parent', 'child']);
    await gateway.close();
  });

  it('rejects plugins with a bad name or kind, and guardrails without evaluate()', async () => {
    const gateway = createGateway({ builtins: false });
    assert.throws(() => gateway.register({ ...echo('x'), name: 'has space' }), { code: 'plugin_invalid' });
    assert.throws(() => gateway.register({ ...echo('x'), kind: 'nope' as 'guardrail' }), { code: 'plugin_invalid' });
    assert.throws(() => gateway.register({ ...echo('y'), evaluate: undefined as never }), { code: 'plugin_invalid', message: /guardrail y has no evaluate\(\)/ });
    await gateway.close();
  });

  it('refuses every invalid plugin at once, as register() promises, and leaves its name free', async () => {
    const gateway = createGateway({ builtins: false });
    const invalid: Array<[GatewayPlugin, RegExp]> = [
      [{ ...echo('g'), evaluate: undefined as never }, /guardrail g has no evaluate\(\)/],
      [{ ...echo('g'), defaultThreshold: undefined as never }, /guardrail g has no defaultThreshold/],
      [{ ...echo('g'), defaultThreshold: 7 }, /defaultThreshold of guardrail g must be a number from 0 to 1/],
      [{ ...echo('g'), optionsSchema: { type: 'no-such-type' } }, /optionsSchema of guardrail g cannot be compiled/],
      [{ ...echo('g'), setup: 'soon' as never }, /setup of guardrail g must be a function/],
      [{ ...echo('g'), dependencies: 'parent' as never }, /dependencies of g must be an array/],
      [{ name: 'p', kind: 'provider', openaiCompatible: true } as unknown as GatewayPlugin, /provider p has no buildRequest\(\)/],
      [defineProvider({ name: 'p', openaiCompatible: 'yes' as never, buildRequest: () => ({ url: 'http://x', method: 'POST', headers: {}, body: '' }) }), /openaiCompatible of provider p/],
      [defineProvider({ name: 'p', openaiCompatible: true, buildRequest: () => ({ url: 'http://x', method: 'POST', headers: {}, body: '' }), countTokens: {} as never }), /countTokens of provider p/],
      [{ name: 's', kind: 'storage' } as unknown as GatewayPlugin, /storage plugin s has no create\(\)/],
    ];
    for (const [plugin, message] of invalid) {
      // Thrown by the call itself: a caller that does not await it (createGateway's options.plugins, a loop) still sees it.
      assert.throws(() => void gateway.register(plugin), { code: 'plugin_invalid', message }, plugin.name);
    }
    assert.deepEqual(gateway.plugins.ofKind('guardrail'), [], 'no refused guardrail is recorded');
    assert.deepEqual(gateway.plugins.ofKind('provider'), [], 'no refused provider is recorded');
    await gateway.register(echo('g'));
    assert.deepEqual(gateway.guardrailEngine.names(), ['g'], 'the name of a refused plugin is free for a valid one');
    await gateway.close();
  });

  it('refuses an invalid plugin among options.plugins when createGateway is called', () => {
    assert.throws(() => createGateway({ builtins: false, plugins: [{ ...echo('z'), evaluate: undefined as never }] }), { code: 'plugin_invalid' });
    assert.throws(() => createGateway({ builtins: false, plugins: [{ name: 'p', kind: 'provider', openaiCompatible: true } as unknown as GatewayPlugin] }), { code: 'plugin_invalid' });
  });

  it('validates guardrail options against the plugin schema and fills its defaults', async () => {
    const gateway = createGateway({ builtins: false, plugins: [echo('words')] });
    await gateway.ready;
    assert.deepEqual((await gateway.guardrailEngine.evaluate('words', 'a bad day')).results, { found: true });
    assert.deepEqual((await gateway.guardrailEngine.evaluate('words', 'a bad day', { options: { word: 'good' } })).results, { found: false });
    await assert.rejects(gateway.guardrailEngine.evaluate('words', 'x', { options: { nope: 1 } }), { code: 'invalid_value' });
    await gateway.close();
  });

  it('runs setup() once at registration, and ready waits for it', async () => {
    let setups = 0;
    const slow = defineGuardrail({
      name: 'slow',
      defaultThreshold: 0.5,
      setup: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        setups++;
      },
      evaluate: () => ({ results: {}, flagged: false }),
    });
    const gateway = createGateway({ builtins: false, plugins: [slow] });
    await gateway.ready;
    assert.equal(setups, 1);
    await gateway.guardrailEngine.evaluate('slow', 'a');
    await gateway.guardrailEngine.evaluate('slow', 'b');
    assert.equal(setups, 1);
    await gateway.close();
  });

  it('uses a storage plugin named in options.storage', async () => {
    let created = 0;
    const counting = defineStorage<{ label: string }>({
      name: 'counting-memory',
      create: (options): StorageAdapter => {
        created++;
        assert.equal(options.label, 'x');
        return memoryStorage();
      },
    });
    const gateway = createGateway({ builtins: false, plugins: [counting], storage: { use: 'counting-memory', options: { label: 'x' } } });
    await gateway.ready;
    assert.equal(created, 1);
    await gateway.storage.set('k', 1);
    assert.equal(await gateway.storage.get('k'), 1);
    await gateway.close();
    assert.throws(() => createGateway({ builtins: false, storage: { use: 'missing' } }), { code: 'config_invalid' });
  });

  it('refuses admin keys that are too short or have an unknown role', () => {
    assert.throws(() => createGateway({ adminKeys: [{ key: 'short', role: 'admin' }] }), { code: 'config_invalid' });
    assert.throws(() => createGateway({ adminKeys: [{ key: 'long-enough-key-0123456789', role: 'root' as 'admin' }] }), { code: 'config_invalid' });
  });

  it('a corrupt storage rejects ready and answers requests with a coded 500', async () => {
    const broken: StorageAdapter = { ...memoryStorage(), init: () => Promise.reject(new Error('disk on fire')) };
    const gateway = createGateway({ builtins: false, storage: broken });
    await assert.rejects(gateway.ready, /disk on fire/);
  });
});
