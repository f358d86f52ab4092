#!/usr/bin/env bash
# A throwaway nginx origin on 127.0.0.1 (never any other address), for the
# tests, `make demo` and `make bench`.
#
# usage: nginx-origin.sh ROOT [--workdir DIR] [--tls] [--expired] [--bench] [--conf FILE] [--http-conf FILE] [--module NAME]
#
# Generates a config into a work folder (a new temporary one unless
# --workdir names one), starts nginx in the foreground on a free port, waits
# until it answers, and prints the port as the first line of stdout and the
# work folder as the second. Then it
# runs until its standard input reaches end of file or it gets SIGTERM,
# SIGINT or SIGHUP, and stops nginx. Whoever starts it keeps a pipe to its
# stdin: when that process exits, however it dies, the pipe closes and
# nginx goes with it. nginx itself also gets SIGTERM if this script is
# killed outright (setpriv --pdeathsig).
#
#   ROOT        the folder to serve (ETag and Last-Modified on, keep-alive)
#   --workdir   where the config, pid file, temp folders and logs go; kept
#               after exit (a temporary one is removed). logs/access.log has
#               one line per request: "URI STATUS BODY_BYTES CONNECTION".
#   --tls       serve HTTPS with a self-signed certificate for 127.0.0.1
#               and localhost (made with openssl into the work folder)
#   --expired   with --tls: the certificate expired in 2020 (valid for one
#               day of January 2020), to test that expiry is refused
#   --bench     tuned for throughput: one worker per core, no access log,
#               open file cache (files must not change while it runs)
#   --conf      a file of extra directives included in the server block
#               (locations with their own headers or access rules); the
#               string @WORKDIR@ in it is replaced by the work folder
#   --http-conf a file of extra directives included in the http block, as
#               --conf's are (an upstream for a location to proxy_pass to)
#   --module    a dynamic module to load, by file name without .so, from
#               Debian's /usr/lib/nginx/modules (ngx_http_js_module: njs)
#
# GET /__magpie-origin answers a token unique to this run: a readiness check
# that cannot be fooled by another server on the same port, and a fence for
# reading the access log (one worker logs requests in the order it ends them).
#
# Works as root (workers then run as root so they can read the caller's
# folders) and as any other user.
set -euo pipefail

