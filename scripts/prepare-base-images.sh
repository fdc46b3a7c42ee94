#!/usr/bin/env bash
# Makes the base images that the lab's Dockerfiles and compose.yaml name, on a machine that cannot pull them (no
# Docker Hub, no registry mirror). With a registry you never need this script: `docker compose up --build` pulls the
# real images. Here each one is a local stand-in under the same name and tag, so no other file changes:
#
#   eclipse-temurin:25-jdk        Debian bookworm (debootstrap, minbase) + this machine's JDK 25
#   maven:3.9-eclipse-temurin-25  the above + Maven 3.9.11 from Maven Central (SHA-512 checked)
#   grafana/k6:1.8.1              Debian + k6 v1.8.1 built with `go install` (or a k6 v1.8.1 already on PATH)
#   prom/prometheus:v3.5.0        Debian + Debian's own prometheus package (2.42: same config file, HTTP API, port;
#                                 its classic web UI)
#   grafana/grafana:12.1.0        NOT made: no image or Debian package is reachable; README.md, "With Docker", says
#                                 how to do without it
#
# Idempotent: an image that exists already (pulled or made earlier) is left alone; `docker image rm` one to remake it.
# Every stand-in carries the label lab.stand-in=true, so `docker image ls --filter label=lab.stand-in` tells them apart.
#
# Needs: a running Docker engine; for the Debian base, root and debootstrap (apt-get install debootstrap) and the
# Debian mirror; a JDK 25 (JAVA_HOME, or /usr/lib/jvm/*); curl and Maven Central; Go, unless k6 v1.8.1 is on PATH.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
base=quarkus-thread-lab/debian:bookworm
jdk_image=eclipse-temurin:25-jdk
maven_image=maven:3.9-eclipse-temurin-25
k6_image=grafana/k6:1.8.1
prometheus_image=prom/prometheus:v3.5.0
maven_version=3.9.11
k6_version=v1.8.1
debian_mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

say() { printf '[prepare-base-images] %s\n' "$*"; }
die() { printf '[prepare-base-images] ERROR: %s\n' "$*" >&2; exit 1; }
exists() { docker image inspect "$1" >/dev/null 2>&1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v docker >/dev/null || die "no docker command on PATH. Install Docker (engine and CLI) first."
docker info >/dev/null 2>&1 || die "Docker is installed but its engine does not answer ('docker info' failed).
Start it (systemctl start docker, or dockerd &) and run this again."

# A context directory with a Dockerfile read from stdin; the stand-in's name goes into its labels.
build() { # build <image> <context dir>  (Dockerfile on stdin)
  cat > "$2/Dockerfile"
  say "building $1 ..."
  docker build --quiet --label lab.stand-in=true \
    --label "org.opencontainers.image.description=local stand-in for $1, made by scripts/prepare-base-images.sh" \
    -t "$1" "$2" >/dev/null || die "building $1 failed (see the output above)"
  say "made $1 ($(docker image inspect --format '{{.Size}}' "$1" | awk '{printf "%.0f MB", $1/1e6}'))"
}

make_base() {
  exists "$base" && return 0
  [ "$(id -u)" = 0 ] || die "making the Debian base ($base) needs root for debootstrap; run this script as root."
  command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install -y debootstrap"
  say "debootstrap bookworm (minbase) from $debian_mirror, about half a minute ..."
  local root="$work/rootfs"
  debootstrap --variant=minbase bookworm "$root" "$debian_mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed (log above)"; }
  # What apt downloaded to install is not part of the system.
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | docker import --change 'ENV LANG=C.UTF-8' --change 'CMD ["bash"]' - "$base" >/dev/null
  rm -rf "$root"
  say "made $base"
}

find_jdk25() {
  . "$here/find-jdk.sh"
  local candidate
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    if [ -n "$candidate" ] && [ "$(jdk_feature "$candidate")" = 25 ]; then
      echo "$candidate"
      return 0
    fi
  done
  die "no JDK 25 found (JAVA_HOME, /usr/lib/jvm/*) to stand in for $jdk_image. Install Temurin 25 or point JAVA_HOME at it."
}

