#!/usr/bin/env bash
# `make demo-serve`: `magpie serve` as a small fleet, seen by a browser.
#
# usage: demo-serve.sh [--check DIR] [--docs]
#
# Starts, all on 127.0.0.1 and free ports: an nginx origin serving
# samples/, a private redis-server, two `magpie serve` instances (the
# release binary, or $MAGPIE) with one key and salt made for this run and
# the shared Redis tier, and an nginx load balancer in front of them (round
# robin; it also serves the page, so the page's images load from it).
# Scripts/serve/demo_page.py writes the page: 24 signed thumbnail URLs, a
# sample image each, in four variants. Headless Chromium opens it once,
# dumping the DOM (the page's onload script writes each image's
# naturalWidth and naturalHeight into it) and taking a screenshot; then every
# URL is asked for twice more through the balancer, which sends one of each
# pair to each instance. Prints what each instance did (from its /metrics)
# and what the origin served per image (its access log), and checks: every
# image decoded in Chromium at the size its URL asks for, the screenshot is
# not blank, the fleet transformed each URL once and fetched each source
# once, the second instance found each URL in Redis, and both instances
# exit 0 on SIGTERM. Exits 1 when a check failed.
#
#   --check DIR  write the artifacts to DIR instead of .build/artifacts/serve
#                (the test's mode; DIR/check.json has the checks' details)
#   --docs       also write the screenshot to docs/serve-demo.jpg when
#                every check passed
#
# Artifacts: demo-serve.png, dom.html (Chromium's DOM), manifest.json (the
# URLs and their expected sizes), revisit.json, check.json, ports.txt (what
# listened, for a check that nothing still does), page/index.html.
# Stops everything it started on exit, however it ends.
set -euo pipefail
# Start over once with no signal blocked and no descriptor but 0-2 from the
# caller: a blocked SIGTERM (a Swift test's Foundation.Process hands its
# child a full mask) would stay blocked in redis-server and Chromium, which
# then could not be stopped, and a descriptor the caller watches for its
# child's exit (Foundation's again) must not live on in anything started here.
if [[ -z ${DEMO_SERVE_STARTED:-} ]]; then
  DEMO_SERVE_STARTED=1 exec python3 -c 'import os, signal, sys
signal.pthread_sigmask(signal.SIG_SETMASK, [])
os.closerange(3, os.sysconf("SC_OPEN_MAX"))
os.execv(sys.argv[1], sys.argv[1:])' "$0" "$@"
fi
unset DEMO_SERVE_STARTED
cd "$(dirname "$0")/.."
magpie=${MAGPIE:-.build/release/magpie}
# Debian's Python, whose Pillow (python3-pil) make installs: the first
# python3 on PATH may be another one (pyenv's) without it.
python=${PYTHON:-/usr/bin/python3}
out=.build/artifacts/serve
docs=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --check) [[ $# -ge 2 ]] || { echo "usage: $0 [--check DIR] [--docs]" >&2; exit 2; }; out=$2; shift 2 ;;
    --docs) docs=1; shift ;;
    *) echo "usage: $0 [--check DIR] [--docs]" >&2; exit 2 ;;
  esac
done
fail() { echo "demo-serve: $*" >&2; exit 1; }
# No artifact of an earlier run survives a failure of this one.
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/page" "$out"/{demo-serve.png,dom.html,manifest.json,revisit.json,check.json,ports.txt}
[[ -x $magpie ]] || fail "no $magpie (make release builds it)"
chromium=$(command -v chromium || true)
[[ -n $chromium ]] || fail "chromium is not installed (make demo-serve-deps, or apt-get install chromium)"
"$python" -c 'import PIL' 2>/dev/null || fail "Pillow is not installed (apt-get install python3-pil)"
command -v redis-server >/dev/null || fail "redis-server is not installed (apt-get install redis-server)"

work=$(mktemp -d "${TMPDIR:-/tmp}/magpie-demo-serve.XXXXXX")
redis_pid=
chromium_pid=
instance_pids=()
nginx_pids=()
nginx_inputs=()
stop() {
  trap - EXIT INT TERM
  local pid fd
  [[ -n $chromium_pid ]] && { kill -TERM "$chromium_pid" 2>/dev/null; wait "$chromium_pid" 2>/dev/null; } || true
  for pid in "${instance_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${instance_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [[ -n $redis_pid ]] && { kill "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; } || true
  # nginx-origin.sh stops its nginx when its standard input closes.
  for fd in "${nginx_inputs[@]}"; do exec {fd}>&-; done
  for pid in "${nginx_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# detached CMD...: CMD without the FIFOs this script holds open (the nginx
# scripts' stdin and stdout), in the background function's subshell, which
# it replaces; so nothing it starts keeps another's stdin open.
held=()
detached() {
  local fd
  for fd in "${held[@]}"; do exec {fd}>&-; done
  exec "$@"
}

# start_nginx NAME ROOT [ARGS...]: Scripts/origin/nginx-origin.sh on a pair
# of FIFOs (its stdin kept open until stop); sets nginx_port.
start_nginx() {
  local name=$1 input output
  shift
  mkfifo "$work/$name.in" "$work/$name.out"
  detached bash Scripts/origin/nginx-origin.sh "$@" --workdir "$work/$name" <"$work/$name.in" >"$work/$name.out" &
  nginx_pids+=($!)
  exec {input}>"$work/$name.in"
  nginx_inputs+=("$input")
  exec {output}<"$work/$name.out"
  held+=("$input" "$output")
  read -r nginx_port <&"$output" || fail "the $name nginx did not start"
  read -r _ <&"$output"
}

start_nginx origin samples
origin_port=$nginx_port