usage() { echo "usage: $0 ROOT [--workdir DIR] [--tls] [--expired] [--bench] [--conf FILE] [--http-conf FILE] [--module NAME]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
root=$1
shift
workdir=""
tls=0
expired=0
bench=0
conf=""
http_conf=""
modules=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --workdir) [[ $# -ge 2 ]] || usage; workdir=$2; shift 2 ;;
    --tls) tls=1; shift ;;
    --expired) expired=1; shift ;;
    --bench) bench=1; shift ;;
    --conf) [[ $# -ge 2 ]] || usage; conf=$2; shift 2 ;;
    --http-conf) [[ $# -ge 2 ]] || usage; http_conf=$2; shift 2 ;;
    --module)
      [[ $# -ge 2 ]] || usage
      [[ -f /usr/lib/nginx/modules/$2.so ]] || { echo "nginx-origin: no module /usr/lib/nginx/modules/$2.so" >&2; exit 1; }
      modules+="load_module /usr/lib/nginx/modules/$2.so;"$'\n'
      shift 2 ;;
    *) usage ;;
  esac
done
[[ -d $root ]] || { echo "nginx-origin: no such folder: $root" >&2; exit 2; }
root=$(cd "$root" && pwd)
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $nginx_bin ]] || { echo "nginx-origin: nginx is not installed (apt-get install nginx)" >&2; exit 1; }

own_workdir=0
if [[ -z $workdir ]]; then
  workdir=$(mktemp -d "${TMPDIR:-/tmp}/magpie-origin.XXXXXX")
  own_workdir=1
fi
mkdir -p "$workdir/temp" "$workdir/logs"
workdir=$(cd "$workdir" && pwd)
token="magpie-origin-$$-$RANDOM$RANDOM"

nginx_pid=""
watch_pid=""
cleanup() {
  trap - EXIT TERM INT HUP
  if [[ -n $nginx_pid ]] && kill -0 "$nginx_pid" 2>/dev/null; then
    kill -TERM "$nginx_pid" 2>/dev/null || true
    # A fast shutdown takes milliseconds; give it 5 s before SIGKILL.
    for _ in $(seq 1 100); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  [[ -n $watch_pid ]] && kill "$watch_pid" 2>/dev/null || true
  [[ $own_workdir -eq 1 ]] && rm -rf "$workdir"
  return 0
}
trap cleanup EXIT
trap 'exit 0' TERM INT HUP

scheme=http
listen_extra=""
tls_lines=""
if [[ $tls -eq 1 ]]; then
  scheme=https
  listen_extra=" ssl"
  if [[ $expired -eq 1 ]]; then
    # `openssl req -x509` cannot date a certificate in the past; `openssl
    # ca -selfsign` can, with a throwaway CA database.
    mkdir -p "$workdir/ca"
    : >"$workdir/ca/index.txt"
    echo 01 >"$workdir/ca/serial"
    printf '%s\n' "[ca]" "default_ca = expired" "[expired]" "database = $workdir/ca/index.txt" \
      "serial = $workdir/ca/serial" "new_certs_dir = $workdir/ca" "default_md = sha256" \
      "policy = anything" "copy_extensions = copy" "[anything]" "commonName = supplied" >"$workdir/ca/ca.cnf"
    openssl req -new -newkey rsa:2048 -nodes -subj "/CN=localhost" \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
      -keyout "$workdir/key.pem" -out "$workdir/ca/request.pem" >/dev/null 2>&1
    openssl ca -batch -selfsign -config "$workdir/ca/ca.cnf" -keyfile "$workdir/key.pem" \
      -in "$workdir/ca/request.pem" -out "$workdir/cert.pem" \
      -startdate 20200101000000Z -enddate 20200102000000Z >/dev/null 2>&1
  else
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=localhost" \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
      -keyout "$workdir/key.pem" -out "$workdir/cert.pem" >/dev/null 2>&1
  fi
  tls_lines="ssl_certificate $workdir/cert.pem; ssl_certificate_key $workdir/key.pem;"
fi

user_line=""
[[ $(id -u) -eq 0 ]] && user_line="user root root;"
if [[ $bench -eq 1 ]]; then
  workers=auto
  access_line="access_log off;"
  cache_line="open_file_cache max=20000 inactive=60s; open_file_cache_valid 60s;"
else
  workers=1
  access_line="access_log $workdir/logs/access.log magpie;"
  cache_line=""
fi

include_line=""
if [[ -n $conf ]]; then
  sed "s|@WORKDIR@|$workdir|g" "$conf" >"$workdir/extra.conf"
  include_line="include $workdir/extra.conf;"
fi
http_include_line=""
if [[ -n $http_conf ]]; then
  sed "s|@WORKDIR@|$workdir|g" "$http_conf" >"$workdir/extra-http.conf"
  http_include_line="include $workdir/extra-http.conf;"
fi

write_config() {
  cat >"$workdir/nginx.conf" <<EOF
# Generated by Scripts/origin/nginx-origin.sh; removed or rewritten on each run.
$modules
daemon off;
master_process on;
worker_processes $workers;
pid $workdir/nginx.pid;
error_log $workdir/logs/error.log warn;
$user_line
events { worker_connections 4096; }
http {
  log_format magpie '\$request_uri \$status \$body_bytes_sent \$connection';
  $access_line
  client_body_temp_path $workdir/temp/client_body;
  proxy_temp_path $workdir/temp/proxy;
  fastcgi_temp_path $workdir/temp/fastcgi;
  uwsgi_temp_path $workdir/temp/uwsgi;
  scgi_temp_path $workdir/temp/scgi;
  types {
    image/jpeg jpg jpeg;
    image/png png;
    image/gif gif;
    image/webp webp;
    image/avif avif;
    image/svg+xml svg;
    text/html html htm;
    text/plain txt;
  }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 65s;
  keepalive_requests 1000000;
  etag on;
  if_modified_since exact;
  $cache_line
  $http_include_line
  server {
    listen 127.0.0.1:$1$listen_extra;
    server_name localhost;
    $tls_lines
    root $root;
    location = /__magpie-origin { default_type text/plain; return 200 "$token"; }
    $include_line
    location / { try_files \$uri =404; }
  }
}
EOF
}

# Free port: pick at random below the kernel's ephemeral range and retry on
# a bind failure; the token check proves the answering server is ours.
for attempt in $(seq 1 30); do
  port=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))
  write_config "$port"
  : >"$workdir/logs/error.log"
  setpriv --pdeathsig TERM "$nginx_bin" -p "$workdir" -c "$workdir/nginx.conf" -e "$workdir/logs/error.log" \
    </dev/null >/dev/null 2>>"$workdir/logs/error.log" &
  nginx_pid=$!
  ready=0
  for _ in $(seq 1 200); do
    if ! kill -0 "$nginx_pid" 2>/dev/null; then break; fi
    answer=$(curl -sk --max-time 1 "$scheme://127.0.0.1:$port/__magpie-origin" 2>/dev/null || true)
    if [[ $answer == "$token" ]]; then ready=1; break; fi
    sleep 0.02
  done
  if [[ $ready -eq 1 ]]; then break; fi
  kill -TERM "$nginx_pid" 2>/dev/null || true
  wait "$nginx_pid" 2>/dev/null || true
  nginx_pid=""
  if ! grep -q "Address already in use" "$workdir/logs/error.log"; then
    echo "nginx-origin: nginx did not start:" >&2
    cat "$workdir/logs/error.log" >&2
    exit 1
  fi
done
[[ -n $nginx_pid ]] || { echo "nginx-origin: no free port after 30 tries" >&2; exit 1; }

echo "$port"
echo "$workdir"

# Background jobs read /dev/null unless told otherwise: hand cat our stdin.
exec 3<&0
cat <&3 >/dev/null &
watch_pid=$!
exec 3<&-
# Whichever ends first: stdin closed, or nginx died.
wait -n "$watch_pid" "$nginx_pid" || true
