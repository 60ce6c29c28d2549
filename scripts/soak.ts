/**
 * `npm run soak`: the long soaks (the short ones run in `npm test`), with their numbers.
 *
 *   npm run soak                                   # both: files (10,000 gets per transport, 200 rewrites), replicas
 *   npm run soak -- files --gets 2000 --rewrites 60
 *   npm run soak -- replicas --edits 300 --gets 20000 --kills 6 --schedule 3
 *
 * Exits 1 when a guarantee does not hold (a failed get, a response that is no version written, a replica that does
 * not converge), printing what was seen; prints a JSON report either way. Uses DATABASE_URL's server when set, else
 * starts an embedded PostgreSQL.
 */
import { parseArgs } from 'node:util';
import { runFilesSoak } from '../test/fs/soak.js';
import type { FilesSoakReport } from '../test/fs/soak.js';
import { runReplicasSoak } from '../test/stores/replicas-soak.js';
import type { ReplicasSoakReport } from '../test/stores/replicas-soak.js';
import { startTestDatabase } from '../test/stores/pg-server.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    gets: { type: 'string' },
    rewrites: { type: 'string', default: '200' },
    edits: { type: 'string', default: '200' },
    kills: { type: 'string', default: '2' },
    schedule: { type: 'string', default: '1' },
    'debounce-ms': { type: 'string', default: '20' },
  },
});

function count(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got '${text}'`);
  return n;
}

const which = positionals.length === 0 ? ['files', 'replicas'] : positionals;
for (const w of which) if (w !== 'files' && w !== 'replicas') throw new Error(`unknown soak '${w}' (files, replicas)`);
const schedule = count('schedule', values.schedule, 1);

/** The broken guarantees of a files soak (empty: all hold). */
function filesProblems(r: FilesSoakReport): string[] {
  const problems = [
    ...r.failures.map((f) => `failed: ${f}`),
    ...r.foreign.map((f) => `not a version written: ${f}`),
    ...r.backwards.map((f) => `went back: ${f}`),
  ];
  for (const [what, state] of [
    ['end', r.end],
    ['after breaking', r.afterBreaking],
  ] as const) {
    if (JSON.stringify(state.registry) !== JSON.stringify(r.end.expected))
      problems.push(`${what}: registry at ${JSON.stringify(state.registry)}`);
    for (const answer of [...state.sdk, ...state.http])
      if (!answer.endsWith(' ok')) problems.push(`${what}: ${answer}`);
  }
  return problems;
}

/** The broken guarantees of a replicas soak (empty: all hold). */
function replicasProblems(r: ReplicasSoakReport): string[] {
  return [
    ...r.failures.map((f) => `failed: ${f}`),
    ...r.foreign.map((f) => `not a version written: ${f}`),
    ...r.backwards.map((f) => `went back: ${f}`),
    ...r.replicas.flatMap((replica) =>
      JSON.stringify(replica.final) === JSON.stringify(r.expected)
        ? []
        : [`${replica.name} ended at ${JSON.stringify(replica.final)}`],
    ),
  ];
}

let failed = false;
if (which.includes('files')) {
  const report = await runFilesSoak({
    gets: count('gets', values.gets, 10_000),
    rewrites: count('rewrites', values.rewrites, 200),
    schedule,
    debounceMs: count('debounce-ms', values['debounce-ms'], 20),
  });
  const problems = filesProblems(report);
  console.log(JSON.stringify({ soak: 'files', ...report, failures: report.failures.length, problems }, null, 2));
  failed ||= problems.length > 0;
}
if (which.includes('replicas')) {
  const db = await startTestDatabase();
  try {
    const report = await runReplicasSoak({
      url: db.url,
      gets: count('gets', values.gets, 10_000),
      edits: count('edits', values.edits, 200),
      kills: count('kills', values.kills, 2),
      schedule,
    });
    const problems = replicasProblems(report);
    console.log(JSON.stringify({ soak: 'replicas', ...report, failures: report.failures.length, problems }, null, 2));
    failed ||= problems.length > 0;
  } finally {
    await db.close();
  }
}
process.exitCode = failed ? 1 : 0;
