// No import cycles in src, plugins and examples: madge builds the import graph (type-only imports included) and lists every cycle.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

interface MadgeResult {
  obj(): Record<string, string[]>;
  circular(): string[][];
}
type Madge = (paths: string[], config: Record<string, unknown>) => Promise<MadgeResult>;

const madge = createRequire(import.meta.url)('madge') as Madge;

describe('import graph', () => {
  it('15.7: src, plugins and examples import nothing in a circle, and plugins never import the package entry', async function () {
    this.timeout(120_000);
    const graph = await madge(['src', 'plugins', 'examples'], { fileExtensions: ['ts'], tsConfig: 'tsconfig.json' });
    const deps = graph.obj();
    // The graph is real: NodeNext `.js` specifiers resolve to the `.ts` files.
    assert.ok(deps['src/index.ts']?.includes('src/create-gateway.ts'), 'madge resolved src/index.ts imports');
    assert.ok(Object.keys(deps).length > 100, `madge saw ${Object.keys(deps).length} files`);
    assert.deepEqual(graph.circular().map((cycle) => cycle.join(' > ')), []);
    const intoEntry = Object.entries(deps).filter(([file, imports]) => file.startsWith('plugins/') && imports.includes('src/index.ts'));
    assert.deepEqual(intoEntry.map(([file]) => file), [], 'plugins import src/plugins/plugin-api.ts, never src/index.ts');
  });
});
