/**
 * The prompt-file soak: gets through real SDK servers and clients (v1 and v2, in memory) and through a node:http
 * server on 127.0.0.1, while a watched directory's files are rewritten on a PRNG schedule (atomic renames, in-place
 * writes, ConfigMap `..data` symlink swaps, broken edits). Shared by test/fs/soak.test.ts (short) and scripts/soak.ts.
 */
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PromptRegistry } from '../../src/index.js';
import type { GetPromptResult } from '../../src/index.js';
import { watchPromptDirectory } from '../../src/fs/index.js';
import { createNodeHandler } from '../../src/http/index.js';
import { attachPrompts } from '../../src/mcp/index.js';
import { createTestClient, linkedPair } from '../mcp/fixtures/clients.js';
import type { ClientKind } from '../mcp/fixtures/clients.js';
import { createTestServer } from '../mcp/fixtures/servers.js';
import { prng } from '../support/schedule.js';
import { waitFor } from '../support/wait.js';

/** Options of {@link runFilesSoak}. */
export interface FilesSoakOptions {
  /** Gets through the SDK adapter, and as many again through HTTP. */
  gets: number;
  /** Edits of the files while the gets run (each an atomic rename, an in-place write, a ConfigMap swap or a break). */
  rewrites: number;
  /** Which edit schedule: the PRNG's start state. */
  schedule: number;
  /** The watcher's debounce window (default 20 ms). */
  debounceMs?: number;
  /** Concurrent request loops per transport (default 4). */
  loops?: number;
  /** How long to wait for the watcher to apply an edit (default 30 s: only a broken build reaches it). */
  waitMs?: number;
}

/** What a files soak saw. */
export interface FilesSoakReport {
  gets: { sdk: number; http: number };
  /** Requests that failed (an error, a non-200 status), for prompts that all exist throughout. */
  failures: string[];
  /** Responses that are not exactly one of the versions written. */
  foreign: string[];
  /** Responses older than one the same sequential loop was served before. */
  backwards: string[];
  /** Distinct (prompt, version) pairs served during the gets. */
  servedVersions: number;
  edits: Record<EditKind, number>;
  /** Registry changes the watcher made. */
  reloads: number;
  /** The last good version of each prompt, and what each transport serves once the watcher has settled on it. */
  end: {
    expected: Record<string, number>;
    registry: Record<string, number | undefined>;
    sdk: string[];
    http: string[];
  };
  /** The same after a broken edit of every file on top of the last good state. */
  afterBreaking: { registry: Record<string, number | undefined>; sdk: string[]; http: string[]; diagnosed: string[] };
  ms: number;
}

type EditKind = 'atomic' | 'in-place' | 'configmap' | 'broken';
type Format = 'json' | 'yaml' | 'md';
type Breakage = 'syntax' | 'template';

interface SoakPrompt {
  name: string;
  file: string;
  format: Format;
  /** How the file is written: renamed over, written in place, or behind the ConfigMap's `..data` link. */
  via: 'atomic' | 'in-place' | 'either' | 'configmap';
}

const PROMPTS: readonly SoakPrompt[] = [
  { name: 'atomic', file: 'atomic.json', format: 'json', via: 'atomic' },
  { name: 'in-place', file: 'in-place.yaml', format: 'yaml', via: 'in-place' },
  { name: 'notes', file: 'notes.md', format: 'md', via: 'either' },
  { name: 'map-one', file: 'map-one.json', format: 'json', via: 'configmap' },
  { name: 'map-two', file: 'map-two.yaml', format: 'yaml', via: 'configmap' },
];
const FILES = PROMPTS.filter((p) => p.via !== 'configmap');
const MAPPED = PROMPTS.filter((p) => p.via === 'configmap');
const WHO = 'Ada';
const FILLER = 'Answer in plain words and keep it short. '.repeat(12).trim();

const template = (name: string, version: number): string => `${name} v${version}: hello {{who}}. ${FILLER}`;

