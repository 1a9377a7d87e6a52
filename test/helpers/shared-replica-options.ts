// Gateway options for replicas in one test process: one fresh PostgreSQL schema and one Redis key prefix, removed after the suite.
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import type { GatewayOptions } from '../../src/index.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from './postgres-test.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix } from './redis-test.js';

/**
 * Call inside a `describe`: requires PostgreSQL and Redis (pending without them, failing under CI=true), and answers
 * `options()`, which makes the options of one more replica on the suite's schema and key prefix (each call a new
 * storage adapter, as each replica has its own), with the schema and prefix. Both are removed after the suite.
 * @example
 * const { options } = sharedReplicaOptions();
 * const a = await createTestGateway(options()), b = await createTestGateway(options());
 */
export function sharedReplicaOptions(extra: GatewayOptions = {}): { options: () => GatewayOptions; schema: string; prefix: string } {
  requirePostgres();
  requireRedis();
  const schema = testSchemaName();
  const prefix = testKeyPrefix();
  after(async () => {
    await deleteKeys(prefix);
    await dropSchema(schema);
  });
  const options = (): GatewayOptions => ({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 3 }), redis: { url: TEST_REDIS_URL, keyPrefix: prefix }, ...extra });
  return { options, schema, prefix };
}
