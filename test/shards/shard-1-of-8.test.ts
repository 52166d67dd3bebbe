/** One of the shards of the test files (test/support/shard.ts); the name says which. */
import { runShardNamed } from '../support/shard.js';

await runShardNamed(import.meta.url);
