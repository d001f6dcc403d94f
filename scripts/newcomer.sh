#!/usr/bin/env bash
# Does what the README's quick start says, as a newcomer on a fresh machine would: a clone of the
# committed repository in a temporary directory, `npm install`, `npm start`, the printed curl
# call, then the tests. Fails on any npm warning, on a start that does not print the key and the
# call, and on a call that does not answer as printed.
# Usage: scripts/newcomer.sh [--full]   (default: two test files; --full runs all of `npm test`)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server=""
# The server runs in its own process group, killed as a whole: npm does not pass a signal on to
# the `node dist/main.js serve` it started, which would outlive the script.
stop_server() { [[ -n "$server" ]] && kill -- "-$server" 2>/dev/null; wait "$server" 2>/dev/null || true; server=""; }
cleanup() { stop_server; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "newcomer: $*" >&2; exit 1; }

# A newcomer's npm has no settings of ours: an empty user configuration.
export NPM_CONFIG_USERCONFIG="$work/npmrc"
: > "$NPM_CONFIG_USERCONFIG"
unset DATABASE_URL DATA_DIR PORT APP_PORT ORGCTL_URL ORGCTL_API_KEY

git clone --quiet "$repo" "$work/orgctl"
cd "$work/orgctl"

echo "newcomer: npm install"
npm install --no-audit --no-fund > "$work/install.log" 2>&1 || { cat "$work/install.log"; fail "npm install failed"; }
if grep -Ei '^npm (warn|error)' "$work/install.log"; then fail "npm install printed the warnings above"; fi

echo "newcomer: npm start"
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
PORT="$port" setsid npm start > "$work/start.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do grep -q 'curl -H' "$work/start.log" && break; sleep 0.5; done
grep -q "listening on http://127.0.0.1:$port" "$work/start.log" || { cat "$work/start.log"; fail "npm start did not say where it listens"; }
key="$(grep -o 'Owner API key[^:]*: ock_[A-Za-z0-9_]*' "$work/start.log" | grep -o 'ock_[A-Za-z0-9_]*' || true)"
[[ -n "$key" ]] || { cat "$work/start.log"; fail "npm start printed no owner key"; }
call="$(grep -o 'curl -H "Authorization: Bearer ock_[A-Za-z0-9_]*" http://[^ ]*' "$work/start.log" | head -1)"
[[ -n "$call" ]] || { cat "$work/start.log"; fail "npm start printed no curl line"; }
if grep -Ei '(^|[^a-z])(warn|warning|error)([^a-z]|$)' "$work/start.log"; then fail "npm start printed the lines above"; fi

echo "newcomer: the printed call"
# Retried while it answers 503 (Retry-After): on a busy machine the service sheds load at first.
for _ in $(seq 1 20); do
  answer="$(eval "$call -s")"
  echo "$answer" | grep -q '"status":503' || break
  sleep 1
done
echo "$answer" | grep -q '"role":"owner"' || fail "the printed call answered: $answer"

stop_server
# Nothing started from the clone may outlive the stop (it shuts down gracefully: a few seconds).
left() { for p in /proc/[0-9]*; do readlink "$p/cwd" 2>/dev/null; done | grep -q "^$work/orgctl"; }
for _ in $(seq 1 20); do left || break; sleep 0.5; done
left && fail "npm start left a process running after it was stopped"

if [[ "${1:-}" == "--full" ]]; then
  echo "newcomer: npm test"
  npm test
else
  echo "newcomer: two test files as the README runs one (the first start, the documentation; --full runs npm test)"
  npx vitest run test/e2e/first-start.test.ts test/core/docs.test.ts
fi
echo "newcomer: the README's quick start works as written"