/** The file text of version `version` of `p`, or a broken edit of it. */
function fileText(p: SoakPrompt, version: number, broken?: Breakage): string {
  const description = `${p.name} v${version}`;
  const text = broken === 'template' ? `${p.name}: {{#open}}never closed` : template(p.name, version);
  if (broken === 'syntax') {
    if (p.format === 'json') return `{\n  "name": "${p.name}",\n  "messages": [\n`;
    if (p.format === 'yaml') return `name: ${p.name}\nmessages: [{role: user, content: "never closed\n`;
    return `---\nname: ${p.name}\nmessages: [\n`;
  }
  if (p.format === 'json') {
    const definition = {
      name: p.name,
      description,
      arguments: [{ name: 'who', required: true }],
      messages: [{ role: 'user', content: text }],
    };
    return `${JSON.stringify(definition, null, 2)}\n`;
  }
  const head = `name: ${p.name}\ndescription: ${description}\narguments:\n  - name: who\n    required: true\n`;
  if (p.format === 'yaml') return `${head}messages:\n  - role: user\n    content: ${JSON.stringify(text)}\n`;
  return `---\n${head}---\n${text}\n`;
}

/** What a get of version `version` of `name` answers (the fields compared). */
function rendering(name: string, version: number): string {
  const text = template(name, version).replace('{{who}}', WHO);
  return key({ description: `${name} v${version}`, messages: [{ role: 'user', content: { type: 'text', text } }] });
}

function key(result: Pick<GetPromptResult, 'description' | 'messages'>): string {
  return JSON.stringify({ description: result.description, messages: result.messages });
}

/**
 * Runs one soak and reports what it saw; it asserts nothing itself (the test and the script do). Every request is
 * checked against the renderings of every good version written so far.
 */
