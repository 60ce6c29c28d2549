/**
 * Whether this run starts child processes. `npm run test:node22` (scripts/test-node-matrix.sh --in-process) runs the
 * in-process suites again on another Node major and sets MCP_PROMPT_KIT_IN_PROCESS=1: the child-process parts of
 * mixed files are left to the main run (`npm test` on Node 20, `npm run test:matrix` on every major).
 */
export const STARTS_CHILD_PROCESSES = process.env['MCP_PROMPT_KIT_IN_PROCESS'] !== '1';