# redis-server on a free port (Scripts/lib/private-redis.sh).
# shellcheck source=lib/private-redis.sh
source Scripts/lib/private-redis.sh
start_private_redis "$work" detached setpriv --pdeathsig TERM
[[ -n "$redis_pid" ]] || fail "redis-server did not start"

# One key and salt for the fleet, new each run, given in the environment
# (not on a command line anyone can read).
MAGPIE_SERVE_KEY=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
MAGPIE_SERVE_SALT=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
export MAGPIE_SERVE_KEY MAGPIE_SERVE_SALT
instance_ports=()
for i in 1 2; do
  mkfifo "$work/serve-$i.out"
  detached setpriv --pdeathsig TERM "$magpie" serve --host 127.0.0.1 --port 0 --redis "redis://127.0.0.1:$redis_port/0" \
    --allow-source "http://127.0.0.1:$origin_port/" >"$work/serve-$i.out" 2>"$work/serve-$i.err" &
  instance_pids+=($!)
  exec {output}<"$work/serve-$i.out"
  held+=("$output")
  line=
  read -r -t 30 line <&"$output" || true
  [[ $line =~ ^listening\ on\ http://127\.0\.0\.1:([0-9]+)$ ]] ||
    fail "magpie serve $i did not start ('$line'): $(cat "$work/serve-$i.err")"
  instance_ports+=("${BASH_REMATCH[1]}")
done
"$python" Scripts/serve/demo_page.py page --origin "$origin_port" --out "$out"
unset MAGPIE_SERVE_KEY MAGPIE_SERVE_SALT

# The balancer: round robin over the two instances for signed paths (the
# request URI passed on as the client sent it, Accept and Vary kept), the
# page from its folder; it names the instance that answered in a header.
{
  echo "upstream magpie_fleet {"
  echo "  server 127.0.0.1:${instance_ports[0]}; server 127.0.0.1:${instance_ports[1]}; keepalive 8;"
  echo "}"
  echo "log_format balancer '\$request_uri \$status \$upstream_addr';"
} >"$work/balancer-http.conf"
cat >"$work/balancer-server.conf" <<'CONF'
location ~ "^/[A-Za-z0-9_-]{43}/" {
  proxy_pass http://magpie_fleet;
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  proxy_set_header Accept $http_accept;
  add_header X-Magpie-Instance $upstream_addr always;
  access_log @WORKDIR@/logs/balancer.log balancer;
}
CONF
start_nginx balancer "$out/page" --conf "$work/balancer-server.conf" --http-conf "$work/balancer-http.conf"
balancer_port=$nginx_port
printf '%s %s\n' origin "$origin_port" balancer "$balancer_port" redis "$redis_port" \
  instance-1 "${instance_ports[0]}" instance-2 "${instance_ports[1]}" >"$out/ports.txt"
page=http://127.0.0.1:$balancer_port/index.html
echo "demo-serve: origin :$origin_port, redis :$redis_port, instances :${instance_ports[0]} :${instance_ports[1]}," \
  "balancer :$balancer_port"
echo "demo-serve: Chromium opens $page"

# Chromium reaches nothing but 127.0.0.1: every other host name fails to
# resolve, and no background service (updates, sync, metrics) runs. Its
# profile and caches live in the work folder. In the background, so that
# a signal stops the demo at once (bash runs a trap only between commands).
mkdir -p "$work/home"
detached env HOME="$work/home" XDG_CONFIG_HOME="$work/home" XDG_CACHE_HOME="$work/home" timeout 120 "$chromium" \
  --headless=new --no-sandbox --disable-gpu --user-data-dir="$work/chromium" --window-size=1280,1000 \
  --hide-scrollbars --no-first-run --no-default-browser-check --disable-background-networking \
  --disable-component-update --disable-sync --disable-extensions --disable-default-apps --disable-breakpad \
  --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" --virtual-time-budget=10000 \
  --dump-dom --screenshot="$out/demo-serve.png" "$page" >"$out/dom.html" 2>"$work/chromium.err" &
chromium_pid=$!
status=0
wait "$chromium_pid" || status=$?
chromium_pid=
if [[ $status -ne 0 || ! -s $out/dom.html ]]; then
  tail -20 "$work/chromium.err" >&2
  fail "chromium exited $status"
fi

"$python" Scripts/serve/demo_page.py revisit --balancer "$balancer_port" --out "$out"
for i in 1 2; do
  curl -sf --max-time 10 "http://127.0.0.1:${instance_ports[i - 1]}/metrics" >"$work/metrics-$i.txt" ||
    fail "no /metrics from instance $i"
done
# A fence: the origin's one worker logs requests in order, so once this one
# is answered every source fetch is in the log.
curl -s --max-time 5 "http://127.0.0.1:$origin_port/__magpie-origin" >/dev/null || true

# SIGTERM drains each instance, which then exits 0 (and says what its
# Redis tier did).
exits=()
for i in 1 2; do kill -TERM "${instance_pids[i - 1]}"; done
for i in 1 2; do
  code=0
  wait "${instance_pids[i - 1]}" || code=$?
  exits+=("$code")
  sed "s/^/  instance $i: /" "$work/serve-$i.err"
done
instance_pids=()

result=0
"$python" Scripts/serve/demo_page.py report --out "$out" --metrics "$work/metrics-1.txt" "$work/metrics-2.txt" \
  --origin-log "$work/origin/logs/access.log" --exits "${exits[@]}" || result=$?
if [[ $docs -eq 1 && $result -eq 0 ]]; then
  "$magpie" convert "$out/demo-serve.png" docs/serve-demo.jpg --quality 85 >/dev/null
  echo "demo-serve: wrote docs/serve-demo.jpg"
fi
exit $result
