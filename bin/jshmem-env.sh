# Sourced by bin/oshrun, bin/shmem-info and bin/oshjavac: finds a JDK 25+ ($JAVA) and the jshmem classes
# ($JSHMEM_CP, $ROOT). $1 is the calling command's name, for error messages.
_jshmem_cmd=${1:-jshmem}

die() {
    echo "$_jshmem_cmd: $*" >&2
    exit 2
}

# Prints the feature version (e.g. 25) of the JDK owning the java binary $1, or nothing.
# Reads the JDK's release file when there is one: much faster than starting a JVM.
java_major() {
    local bin home line
    bin=$(readlink -f "$1") || return
    home=${bin%/bin/java}
    if [[ -r $home/release ]]; then
        while IFS= read -r line; do
            if [[ $line =~ ^JAVA_VERSION=\"([0-9]+) ]]; then
                echo "${BASH_REMATCH[1]}"
                return
            fi
        done <"$home/release"
    fi
    "$bin" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p'
}

is_jdk25() {
    local major
    [[ -x $1 ]] || return 1
    major=$(java_major "$1")
    [[ -n $major && $major -ge 25 ]]
}

find_java() {
    local candidate
    if [[ -n ${JAVA_HOME:-} ]] && is_jdk25 "$JAVA_HOME/bin/java"; then
        echo "$JAVA_HOME/bin/java"
        return
    fi
    # JSHMEM_JVM_DIR: where JDKs are installed (default /usr/lib/jvm; tests point it elsewhere).
    for candidate in "${JSHMEM_JVM_DIR:-/usr/lib/jvm}"/*25*/bin/java "$(command -v java)"; do
        if is_jdk25 "$candidate"; then
            echo "$candidate"
            return
        fi
    done
    return 1
}

JAVA=$(find_java) || die "jshmem needs JDK 25 or newer and found none (JAVA_HOME, ${JSHMEM_JVM_DIR:-/usr/lib/jvm}/*25*, PATH): install one (e.g. Eclipse Temurin 25, https://adoptium.net) and set JAVA_HOME to it"

ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)

shopt -s nullglob
jars=("$ROOT"/lib/*.jar)
shopt -u nullglob
if ((${#jars[@]} > 0)); then
    # Distribution layout: the jshmem jars in lib/.
    JSHMEM_CP=$(IFS=:; echo "${jars[*]}")
else
    # Source tree layout: the modules' compiled classes.
    [[ -f $ROOT/shmem-core/target/classes/io/jshmem/core/launcher/Launcher.class ]] ||
        die "jshmem is not built: run \`mvn -DskipTests install\` in $ROOT"
    JSHMEM_CP=
    for module in shmem-api shmem-core shmem-spawn shmem-ucx; do
        if [[ -d $ROOT/$module/target/classes ]]; then
            JSHMEM_CP+=${JSHMEM_CP:+:}$ROOT/$module/target/classes
        fi
    done
fi

