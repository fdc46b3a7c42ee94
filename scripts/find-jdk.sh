# Sourced by ./experiment, ./mvnw and .ci/run: sets JAVA_HOME to a JDK >= 21 (virtual threads), or fails saying what to do.
# Order: $JAVA_HOME, then the newest under /usr/lib/jvm, then the java on PATH.

jdk_feature() { # prints the feature version of the JDK at $1 (e.g. 25), or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/jcmd" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p' | head -n 1
}

find_jdk() {
  local candidate best="" best_version=0 version
  if [ -n "${JAVA_HOME:-}" ]; then
    version=$(jdk_feature "$JAVA_HOME")
    if [ -n "$version" ] && [ "$version" -ge 21 ]; then
      return 0
    fi
    echo "JAVA_HOME=$JAVA_HOME is not a JDK 21 or newer; looking elsewhere." >&2
  fi
  for candidate in /usr/lib/jvm/* "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")"; do
    version=$(jdk_feature "$candidate")
    if [ -n "$version" ] && [ "$version" -ge 21 ] && [ "$version" -gt "$best_version" ]; then
      best=$candidate
      best_version=$version
    fi
  done
  if [ -z "$best" ]; then
    cat >&2 <<'MSG'
No JDK 21 or newer found (looked at $JAVA_HOME, /usr/lib/jvm/* and the java on PATH).
The lab needs one for virtual threads; JDK 25 is what it is measured with. Install one (e.g. Temurin 25) and
point JAVA_HOME at it:  export JAVA_HOME=/path/to/jdk-25
MSG
    return 1
  fi
  export JAVA_HOME=$best
}

# For ./mvnw: Maven 3.9's own libraries (Guice, Jansi) use sun.misc.Unsafe and native access, which JDK 24+ warns
# about on every build. Allow them for Maven's JVM only; the lab's code and services are unaffected.
maven_jvm_options() {
  if [ "$(jdk_feature "$JAVA_HOME")" -ge 24 ]; then
    case " ${MAVEN_OPTS:-} " in
      *" --sun-misc-unsafe-memory-access=allow "*) ;; # already there: ./mvnw called from a ./mvnw build
      *) MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED" ;;
    esac
    export MAVEN_OPTS
  fi
}
