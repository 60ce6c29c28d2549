/**
 * The replicas soak: two registries kept in step with one PostgreSQL table by syncRegistry (replica b through a TCP
 * relay), served while a writer publishes new versions on a PRNG schedule and replica b's connections are killed
 * twice (the relay dropping them, then the server terminating them). Shared by test/stores/replicas-soak.test.ts
 * (short) and scripts/soak.ts (long).
 */
import pg from 'pg';
import { PromptRegistry, syncRegistry } from '../../src/index.js';
import type { GetPromptResult, Logger, RegistrySync } from '../../src/index.js';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStore } from '../../src/stores/postgres/store.js';
import { percentile, prng } from '../support/schedule.js';
import { waitFor } from '../support/wait.js';
import { startRelay } from './pg-proxy.js';

/** Options of {@link runReplicasSoak}. */
export interface ReplicasSoakOptions {
  /** The database (a throwaway one: the soak creates its table there). */
  url: string;
  /** Gets served by each replica while the edits arrive. */
  gets: number;
  /** New versions published while the gets run. */
  edits: number;
  /** Which edit schedule: the PRNG's start state. */
  schedule: number;
  /**
   * How many times replica b's connections fail (default 2): dropped by the relay, terminated by the server, frozen by
   * the relay (open and silent), in turn.
   */
  kills?: number;
  /** How long to wait for a replica to catch up (default 30 s: only a broken build reaches it). */
  waitMs?: number;
}

/** One replica's side of a soak. */
export interface ReplicaReport {
  name: string;
  /** The version each prompt is served at once the replica has caught up. */
  final: Record<string, number | undefined>;
  /** What a last get of each prompt answers: `<name> ok` when it is exactly the final version. */
  answers: string[];
  /** The listener losing its connection and listening again, and the sync retrying a failed read. */
  events: { listenerLost: number; listenerRecovered: number; syncRetries: number };
  /** Milliseconds from a version's commit to the replica serving it (or a newer one), per edit. */
  delay: { edits: number; p50: number | undefined; p99: number | undefined; max: number | undefined };
}

/** What a replicas soak saw. */
export interface ReplicasSoakReport {
  gets: number;
  /** Gets that failed (every prompt exists throughout). */
  failures: string[];
  /** Responses that are not exactly one of the versions written. */
  foreign: string[];
  /** Responses older than one the same sequential loop was served before. */
  backwards: string[];
  servedVersions: number;
  /** Each kill of replica b's connections: how, and how many connections it closed. */
  kills: { how: 'relay dropped' | 'server terminated' | 'relay frozen'; connections: number }[];
  /** The last version of every prompt. */
  expected: Record<string, number>;
  replicas: ReplicaReport[];
  ms: number;
}

const PROMPTS = ['alpha', 'beta', 'gamma', 'delta'] as const;
const WHO = 'Ada';
const TABLE = 'soak_prompts';

const template = (name: string, version: number): string => `${name} v${version}: hello {{who}}, step by step.`;
const definition = (name: string, version: number) => ({
  name,
  description: `${name} v${version}`,
  arguments: [{ name: 'who', required: true }],
  messages: [{ role: 'user' as const, content: template(name, version) }],
});
const key = (result: Pick<GetPromptResult, 'description' | 'messages'>): string =>
  JSON.stringify({ description: result.description, messages: result.messages });
const rendering = (name: string, version: number): string =>
  key({
    description: `${name} v${version}`,
    messages: [{ role: 'user', content: { type: 'text', text: template(name, version).replace('{{who}}', WHO) } }],
  });

/** A logger that counts each event it is given. */
function counting(counts: Map<string, number>): Logger {
  const at = (fields: Record<string, unknown>): void => {
    const event = String(fields['event']);
    counts.set(event, (counts.get(event) ?? 0) + 1);
  };
  return { info: at, warn: at, error: at };
}

/**
 * A pool that reports nothing it cannot handle (a killed idle connection is an `error` event on it), whose queries give
 * up on a connection that went silent.
 */
function pool(url: string, application: string): pg.Pool {
  const created = new pg.Pool({ connectionString: url, max: 3, application_name: application, query_timeout: 5_000 });
  created.on('error', () => {});
  return created;
}

