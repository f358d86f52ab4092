#!/usr/bin/env bash
# `make demo-fleet`: four `magpie prefetch` processes, each an instance with
# its own disk cache, warm one URL list at once through a shared Redis tier.
# Serves samples/ from a local nginx and runs a private redis-server (both
# on 127.0.0.1, free ports), then prints what each instance got from which
# tier and how many requests reached the origin: one per URL when the
# instances coalesce their misses. Stops both servers and removes its
# folders on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
magpie=.build/release/magpie
instances=${FLEET_INSTANCES:-4}
spec=${FLEET_PROCESS:-downsample(256x256)}
work=$(mktemp -d)
redis_pid=
coproc ORIGIN { exec bash Scripts/origin/nginx-origin.sh samples --workdir "$work/nginx"; }
origin_out=${ORIGIN[0]}
origin_in=${ORIGIN[1]}
stop() {
  [[ -n "$redis_pid" ]] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null || true
  exec {origin_in}>&-
  wait || true
  rm -rf "$work"
}
trap stop EXIT
read -r port <&"$origin_out" || { echo "demo-fleet: the local origin did not start" >&2; exit 1; }
read -r _ <&"$origin_out"

# redis-server on a free port (Scripts/lib/private-redis.sh).
# shellcheck source=lib/private-redis.sh
source Scripts/lib/private-redis.sh
start_private_redis "$work"
[[ -n "$redis_pid" ]] || { echo "demo-fleet: redis-server did not start" >&2; exit 1; }

list=$work/urls.txt
find samples -maxdepth 1 -type f \( -name '*.jpg' -o -name '*.png' -o -name '*.gif' -o -name '*.webp' \) \
  -printf "http://127.0.0.1:$port/%f\n" | sort >"$list"
urls=$(wc -l <"$list")
echo "demo-fleet: $instances instances warm $urls URLs (--process '$spec') through redis on port $redis_port"
pids=()
for i in $(seq "$instances"); do
  "$magpie" prefetch "$list" --redis "redis://127.0.0.1:$redis_port/0" --cache-dir "$work/cache-$i" \
    --process "$spec" --concurrency 6 >"$work/instance-$i.out" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for i in $(seq "$instances"); do
  sed "s/^/  instance $i: /" "$work/instance-$i.out" | grep -v '%' || true
done
# A fence: nginx's one worker logs requests in order, so once this one is
# answered every earlier one is in the log.
curl -s --max-time 5 "http://127.0.0.1:$port/__magpie-origin" >/dev/null || true
requests=$(grep -c -v '^/__magpie-origin' "$work/nginx/logs/access.log" || true)
repeated=$(grep -v '^/__magpie-origin' "$work/nginx/logs/access.log" | cut -d' ' -f1 | sort | uniq -d | wc -l)
echo "origin: $requests requests for $urls URLs ($repeated URLs fetched more than once; expected: one request per URL)"
echo "redis: $(redis-cli -p "$redis_port" dbsize) keys"
exit $status
