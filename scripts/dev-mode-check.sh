#!/usr/bin/env bash
# Scripted check that every service runs under `quarkus dev` at once, on its own ports, and that live reload works
# in each: every service answers, then a source file of each is edited and the next request answers with the change.
# Runs in a temporary copy of the lab, so the checkout is never edited. Usage: scripts/dev-mode-check.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/threadlab-dev-XXXXXX)"
pids=()

cleanup() {
  for pid in "${pids[@]}"; do kill -- -"$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
  sleep 3
  for pid in "${pids[@]}"; do kill -9 -- -"$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "Copying the lab to $work (sources only)"
(cd "$here" && tar --exclude=./results --exclude=./.git --exclude='*/target' --exclude=./.tools -cf - .) | tar -xf - -C "$work"

# module:port:path that proves it answers
services=(delay-service:8090:/delay?ms=1 imperative-service:8081:/api reactive-service:8082:/api
          virtual-thread-service:8083:/api imperative-rest-service:8084:/api mistakes-service:8091:/mistakes/cpu/worker)

for entry in "${services[@]}"; do
  IFS=: read -r module port path <<<"$entry"
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "FAIL: port $port ($module) is in use; stop what holds it (ss -ltnp 'sport = :$port')" >&2
    exit 1
  fi
done

# The services' tests need lab-database, and every service lab-settings (.env on its class path), which -am builds
# with each of them (neither is installed in any repository): compiled once here, so that the dev modes started side
# by side find them up to date instead of compiling them at once.
echo "Compiling lab-database and lab-settings"
(cd "$work" && ./mvnw -B -q -pl lab-database,lab-settings compile)

for entry in "${services[@]}"; do
  IFS=: read -r module port path <<<"$entry"
  echo "Starting $module in dev mode on :$port"
  # its own process group, so that cleanup stops Maven and the app it forked
  setsid bash -c "cd '$work' && exec ./mvnw -B -q -pl $module -am quarkus:dev -Dquarkus.console.disable-input=true" \
    >"$work/$module-dev.log" 2>&1 &
  pids+=("$!")
done

answer() { curl -s -m 5 "http://127.0.0.1:$1$2" || true; }

for entry in "${services[@]}"; do
  IFS=: read -r module port path <<<"$entry"
  for _ in $(seq 1 120); do
    if answer "$port" "$path" | grep -q '"message"'; then
      echo "  $module answers on :$port: $(answer "$port" "$path" | cut -c1-100)"
      continue 2
    fi
    sleep 3
  done
  echo "FAIL: $module did not answer on :$port within 6 min; last lines of its log:" >&2
  tail -20 "$work/$module-dev.log" >&2
  exit 1
done

echo "Editing each service: delay-service's DelayTimer message gains ' (live)', each variant's ApiReply ' (live <module>)'"
sed -i 's/" ms", ms, elapsed/" ms (live)", ms, elapsed/' "$work/delay-service/src/main/java/io/threadlab/delay/DelayTimer.java"
grep -q '(live)' "$work/delay-service/src/main/java/io/threadlab/delay/DelayTimer.java" \
  || { echo "FAIL: could not find the delay service's message to edit" >&2; exit 1; }
for entry in "${services[@]:1}"; do
  IFS=: read -r module port path <<<"$entry"
  reply="$work/$module/src/main/java/io/threadlab/api/ApiReply.java"
  # a compact constructor: the record's only change, so the edit cannot break the build
  sed -i "s/^public record ApiReply(String message, ServedBy servedBy) {/&\n    public ApiReply { message = message + \" (live $module)\"; }/" "$reply"
  grep -q "(live $module)" "$reply" || { echo "FAIL: could not edit $reply" >&2; exit 1; }
done

for entry in "${services[@]}"; do
  IFS=: read -r module port path <<<"$entry"
  marker="(live)"
  [ "$module" = delay-service ] || marker="(live) (live $module)"
  for _ in $(seq 1 60); do
    if answer "$port" "$path" | grep -qF "$marker"; then
      echo "  $module reloaded: $(answer "$port" "$path" | cut -c1-110)"
      continue 2
    fi
    sleep 2
  done
  echo "FAIL: the edit of $module did not show up within 2 min; last lines of its log:" >&2
  tail -20 "$work/$module-dev.log" >&2
  exit 1
done
echo "PASS: all ${#services[@]} services ran in dev mode at once, and each one's source edit was live on its next request"
