#!/usr/bin/env bash
# Runs this example's suite as a project outside the repository would: packs Cairn (apps/cli), copies the
# example into an empty directory, installs the tarball and Vitest there, and runs the tests. .ci/run calls it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$repo/apps/cli" && npm pack --silent --pack-destination "$work" >/dev/null)
tarball="$(ls "$work"/cairn-*.tgz)"
echo "packed $(basename "$tarball") ($(du -k "$tarball" | cut -f1) KiB)"
mkdir "$work/app"
cp -r "$here/src" "$here/test" "$here/package.json" "$here/vitest.config.ts" "$work/app/"
cd "$work/app"
npm install --no-audit --no-fund --prefer-offline "$tarball"
CAIRN_CACHE_DIR="$work/cache" npx vitest run