/** Runs one soak and reports what it saw; it asserts nothing itself (the test and the script do). */
export async function runReplicasSoak(options: ReplicasSoakOptions): Promise<ReplicasSoakReport> {
  const started = performance.now();
  const waitMs = options.waitMs ?? 30_000;
  const kills = options.kills ?? 2;
  const random = prng(options.schedule);
  const cleanups: (() => unknown)[] = [];
  try {
    const relay = await startRelay(options.url);
    cleanups.unshift(() => relay.close());
    const pools = {
      writer: pool(options.url, 'soak-writer'),
      a: pool(options.url, 'soak-replica-a'),
      b: pool(relay.url, 'soak-replica-b'),
    };
    cleanups.unshift(() => Promise.allSettled(Object.values(pools).map((p) => p.end())));
    const timing = { heartbeatMs: 1_000, reconnect: { minMs: 50, maxMs: 1_000 } };
    const counts = { a: new Map<string, number>(), b: new Map<string, number>() };
    const stores: Record<'writer' | 'a' | 'b', PostgresPromptStore> = {
      writer: createPostgresPromptStore({ pool: pools.writer, table: TABLE, ...timing }),
      a: createPostgresPromptStore({ pool: pools.a, table: TABLE, ...timing, logger: counting(counts.a) }),
      b: createPostgresPromptStore({ pool: pools.b, table: TABLE, ...timing, logger: counting(counts.b) }),
    };
    for (const store of Object.values(stores)) cleanups.unshift(() => store.close());
    await stores.writer.migrate();

    /** Renderings of every version written, by prompt: rendering -> version. */
    const valid = new Map<string, Map<string, number>>(PROMPTS.map((name) => [name, new Map()]));
    const written = new Map<string, number>();
    const mismatched: string[] = [];
    /** Publishes the next version of `name` (registered as valid first); resolves once committed, with its time. */
    const publish = async (name: string): Promise<{ version: number; committedAt: number }> => {
      const version = (written.get(name) ?? 0) + 1;
      written.set(name, version);
      valid.get(name)!.set(rendering(name, version), version);
      const stored = await stores.writer.put(definition(name, version));
      if (stored.version !== version) mismatched.push(`${name}: stored v${stored.version} for v${version}`);
      return { version, committedAt: performance.now() };
    };
    for (const name of PROMPTS) await publish(name);

    interface Replica {
      name: string;
      registry: PromptRegistry;
      sync: RegistrySync;
      /** Edits not served yet: version -> commit time, by prompt. */
      waiting: Map<string, Map<number, number>>;
      delays: number[];
    }
    const replicas: Replica[] = [];
    for (const name of ['a', 'b'] as const) {
      const registry = new PromptRegistry();
      const sync = await syncRegistry(stores[name], registry, { logger: counting(counts[name]) });
      cleanups.unshift(() => sync.close());
      const replica: Replica = { name, registry, sync, waiting: new Map(), delays: [] };
      registry.onChange(() => queueMicrotask(() => record(replica)));
      replicas.push(replica);
    }
    const servedVersion = (replica: Replica, name: string): number | undefined => {
      const match = /v(\d+)$/.exec(replica.registry.get(name)?.description ?? '');
      return match === null ? undefined : Number(match[1]);
    };
    /** Records the delay of every waiting edit the replica now serves (or serves a newer version of). */
    function record(replica: Replica): void {
      const now = performance.now();
      for (const [name, edits] of replica.waiting) {
        const served = servedVersion(replica, name) ?? 0;
        for (const [version, committedAt] of edits) {
          if (version > served) continue;
          replica.delays.push(Math.max(0, now - committedAt));
          edits.delete(version);
        }
      }
    }

    const failures: string[] = [];
    const foreign: string[] = [];
    const backwards: string[] = [];
    const seen = new Set<string>();
    let done = 0;
    // The gets follow the edits: (k + 1)/(edits + 1) of them may run once k edits are committed.
    let editsDone = 0;
    let writing = true;
    const waiters: (() => void)[] = [];
    const edited = (): void => {
      for (const wake of waiters.splice(0)) wake();
    };
    const mayGet = (): boolean =>
      !writing || done < Math.floor(((editsDone + 1) * 2 * options.gets) / (options.edits + 1));
    const loops = replicas.flatMap((replica) =>
      [0, 1].map(async (loop) => {
        const last = new Map<string, number>();
        let ticket = loop;
        while (done < 2 * options.gets) {
          while (!mayGet()) await new Promise<void>((resolve) => waiters.push(resolve));
          if (done >= 2 * options.gets) break;
          done++;
          const name = PROMPTS[ticket++ % PROMPTS.length]!;
          let answer: string;
          try {
            answer = key(await replica.registry.getPrompt(name, { who: WHO }));
          } catch (error) {
            failures.push(`${replica.name} ${name}: ${error instanceof Error ? error.message : String(error)}`);
            continue;
          }
          const version = valid.get(name)!.get(answer);
          if (version === undefined) {
            foreign.push(`${replica.name} ${name}: ${answer.slice(0, 200)}`);
            continue;
          }
          seen.add(`${replica.name}:${name}@${version}`);
          if (version < (last.get(name) ?? 0))
            backwards.push(`${replica.name} ${name}: v${version} after v${last.get(name)}`);
          last.set(name, version);
          // A get answers from memory: yield to the I/O the replicas wait for, as a server between requests does.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );

    const killed: ReplicasSoakReport['kills'] = [];
    const killAt = new Set(
      Array.from({ length: kills }, (_, i) => Math.floor(((i + 1) * options.edits) / (kills + 1))),
    );
    const kill = async (): Promise<void> => {
      // Each failure hits a listening replica: b has listened again after the one before.
      await waitFor(
        () => (counts.b.get('prompt_listener_recovered') ?? 0) >= killed.length,
        waitMs,
        'replica b to listen again',
      );
      if (killed.length % 3 === 0) {
        killed.push({ how: 'relay dropped', connections: relay.kill() });
        return;
      }
      if (killed.length % 3 === 2) {
        killed.push({ how: 'relay frozen', connections: relay.freeze() });
        return;
      }
      const { rows } = await pools.writer.query(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'soak-replica-b' AND datname = current_database()`,
      );
      killed.push({ how: 'server terminated', connections: Number(rows[0]?.n ?? 0) });
    };
    const publishWatched = async (name: string): Promise<void> => {
      // Waiting before the commit: a replica may serve it before put resolves (a delay of 0).
      const version = (written.get(name) ?? 0) + 1;
      const pending = replicas.map((r) => {
        const edits = r.waiting.get(name) ?? new Map<number, number>();
        r.waiting.set(name, edits);
        return edits;
      });
      for (const edits of pending) edits.set(version, Number.POSITIVE_INFINITY);
      const { committedAt } = await publish(name);
      for (const edits of pending) if (edits.has(version)) edits.set(version, committedAt);
      for (const replica of replicas) record(replica);
    };
    const caughtUp = (what: string) =>
      waitFor(
        () =>
          replicas.every((r) => PROMPTS.every((name) => servedVersion(r, name) === written.get(name))) &&
          replicas.every((r) => [...r.waiting.values()].every((edits) => edits.size === 0)),
        waitMs,
        what,
      );

    const writer = (async () => {
      for (let i = 1; i <= options.edits; i++) {
        if (killAt.has(i)) await kill();
        // Bursts of edits to one prompt, and edits to several: some wait for both replicas to serve them.
        const name = PROMPTS[Math.floor(random() * PROMPTS.length)]!;
        await publishWatched(name);
        if (random() < 0.2) await caughtUp(`both replicas to serve edit ${i}`);
        editsDone++;
        edited();
      }
    })().finally(() => {
      writing = false;
      edited();
    });
    await Promise.all([...loops, writer]);

    // The end: one more version of every prompt, and both replicas serving all of them.
    for (const name of PROMPTS) await publishWatched(name);
    await caughtUp('both replicas to converge on the last versions');
    const expected = Object.fromEntries(PROMPTS.map((name) => [name, written.get(name)!]));
    const reports: ReplicaReport[] = [];
    for (const replica of replicas) {
      const answers: string[] = [];
      for (const name of PROMPTS) {
        try {
          const answer = key(await replica.registry.getPrompt(name, { who: WHO }));
          answers.push(answer === rendering(name, expected[name]!) ? `${name} ok` : `${name}: ${answer.slice(0, 200)}`);
        } catch (error) {
          answers.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      const count = counts[replica.name as 'a' | 'b'];
      reports.push({
        name: replica.name,
        events: {
          listenerLost: count.get('prompt_listener_lost') ?? 0,
          listenerRecovered: count.get('prompt_listener_recovered') ?? 0,
          syncRetries: count.get('prompt_sync_failed') ?? 0,
        },
        final: Object.fromEntries(PROMPTS.map((name) => [name, servedVersion(replica, name)])),
        answers,
        delay: {
          edits: replica.delays.length,
          p50: percentile(replica.delays, 50),
          p99: percentile(replica.delays, 99),
          max: percentile(replica.delays, 100),
        },
      });
    }
    return {
      gets: done,
      failures: [...failures, ...mismatched],
      foreign,
      backwards,
      servedVersions: seen.size,
      kills: killed,
      expected,
      replicas: reports,
      ms: performance.now() - started,
    };
  } finally {
    for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch(() => undefined);
  }
}
