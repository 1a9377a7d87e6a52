// Runs the storage contract against the in-memory adapter.
import { memoryStorage } from '../../src/storage/memory-storage.js';
import { storageContract } from './storage-contract.js';

storageContract('memory', async () => {
  const adapter = memoryStorage();
  return { adapter, cleanup: () => adapter.close() };
});
