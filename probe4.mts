import { runReplicasSoak } from './test/stores/replicas-soak.ts';
import { startTestDatabase } from './test/stores/pg-server.ts';
const db = await startTestDatabase();
try {
  const r = await runReplicasSoak({ url: db.url, gets: 2000, edits: 60, schedule: 5 });
  console.log(JSON.stringify(r));
} finally { await db.close(); }
