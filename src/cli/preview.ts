/** `preview <dir>`: a local page that lists, renders and diffs the prompts, live as the files change. */
import { isPromptError } from '../errors.js';
import { createFileResourceResolver } from '../fs/resolver.js';
import { ServeFailure, UsageError, docsRoots, integerOption, parseCommand, positionals } from './args.js';
import { boundAddress, isLoopbackAddress } from './hosts.js';
import type { Output } from './output.js';
import { startPreviewServer } from './preview/server.js';
import type { ExtraRoutes, PreviewServer } from './preview/server.js';
import { casesRoute } from './preview/cases.js';
import { PreviewState } from './preview/state.js';

/** Changes within this window are applied together (a save usually settles within one). */
export const DEFAULT_DEBOUNCE_MS = 30;

/** Options of {@link startPreview}. */
export interface PreviewOptions {
  dir: string;
  docs?: Record<string, string>;
  host?: string;
  port?: number;
  /** Needed to listen off loopback (anyone who can reach the port and has the token gets the page). */
  allowRemote?: boolean;
  debounceMs?: number;
  log?: (line: string) => void;
  /** A fixed token (tests); a fresh random one by default. */
  token?: string;
}

/** A running preview: its server and the state behind it. */
export interface RunningPreview {
  server: PreviewServer;
  state: PreviewState;
  close(): Promise<void>;
}

/** Loads and watches `dir`, then serves the page; resolves once it listens. */
export async function startPreview(options: PreviewOptions): Promise<RunningPreview> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  let address: string;
  try {
    address = await boundAddress(host);
  } catch (error) {
    throw new ServeFailure(`cannot resolve --host ${host} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const loopback = isLoopbackAddress(address);
  if (!loopback && options.allowRemote !== true) {
    throw new UsageError(
      `preview: --host ${host} is not a loopback address, so other machines could reach the page: pass --allow-remote ` +
        'as well to mean it (the page still needs the token the command prints)',
    );
  }
  const resolver = options.docs === undefined ? undefined : createFileResourceResolver({ roots: options.docs });
  let server: PreviewServer | undefined;
  let state: PreviewState;
  try {
    state = await PreviewState.open({
      dir: options.dir,
      resolver,
      debounceMs: options.debounceMs ?? DEFAULT_DEBOUNCE_MS,
      onEvent: (event) => server?.events.send(event),
    });
  } catch (error) {
    if (isPromptError(error)) throw new UsageError(`preview: ${error.message}`);
    throw error;
  }
  const routes: ExtraRoutes = {
    cases: casesRoute(options.dir, state.registry, (name) => state.sourceOf(name)),
  };
  try {
    server = await startPreviewServer({
      state,
      host,
      port: options.port ?? 0,
      loopback,
      log,
      routes,
      ...tokenOf(options),
    });
  } catch (error) {
    await state.close();
    throw new ServeFailure(
      `cannot listen on ${host}:${options.port ?? 0} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  const running = server;
  return {
    server: running,
    state,
    close: async () => {
      await running.close();
      await state.close();
    },
  };
}

function tokenOf(options: PreviewOptions): { token?: string } {
  return options.token === undefined ? {} : { token: options.token };
}

/** Resolves when the process is asked to stop. */
function stopped(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

/** `preview <dir>`: prints the page's URL (with its token) on stdout; runs until SIGINT/SIGTERM. */
export async function preview(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals: given } = parseCommand('preview', args, {
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-remote': { type: 'boolean' },
    debounce: { type: 'string' },
    docs: { type: 'string', multiple: true },
  });
  const [dir] = positionals('preview', given, ['dir']) as [string];
  const docs = docsRoots('preview', values['docs'] as string[] | undefined);
  const port = integerOption('preview', 'port', values['port'] as string | undefined, 0, 65_535) ?? 0;
  const debounceMs =
    integerOption('preview', 'debounce', values['debounce'] as string | undefined, 0, 60_000) ?? DEFAULT_DEBOUNCE_MS;
  const log = (line: string): void => out.stderr(`mcp-prompt-kit: ${line}`);
  const running = await startPreview({
    dir,
    ...(docs === undefined ? {} : { docs }),
    host: (values['host'] as string | undefined) ?? '127.0.0.1',
    port,
    allowRemote: values['allow-remote'] === true,
    debounceMs,
    log,
  });
  out.stdout(running.server.url);
  log(
    `previewing ${running.state.registry.size} prompt(s) from ${dir} at ${running.server.origin} (open the URL above: it carries the token)`,
  );
  const why = await stopped();
  log(`stopping (${why})`);
  await running.close();
  return 0;
}
