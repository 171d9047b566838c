#!/usr/bin/env bash
# The main job against the bundled emulator: start it, log in, and look at the morning's work.
set -euo pipefail
cd "$(dirname "$0")/.."
svc() { node bin/svc "$@"; }

export SVC_CONFIG_DIR="$(mktemp -d)"
out="$(mktemp)"
node bin/svc emulator start --port 0 --json >"$out" &
emulator=$!
trap 'kill $emulator 2>/dev/null; rm -rf "$SVC_CONFIG_DIR" "$out"' EXIT
for _ in $(seq 100); do [ -s "$out" ] && break; sleep 0.1; done
base_url=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).base_url)' "$out")
live_key=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).keys.live)' "$out")

step() { printf '\n\033[1m$ svc %s\033[0m\n' "$*"; svc "$@"; }
echo "Emulator at $base_url"
printf '%s' "$live_key" | svc auth login --with-key-stdin --base-url "$base_url" --profile demo
step auth status -o table
step status -o table
step channels list -o table
step orders list --status awaiting_shipment --limit 10 -o table
step listings list --status error --limit 10 -o table
step listings retry --error-code photo_required_for_channel --dry-run -o table
# Snapshot the stock, then raise three SKUs by one and follow the change to the channels.
svc inventory export > "$SVC_CONFIG_DIR/before.csv"
awk -F, 'NR == 1 { print; next } NR <= 4 { print $1 "," $2 + 1 "," $3 }' "$SVC_CONFIG_DIR/before.csv" > "$SVC_CONFIG_DIR/stock.csv"
step inventory push "$SVC_CONFIG_DIR/stock.csv" --wait --timeout 30
step operations list --limit 5 -o table