export async function runFilesSoak(options: FilesSoakOptions): Promise<FilesSoakReport> {
  const started = performance.now();
  const debounceMs = options.debounceMs ?? 20;
  const loops = options.loops ?? 4;
  const waitMs = options.waitMs ?? 30_000;
  const random = prng(options.schedule);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  const dir = await mkdtemp(join(tmpdir(), 'mcp-prompt-kit-soak-'));
  const cleanups: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];
  try {
    /** Renderings of every good version written, by prompt: rendering -> version. */
    const valid = new Map<string, Map<string, number>>(PROMPTS.map((p) => [p.name, new Map()]));
    const written = new Map<string, number>();
    const lastGood = new Map<string, number>();
    const nextVersion = (p: SoakPrompt): number => {
      const version = (written.get(p.name) ?? 0) + 1;
      written.set(p.name, version);
      return version;
    };
    /** The text of the next good version of `p`, registered as valid before any reader can see it. */
    const good = (p: SoakPrompt): { text: string; version: number } => {
      const version = nextVersion(p);
      valid.get(p.name)!.set(rendering(p.name, version), version);
      lastGood.set(p.name, version);
      return { text: fileText(p, version), version };
    };

    // The directory: two plain files, one either way, two behind a ConfigMap's `..data` link.
    let generation = 1;
    const generationDir = (n: number): string => `..${String(n).padStart(5, '0')}`;
    await mkdir(join(dir, generationDir(generation)));
    for (const p of FILES) await writeFile(join(dir, p.file), good(p).text);
    for (const p of MAPPED) await writeFile(join(dir, generationDir(generation), p.file), good(p).text);
    await symlink(generationDir(generation), join(dir, '..data'));
    for (const p of MAPPED) await symlink(`..data/${p.file}`, join(dir, p.file));

    const registry = new PromptRegistry();
    let reloads = 0;
    const watcher = watchPromptDirectory(dir, registry, { debounceMs, onChange: () => reloads++ });
    cleanups.unshift(() => watcher.close());
    await watcher.ready;
    const served = (name: string): number | undefined => {
      const match = /v(\d+)$/.exec(registry.get(name)?.description ?? '');
      return match === null ? undefined : Number(match[1]);
    };
    const diagnosed = (p: SoakPrompt): boolean => watcher.diagnostics.some((d) => d.file === join(dir, p.file));

    // Transports: SDK v1 and v2 servers with their clients in memory; the node handler on 127.0.0.1.
    const sdkClients = await Promise.all(
      (['v1', 'v2'] as const satisfies readonly ClientKind[]).map(async (kind) => {
        const server = createTestServer(kind === 'v1' ? 'v1-mcp' : 'v2-mcp');
        const detach = attachPrompts(server.attachable, registry);
        const client = createTestClient(kind);
        const [clientSide, serverSide] = linkedPair(kind);
        await server.connect(serverSide);
        await client.connect(clientSide);
        cleanups.unshift(async () => {
          await client.close();
          detach();
          await server.close();
        });
        return client;
      }),
    );
    const handle = createNodeHandler(registry);
    const http = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1');
    await new Promise((resolve) => http.once('listening', resolve));
    cleanups.unshift(async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });

    const getSdk = async (loop: number, name: string): Promise<string> => {
      const result = await sdkClients[loop % sdkClients.length]!.getPrompt(name, { who: WHO });
      return key(result);
    };
    // Keep-alive connections, one per loop: node:http costs a quarter of fetch's CPU per request.
    const agent = new Agent({ keepAlive: true, maxSockets: loops });
    cleanups.unshift(async () => agent.destroy());
    const port = (http.address() as AddressInfo).port;
    const getHttp = (_loop: number, name: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({ who: WHO });
        const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
        const req = request(
          { host: '127.0.0.1', port, path: `/prompts/${name}`, method: 'POST', agent, headers },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => {
              if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
              else resolve(key((JSON.parse(text) as { result: GetPromptResult }).result));
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });

    const failures: string[] = [];
    const foreign: string[] = [];
    const backwards: string[] = [];
    const seen = new Set<string>();
    const done = { sdk: 0, http: 0 };
    const runLoops = (transport: 'sdk' | 'http', get: (loop: number, name: string) => Promise<string>) =>
      Array.from({ length: loops }, async (_, loop) => {
        const last = new Map<string, number>();
        let ticket = loop;
        while (done[transport] < options.gets) {
          done[transport]++;
          const name = PROMPTS[ticket++ % PROMPTS.length]!.name;
          let answer: string;
          try {
            answer = await get(loop, name);
          } catch (error) {
            failures.push(`${transport} ${name}: ${error instanceof Error ? error.message : String(error)}`);
            continue;
          }
          const version = valid.get(name)!.get(answer);
          if (version === undefined) {
            foreign.push(`${transport} ${name}: ${answer.slice(0, 200)}`);
            continue;
          }
          seen.add(`${name}@${version}`);
          if (version < (last.get(name) ?? 0))
            backwards.push(`${transport} ${name}: v${version} after v${last.get(name)}`);
          last.set(name, version);
        }
      });

    // The edits, paced by the gets: edit i waits for i/(rewrites+1) of them, and some wait for the watcher to apply.
    const edits: Record<EditKind, number> = { atomic: 0, 'in-place': 0, configmap: 0, broken: 0 };
    let temps = 0;
    const writeAtomic = async (p: SoakPrompt, text: string): Promise<void> => {
      const temp = join(dir, `.${p.file}.tmp-${++temps}`);
      await writeFile(temp, text);
      await rename(temp, join(dir, p.file));
    };
    const writeInPlace = (p: SoakPrompt, text: string): Promise<void> => writeFile(join(dir, p.file), text);
    const writePlain = (p: SoakPrompt, text: string): Promise<void> => {
      const atomic = p.via === 'atomic' || (p.via === 'either' && random() < 0.5);
      return atomic ? writeAtomic(p, text) : writeInPlace(p, text);
    };
    /** The kubelet's update: a new generation directory, a new link renamed over `..data`, the old one removed. */
    const swapMap = async (texts: ReadonlyMap<SoakPrompt, string>): Promise<void> => {
      const previous = generationDir(generation);
      const next = generationDir(++generation);
      await mkdir(join(dir, next));
      for (const [p, text] of texts) await writeFile(join(dir, next, p.file), text);
      await symlink(next, join(dir, '..data_tmp'));
      await rename(join(dir, '..data_tmp'), join(dir, '..data'));
      await rm(join(dir, previous), { recursive: true, force: true });
    };
    const applied = (goods: readonly [SoakPrompt, number][], broken: readonly SoakPrompt[]) =>
      waitFor(
        () => goods.every(([p, v]) => served(p.name) === v) && broken.every(diagnosed),
        waitMs,
        `the watcher to apply ${goods.map(([p, v]) => `${p.name} v${v}`).join(', ')}${broken.length > 0 ? ` and diagnose ${broken.map((p) => p.file).join(', ')}` : ''}`,
      );

    const editOnce = async (): Promise<void> => {
      const roll = random();
      const wait = random() < 0.35;
      const goods: [SoakPrompt, number][] = [];
      const broken: SoakPrompt[] = [];
      if (roll < 0.55) {
        const p = pick(FILES);
        const next = good(p);
        goods.push([p, next.version]);
        const atomic = p.via === 'atomic' || (p.via === 'either' && random() < 0.5);
        edits[atomic ? 'atomic' : 'in-place']++;
        await (atomic ? writeAtomic(p, next.text) : writeInPlace(p, next.text));
      } else if (roll < 0.8) {
        const texts = new Map<SoakPrompt, string>();
        const breaking = random() < 0.25 ? pick(MAPPED) : undefined;
        for (const p of MAPPED) {
          if (p === breaking) {
            texts.set(p, fileText(p, nextVersion(p), pick(['syntax', 'template'] as const)));
            broken.push(p);
          } else {
            const next = good(p);
            texts.set(p, next.text);
            goods.push([p, next.version]);
          }
        }
        edits.configmap++;
        await swapMap(texts);
      } else {
        const p = pick(FILES);
        broken.push(p);
        edits.broken++;
        await writePlain(p, fileText(p, nextVersion(p), pick(['syntax', 'template'] as const)));
      }
      if (wait) await applied(goods, broken);
    };

    const requests = [...runLoops('sdk', getSdk), ...runLoops('http', getHttp)];
    const writer = (async () => {
      for (let i = 1; i <= options.rewrites; i++) {
        const due = Math.floor((i * options.gets) / (options.rewrites + 1));
        await waitFor(() => done.sdk + done.http >= 2 * due, waitMs, `${due} gets per transport`);
        await editOnce();
      }
    })();
    await Promise.all([...requests, writer]);

    // The end: a last good version of every file, then (once served) a broken edit of every file on top of it.
    const answers = async (): Promise<{ sdk: string[]; http: string[] }> => {
      const answer = async (get: (loop: number, name: string) => Promise<string>, p: SoakPrompt) => {
        try {
          const text = await get(0, p.name);
          return text === rendering(p.name, lastGood.get(p.name)!)
            ? `${p.name} ok`
            : `${p.name}: ${text.slice(0, 200)}`;
        } catch (error) {
          return `${p.name}: ${error instanceof Error ? error.message : String(error)}`;
        }
      };
      return {
        sdk: await Promise.all(PROMPTS.map((p) => answer(getSdk, p))),
        http: await Promise.all(PROMPTS.map((p) => answer(getHttp, p))),
      };
    };
    const versions = (): Record<string, number | undefined> =>
      Object.fromEntries(PROMPTS.map((p) => [p.name, served(p.name)]));

    const finals: [SoakPrompt, number][] = [];
    for (const p of FILES) {
      const next = good(p);
      finals.push([p, next.version]);
      await writePlain(p, next.text);
    }
    const mapped = new Map<SoakPrompt, string>();
    for (const p of MAPPED) {
      const next = good(p);
      finals.push([p, next.version]);
      mapped.set(p, next.text);
    }
    await swapMap(mapped);
    await applied(finals, []);
    const end = { expected: Object.fromEntries(lastGood), registry: versions(), ...(await answers()) };

    for (const p of FILES)
      await writePlain(p, fileText(p, nextVersion(p), p.format === 'yaml' ? 'template' : 'syntax'));
    await swapMap(new Map(MAPPED.map((p, i) => [p, fileText(p, nextVersion(p), i === 0 ? 'syntax' : 'template')])));
    await applied([], PROMPTS);
    const afterBreaking = {
      registry: versions(),
      ...(await answers()),
      diagnosed: PROMPTS.filter(diagnosed).map((p) => p.file),
    };

    return {
      gets: done,
      failures,
      foreign,
      backwards,
      servedVersions: seen.size,
      edits,
      reloads,
      end,
      afterBreaking,
      ms: performance.now() - started,
    };
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}
