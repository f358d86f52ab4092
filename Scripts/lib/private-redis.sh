# Sourced by the demo scripts: start_private_redis WORKDIR [LAUNCHER...]
# starts a redis-server with no persistence on a free 127.0.0.1 port (a
# random one, again if it was taken), through LAUNCHER when given (e.g. a
# function that closes inherited descriptors, setpriv --pdeathsig TERM),
# and sets redis_port and redis_pid; redis_pid is empty when it did not
# start.
start_private_redis() {
  local work=$1
  shift
  local _attempt _wait
  for _attempt in 1 2 3 4 5; do
    redis_port=$((33000 + (RANDOM * 32768 + RANDOM) % 12000))
    "$@" redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" \
      --logfile "$work/redis.log" &
    redis_pid=$!
    for _wait in $(seq 50); do
      if redis-cli -p "$redis_port" ping 2>/dev/null | grep -q PONG; then return 0; fi
      kill -0 "$redis_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill "$redis_pid" 2>/dev/null || true
    wait "$redis_pid" 2>/dev/null || true
    redis_pid=
  done
}
