#!/usr/bin/env bash
# The lab's containers, end to end: an opt-in test (it needs Docker with the compose plugin, builds five images and
# runs them; 10-15 minutes the first time, about 3 once the images are built).
#
#   scripts/compose-test.sh
#
# Makes the base images if they are missing (scripts/prepare-base-images.sh), then `docker compose up --build --wait`
# and checks: five healthy services; the delay service's default wait from .env (its container's LAB_DELAY_MS
# and GET /delay/default); each variant's /lab/runtime (availableProcessors 1, heap, GC, worker pool, JFR from start)
# and its container's knobs from .env; each variant's /api on its expected thread, delayed by that wait; every
# container runs as non-root; each variant has the CPU quota in its cgroup; k6 (profile load) runs closed.js against
# the containers; Prometheus (profile monitoring) has all five targets up; and `docker compose down` leaves each
# variant's recording in ./jfr, which `jfr summary` opens. Whatever happens (pass, fail, Ctrl-C) it takes down what
# it brought up; the built images stay, as a cache. Prints PASS/FAIL per check and exits 0 only if all passed.
set -euo pipefail
cd "$(dirname "$0")/.."

# service port thread-name-pattern virtual
variants=(
  "imperative-service 8081 executor-thread-[0-9]+ false"
  "reactive-service 8082 vert.x-eventloop-thread-[0-9]+ false"
  "virtual-thread-service 8083 quarkus-virtual-thread-[0-9]+ true"
  "imperative-rest-service 8084 executor-thread-[0-9]+ false"
)
services=(delay-service imperative-service reactive-service virtual-thread-service imperative-rest-service)
ports=(8090 8081 8082 8083 8084 9090)
compose=(docker compose --profile load --profile monitoring)

work=$(mktemp -d)
results=()
failures=0
started=false
started_at=$(date +%s)

say() { printf '\n== %s\n' "$*"; }
pass() { results+=("PASS  $1"); printf 'PASS  %s\n' "$1"; }
fail() { results+=("FAIL  $1${2:+: $2}"); failures=$((failures + 1)); printf 'FAIL  %s%s\n' "$1" "${2:+: $2}"; }
check() { # check <description> <command...>: PASS if the command succeeds
  local what=$1
  shift
  if out=$("$@" 2>&1); then pass "$what"; else fail "$what" "$(tail -n 3 <<<"$out" | tr '\n' ' ')"; fi
}

summary() {
  local status=$1
  printf '\n================ compose test: %s (%d s) ================\n' "$status" $(($(date +%s) - started_at))
  printf '%s\n' "${results[@]}"
  printf '%d checks, %d failed\n' "${#results[@]}" "$failures"
}

# Takes down everything the test brought up (all profiles, so k6 and Prometheus too), on any exit.
cleanup() {
  local code=$?
  trap - EXIT INT TERM
  if $started; then
    say "cleaning up: docker compose down"
    "${compose[@]}" down --remove-orphans --timeout 30 >"$work/down-cleanup.log" 2>&1 \
      || { cat "$work/down-cleanup.log"; echo "WARNING: docker compose down failed; run it by hand"; }
  fi
  rm -rf "$work"
  exit "$code"
}
interrupted() {
  fail "interrupted" "stopped by a signal before the end"
  summary "FAIL (interrupted)"
  exit 130
}
trap cleanup EXIT
trap interrupted INT TERM

abort() { # a failure after which nothing else can be checked
  fail "$1" "$2"
  summary FAIL
  exit 1
}

# ---- preconditions: say exactly what is missing, and touch nothing the user already runs
say "preconditions"
command -v docker >/dev/null || abort "docker installed" "no docker command on PATH"
docker compose version >/dev/null 2>&1 || abort "docker compose plugin" "\`docker compose version\` failed"
docker info >/dev/null 2>&1 || abort "Docker engine running" "\`docker info\` failed: start the engine (dockerd)"
command -v curl >/dev/null || abort "curl installed" "the checks ask the services over HTTP with curl"
if [ -n "$(docker ps --all --quiet --filter label=com.docker.compose.project=quarkus-thread-lab)" ]; then
  abort "no lab containers yet" "the lab's containers exist already (docker compose ps -a); this test brings up and \
takes down its own, so run \`docker compose down\` first"
fi
for port in "${ports[@]}"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    abort "port $port free" "something listens on 127.0.0.1:$port already"
  fi
done
pass "Docker $(docker info --format '{{.ServerVersion}}'), compose $(docker compose version --short), ports free"

