/**
 * Replicas under load (short; `npm run soak` runs the long one): two registries following one PostgreSQL table while
 * new versions arrive and one replica's connections are killed twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from './pg-database.js';
import type { TestDatabase } from './pg-server.js';
import { runReplicasSoak } from './replicas-soak.js';

const GETS = 2_000;
const EDITS = 60;

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe('replicas following one PostgreSQL store under load', () => {
  it('serve every get as exactly an old or a new version through two connection kills, and converge on the last versions', async () => {
    const report = await runReplicasSoak({ url: db.url, gets: GETS, edits: EDITS, schedule: 5 });
    expect(report.gets).toBe(2 * GETS);
    expect(report.failures).toEqual([]);
    expect(report.foreign).toEqual([]);
    expect(report.backwards).toEqual([]);
    // Both kills closed live connections of replica b (its pool's and its listener's).
    expect(report.kills.map((k) => k.how)).toEqual(['relay dropped', 'server terminated']);
    expect(report.kills.every((k) => k.connections > 0)).toBe(true);
    // Its listener noticed each loss and listened again (then read everything again).
    const b = report.replicas.find((r) => r.name === 'b')!;
    expect(b.events.listenerLost).toBeGreaterThanOrEqual(2);
    expect(b.events.listenerRecovered).toBeGreaterThanOrEqual(2);
    // The replicas moved while the gets ran, and both end at the last version of every prompt.
    expect(report.servedVersions).toBeGreaterThan(8);
    for (const replica of report.replicas) {
      expect(replica.final).toEqual(report.expected);
      expect(replica.answers).toEqual(Object.keys(report.expected).map((name) => `${name} ok`));
      expect(replica.delay.edits).toBe(EDITS + Object.keys(report.expected).length);
    }
  });
});
