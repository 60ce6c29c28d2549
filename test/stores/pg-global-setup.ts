/**
 * vitest globalSetup: one PostgreSQL server per run, shared by every suite (each on its own database). It starts on
 * the first suite's request, so a run without PostgreSQL suites never starts one; a failed start is reported to
 * every suite that asks, with the server's output.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './pg-server.js';
import type { PostgresServer } from './pg-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where a suite asks for the shared server's admin URL (POST). */
    postgresCoordinator: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: Promise<PostgresServer> | undefined;
  const coordinator = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    // The in-process run of another Node major (scripts/test-node-matrix.sh --in-process) starts no database.
    if (process.env['MCP_PROMPT_KIT_IN_PROCESS'] === '1') {
      response
        .writeHead(500, { 'content-type': 'text/plain' })
        .end(
          'this run starts no PostgreSQL (MCP_PROMPT_KIT_IN_PROCESS=1): exclude the suite in scripts/test-node-matrix.sh',
        );
      return;
    }
    server ??= startPostgresServer();
    server.then(
      (started) => response.writeHead(200, { 'content-type': 'text/plain' }).end(started.adminUrl),
      (error: unknown) =>
        response
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((resolve) => coordinator.listen(0, '127.0.0.1', resolve));
  project.provide('postgresCoordinator', `http://127.0.0.1:${(coordinator.address() as AddressInfo).port}`);
  return async () => {
    await new Promise<void>((resolve) => coordinator.close(() => resolve()));
    const started = await server?.catch(() => undefined);
    await started?.stop();
  };
}