# The values compose will use: the environment's, else .env's (as compose itself decides).
while IFS='=' read -r key value; do
  if [[ $key =~ ^LAB_[A-Z_]+$ ]] && [ -z "${!key+set}" ]; then printf -v "$key" '%s' "$value"; fi
done < .env
expected_quota=$(awk -v c="$LAB_CPUS" 'BEGIN { printf "%d", c * 100000 }')

say "base images"
scripts/prepare-base-images.sh || abort "base images" "scripts/prepare-base-images.sh failed"

# Recordings already in ./jfr are not proof: only those written after this point count.
touch "$work/before"

say "docker compose up --build -d --wait (the first build downloads the Quarkus closure: minutes)"
started=true
t0=$(date +%s)
if "${compose[@]}" up --build --detach --wait --wait-timeout 300 "${services[@]}" >"$work/up.log" 2>&1; then
  pass "docker compose up --build --wait ($(($(date +%s) - t0)) s)"
  docker image ls --format '  {{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'quarkus-thread-lab/[a-z-]+-service' || true
else
  tail -n 40 "$work/up.log"
  "${compose[@]}" ps --all
  abort "docker compose up --build --wait" "see the output above"
fi

say "five healthy services, non-root, CPU quota"
for service in "${services[@]}"; do
  id=$(docker compose ps --quiet "$service")
  check "$service is healthy" test "$(docker inspect --format '{{.State.Health.Status}}' "$id")" = healthy
  user=$(docker inspect --format '{{.Config.User}}' "$id")
  uid=$(docker exec "$id" sh -c 'sed -n "s/^Uid:[[:space:]]*\([0-9]*\).*/\1/p" /proc/1/status')
  check "$service runs as non-root (user '$user', PID 1 uid $uid)" test -n "$user" -a "${uid:-0}" -gt 0
