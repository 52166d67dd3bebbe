/** Shard 1 of 4 of the test files (see test/support/shard.ts). */
import { runShard } from '../support/shard.js';

await runShard(0, 4);