make_jdk() {
  exists "$jdk_image" && return 0
  local jdk ctx="$work/jdk"
  jdk=$(find_jdk25)
  say "layering the JDK at $jdk onto $base"
  mkdir -p "$ctx"
  # -L: distribution packages link cacerts and legal files outside the JDK; the image needs the files themselves.
  # The trust store is this machine's, so a TLS proxy it trusts is trusted by the Maven builds in the images too.
  cp -rL "$jdk" "$ctx/openjdk"
  # The real image's layout: JAVA_HOME=/opt/java/openjdk, on PATH. useradd (passwd) and bash are in minbase.
  build "$jdk_image" "$ctx" <<EOF
FROM $base
COPY openjdk /opt/java/openjdk
ENV JAVA_HOME=/opt/java/openjdk PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
RUN java -version
CMD ["jshell"]
EOF
}

make_maven() {
  exists "$maven_image" && return 0
  local ctx="$work/maven" tarball="apache-maven-$maven_version-bin.tar.gz"
  local url="https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/$maven_version/$tarball"
  mkdir -p "$ctx"
  say "downloading Maven $maven_version from Maven Central"
  curl -fsSL --retry 3 -o "$ctx/$tarball" "$url" || die "cannot download $url"
  echo "$(curl -fsSL --retry 3 "$url.sha512" | cut -d' ' -f1)  $ctx/$tarball" | sha512sum -c --quiet - \
    || die "$tarball does not match its published SHA-512"
  # The real image's layout: Maven in /usr/share/maven, mvn on PATH, builds as root into /root/.m2.
  build "$maven_image" "$ctx" <<EOF
FROM $jdk_image
ADD $tarball /usr/share/
RUN mv /usr/share/apache-maven-$maven_version /usr/share/maven && ln -s /usr/share/maven/bin/mvn /usr/bin/mvn \
 && mvn -version
ENV MAVEN_HOME=/usr/share/maven MAVEN_CONFIG=/root/.m2
CMD ["mvn"]
EOF
}

k6_binary() { # prints the path of a k6 $k6_version, building one if none is at hand
  local candidate
  for candidate in "$(command -v k6 || true)" "$(go env GOPATH 2>/dev/null)/bin/k6" "$here/../.tools/bin/k6"; do
    if [ -x "$candidate" ] && "$candidate" version 2>/dev/null | grep -q "k6 $k6_version"; then
      echo "$candidate"
      return 0
    fi
  done
  command -v go >/dev/null || die "k6 $k6_version is not on PATH and Go is missing to build it.
Install Go, or put k6 $k6_version on PATH, and run this again."
  say "building k6 $k6_version with go install (about 2 minutes) ..." >&2
  # Static: the binary must not depend on this machine's C library.
  CGO_ENABLED=0 GOBIN="$work/bin" go install "go.k6.io/k6@$k6_version" >&2 || die "go install go.k6.io/k6@$k6_version failed"
  echo "$work/bin/k6"
}

make_k6() {
  exists "$k6_image" && return 0
  local ctx="$work/k6"
  mkdir -p "$ctx"
  cp "$(k6_binary)" "$ctx/k6"
  # As the real image: k6 is the entrypoint and runs as an unprivileged user (uid 12345).
  build "$k6_image" "$ctx" <<EOF
FROM $base
COPY k6 /usr/bin/k6
RUN useradd --uid 12345 --create-home k6 && k6 version
USER k6
WORKDIR /home/k6
ENTRYPOINT ["k6"]
EOF
}

make_prometheus() {
  exists "$prometheus_image" && return 0
  local ctx="$work/prometheus"
  mkdir -p "$ctx"
  # As the real image: prometheus is the entrypoint, runs as nobody, keeps its data under /prometheus; compose's
  # `command:` replaces CMD only. Debian's build defaults its data to /var/lib/prometheus/metrics2, which a flag-less
  # start (as compose.yaml's) would find unwritable: that path leads to /prometheus too.
  build "$prometheus_image" "$ctx" <<EOF
FROM $base
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus \
 && rm -rf /var/lib/apt/lists/* /var/lib/prometheus/metrics2 \
 && mkdir -p /prometheus /etc/prometheus && chown nobody:nogroup /prometheus \
 && ln -s /prometheus /var/lib/prometheus/metrics2 && prometheus --version
USER nobody
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
EOF
}

wanted=("$jdk_image" "$maven_image" "$k6_image" "$prometheus_image")
missing=()
for image in "${wanted[@]}"; do
  exists "$image" || missing+=("$image")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "all base images are present: ${wanted[*]}"
else
  say "missing: ${missing[*]}"
  make_base
  make_jdk
  make_maven
  make_k6
  make_prometheus
fi
exists grafana/grafana:12.1.0 || say "grafana/grafana:12.1.0 is not here and cannot be made without a registry:" \
  "start only Prometheus (docker compose --profile monitoring up -d prometheus) and use its HTTP API on :9090."
say "done."