done
for entry in "${variants[@]}"; do
  read -r service _ _ _ <<<"$entry"
  id=$(docker compose ps --quiet "$service")
  nano=$(docker inspect --format '{{.HostConfig.NanoCpus}}' "$id")
  # The cgroup as the container sees it: v1 (cpu.cfs_quota_us and period) or v2 (cpu.max "quota period").
  cgroup=$(docker exec "$id" sh -c 'if [ -f /sys/fs/cgroup/cpu.max ]; then cat /sys/fs/cgroup/cpu.max;
    else echo "$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us) $(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us)"; fi')
  check "$service: cgroup CPU quota '$cgroup' = $LAB_CPUS CPU (NanoCpus $nano)" \
    test "$cgroup" = "$expected_quota 100000" -a "$nano" = "$(awk -v c="$LAB_CPUS" 'BEGIN { printf "%d", c * 1e9 }')"
done

say "the delay service: the default wait from .env"
delay_env=$(docker inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$(docker compose ps --quiet delay-service)")
check "delay-service has LAB_DELAY_MS=$LAB_DELAY_MS" grep -qx "LAB_DELAY_MS=$LAB_DELAY_MS" <<<"$delay_env"
default=$(curl -fsS "http://127.0.0.1:8090/delay/default" || true)
echo "delay-service /delay/default: $default"
check "delay-service's GET /delay/default answers $LAB_DELAY_MS ms" grep -q "\"defaultMs\":$LAB_DELAY_MS[,}]" <<<"$default"

say "each variant: /lab/runtime, knobs, /api"
for entry in "${variants[@]}"; do
  read -r service port thread virtual <<<"$entry"
  runtime=$(curl -fsS "http://127.0.0.1:$port/lab/runtime" || true)
  echo "$service /lab/runtime: $runtime"
  check "$service sees availableProcessors 1" grep -q '"availableProcessors":1[,}]' <<<"$runtime"
  check "$service: worker pool max $LAB_WORKER_POOL_MAX" grep -q "\"workerPoolMax\":$LAB_WORKER_POOL_MAX[,}]" <<<"$runtime"
  for flag in "-Xms$LAB_HEAP" "-Xmx$LAB_HEAP" "-XX:+Use${LAB_GC}GC" \
      "-XX:StartFlightRecording=settings=/lab/threads.jfc,filename=/recordings/$service.jfr,dumponexit=true"; do
    check "$service JVM runs with $flag" grep -qF "\"$flag\"" <<<"$runtime"
  done
  env=$(docker inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$(docker compose ps --quiet "$service")")
  for knob in "LAB_CONNECTION_POOL_SIZE=$LAB_CONNECTION_POOL_SIZE" "LAB_CONNECT_TIMEOUT_MS=$LAB_CONNECT_TIMEOUT_MS" \
      "LAB_READ_TIMEOUT_MS=$LAB_READ_TIMEOUT_MS" "LAB_WORKER_POOL_MAX=$LAB_WORKER_POOL_MAX" \
      "DELAY_URL=http://delay-service:8090"; do
    check "$service has $knob" grep -qx "$knob" <<<"$env"
  done
  api=$(curl -fsS "http://127.0.0.1:$port/api" || true)
  echo "$service /api: $api"
  check "$service /api answers on $thread (virtual $virtual)" \
    grep -Eq "\"servedBy\":\\{\"thread\":\"$thread\",\"virtual\":$virtual\\}" <<<"$api"
  check "$service /api waited the delay service's default, $LAB_DELAY_MS ms" \
    grep -qF "\"message\":\"delayed $LAB_DELAY_MS ms\"" <<<"$api"
done

say "k6 (profile load): closed.js against reactive-service"
if "${compose[@]}" run --rm -T k6 run /scripts/closed.js -e BASE_URL=http://reactive-service:8082 \
    -e VARIANT=reactive -e VUS=10 -e DURATION=5s >"$work/k6.log" 2>&1; then
  grep -E '^reactive closed-10:' "$work/k6.log" || true
  check "k6 run closed.js exits 0 with 0 errors" grep -Eq '^reactive closed-10: [1-9][0-9]* requests.* 0 errors' "$work/k6.log"
else
  tail -n 20 "$work/k6.log"
  fail "k6 run closed.js exits 0" "see the output above"
fi

say "Prometheus (profile monitoring): five targets up"
if "${compose[@]}" up --detach --wait prometheus >"$work/prometheus.log" 2>&1; then
  for target in delay-service:8090 imperative-service:8081 reactive-service:8082 virtual-thread-service:8083 \
      imperative-rest-service:8084; do
    up=""
    for _ in $(seq 1 30); do # the scrape interval is 5 s
      up=$(curl -fsS -G "http://127.0.0.1:9090/api/v1/query" --data-urlencode "query=up{instance=\"$target\"}" \
        | grep -o '"value":\[[0-9.]*,"[01]"\]' | grep -o '"[01]"' || true)
      [ "$up" = '"1"' ] && break
      sleep 2
    done
    check "Prometheus scrapes $target/q/metrics: up" test "$up" = '"1"'
  done
else
  tail -n 20 "$work/prometheus.log"
  docker compose --profile monitoring logs --no-color --tail 20 prometheus || true
  fail "Prometheus starts" "see the output above"
fi

say "docker compose down: each variant's recording lands in ./jfr"
t0=$(date +%s)
if "${compose[@]}" down --remove-orphans --timeout 30 >"$work/down.log" 2>&1; then
  started=false
  pass "docker compose down ($(($(date +%s) - t0)) s)"
else
  fail "docker compose down" "$(tail -n 3 "$work/down.log")"
fi
check "no lab container or network left" test -z "$(docker ps -aq --filter label=com.docker.compose.project=quarkus-thread-lab)$(
  docker network ls -q --filter label=com.docker.compose.project=quarkus-thread-lab)"
jfr_tool() { # the host's jfr tool if a JDK is here, else the one in the runtime image
  if . scripts/find-jdk.sh && find_jdk 2>/dev/null && [ -x "$JAVA_HOME/bin/jfr" ]; then
    "$JAVA_HOME/bin/jfr" summary "$1"
  else
    docker run --rm --network none -v "$PWD/jfr:/jfr:ro" eclipse-temurin:25-jdk jfr summary "/jfr/$(basename "$1")"
  fi
}
for entry in "${variants[@]}"; do
  read -r service _ _ _ <<<"$entry"
  file=jfr/$service.jfr
  if [ -f "$file" ] && [ "$file" -nt "$work/before" ]; then
    if jfr_tool "$file" >"$work/summary.txt" 2>&1; then
      events=$(awk '/^ *jdk\./ { n += $2 } END { print n + 0 }' "$work/summary.txt")
      check "$file written on exit ($(du -h "$file" | cut -f1), owner uid $(stat -c %u "$file")), jfr summary: $events events" \
        test "$events" -gt 0
    else
      fail "$file opens with jfr summary" "$(tail -n 2 "$work/summary.txt")"
    fi
  else
    fail "$file written on exit" "missing, or older than this test"
  fi
done

if [ "$failures" -eq 0 ]; then
  summary PASS
else
  summary FAIL
  exit 1
fi
