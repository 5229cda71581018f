# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
# Sourced by bin/oshrun, bin/shmem-info, bin/shmem-report and bin/oshjavac: finds a JDK 25+ ($JAVA) and the jshmem classes
# ($JSHMEM_CP, $ROOT) and oshrun's launcher ($JSHMEM_LAUNCHER_CP: its jar or classes, which only
# oshrun's own JVM runs, never a PE). $1 is the calling command's name, for error messages.
_jshmem_cmd=${1:-jshmem}

die() {
    echo "$_jshmem_cmd: $*" >&2
    exit 2
}

# No forks where bash can do without: oshrun runs this before every job, and each fork (with an
# exec: readlink, dirname) costs a few milliseconds, ~70 ms in all before it was trimmed.

# Sets REPLY to the path $1 with its symbolic links resolved (readlink -f, run only for a link).
resolve_link() {
    REPLY=$1
    if [[ -L $REPLY ]]; then
        REPLY=$(readlink -f "$REPLY")
    fi
}

# Sets REPLY to the feature version (e.g. 25) of the JDK owning the java binary $1, or to nothing.
# Reads the JDK's release file when there is one: much faster than starting a JVM.
java_major() {
    local bin home line
    resolve_link "$1"
    bin=$REPLY
    REPLY=
    home=${bin%/bin/java}
    if [[ -r $home/release ]]; then
        while IFS= read -r line; do
            if [[ $line =~ ^JAVA_VERSION=\"([0-9]+) ]]; then
                REPLY=${BASH_REMATCH[1]}
                return
            fi
        done <"$home/release"
    fi
    REPLY=$("$bin" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')
}

is_jdk25() {
    [[ -x $1 ]] || return 1
    java_major "$1"
    [[ -n $REPLY && $REPLY -ge 25 ]]
}

# Sets JAVA to a JDK 25+ java binary; fails if there is none.
find_java() {
    local candidate
    if [[ -n ${JAVA_HOME:-} ]] && is_jdk25 "$JAVA_HOME/bin/java"; then
        JAVA=$JAVA_HOME/bin/java
        return
    fi
    # JSHMEM_JVM_DIR: where JDKs are installed (default /usr/lib/jvm; tests point it elsewhere).
    for candidate in "${JSHMEM_JVM_DIR:-/usr/lib/jvm}"/*25*/bin/java "$(command -v java)"; do
        if is_jdk25 "$candidate"; then
            JAVA=$candidate
            return
        fi
    done
    return 1
}

find_java || die "jshmem needs JDK 25 or newer and found none (JAVA_HOME, ${JSHMEM_JVM_DIR:-/usr/lib/jvm}/*25*, PATH): install one (e.g. Eclipse Temurin 25, https://adoptium.net) and set JAVA_HOME to it"

resolve_link "${BASH_SOURCE[0]}"
[[ $REPLY == */* ]] || REPLY=./$REPLY
ROOT=$(CDPATH= cd -- "${REPLY%/*}/.." && pwd -P)

shopt -s nullglob
jars=("$ROOT"/lib/*.jar)
_jshmem_launcher=("$ROOT"/lib/launcher/*.jar)
shopt -u nullglob
if ((${#jars[@]} > 0)); then
    # Distribution layout: the jshmem jars in lib/, the launcher's in lib/launcher/.
    _jshmem_ifs=$IFS
    IFS=:
    JSHMEM_CP=${jars[*]}
    JSHMEM_LAUNCHER_CP=${_jshmem_launcher[*]}
    IFS=$_jshmem_ifs
else
    # Source tree layout: the modules' jars in target/ (made by `mvn package` or `install`) when
    # each is at least as new as every file of its module's target/classes, so that oshrun can start
    # the PEs from an ahead-of-time cache (the JVM archives classes from jars only); else the
    # classes directories (e.g. after `mvn compile`, or an IDE's build into target/classes).
    # shmem-launcher's (last) becomes $JSHMEM_LAUNCHER_CP, not part of the PEs' $JSHMEM_CP.
    [[ -f $ROOT/shmem-core/target/classes/module-info.class ]] ||
        die "jshmem is not built: run \`mvn -DskipTests install\` in $ROOT"
    _jshmem_dirs=() _jshmem_jars=() _jshmem_newer=() _jshmem_use_jars=1
    for module in shmem-api shmem-core shmem-spawn shmem-ucx shmem-report shmem-launcher; do
        if [[ -d $ROOT/$module/target/classes ]]; then
            _jshmem_dirs+=("$ROOT/$module/target/classes")
            _jshmem_jar=
            for _jshmem_f in "$ROOT/$module/target/$module"-*.jar; do
                case $_jshmem_f in
                    *-sources.jar|*-javadoc.jar|*-tests.jar|*-test-sources.jar) ;;
                    *) [[ -f $_jshmem_f && ( -z $_jshmem_jar || $_jshmem_f -nt $_jshmem_jar ) ]] && _jshmem_jar=$_jshmem_f ;; # the newest
                esac
            done
            if [[ -n $_jshmem_jar ]]; then
                _jshmem_jars+=("$_jshmem_jar")
                # find's test below: a file of this module's classes newer than its jar.
                _jshmem_newer+=(${_jshmem_newer[0]+-o} -path "$ROOT/$module/target/classes/*" -newer "$_jshmem_jar")
            else
                _jshmem_use_jars= # a module without a jar: classes directories for all
            fi
        fi
    done
    # find -path takes a pattern: a root with pattern characters in its name keeps the classes.
    [[ $ROOT == *[][*?\\]* ]] && _jshmem_use_jars=
    if [[ -n $_jshmem_use_jars ]] &&
        [[ -z $(find "${_jshmem_dirs[@]}" -type f \( "${_jshmem_newer[@]}" \) -print -quit 2>/dev/null) ]]; then
        _jshmem_dirs=("${_jshmem_jars[@]}")
    fi
    # The launcher's entry (when built) goes to $JSHMEM_LAUNCHER_CP; $jars (which enables the
    # start-up caches) holds the PEs' jars only.
    _jshmem_launcher=() _jshmem_pe=()
    for _jshmem_f in "${_jshmem_dirs[@]}"; do
        if [[ $_jshmem_f == "$ROOT/shmem-launcher/"* ]]; then
            _jshmem_launcher+=("$_jshmem_f")
        else
            _jshmem_pe+=("$_jshmem_f")
        fi
    done
    [[ ${_jshmem_pe[0]-} == *.jar ]] && jars=("${_jshmem_pe[@]}")
    _jshmem_ifs=$IFS
    IFS=:
    JSHMEM_CP=${_jshmem_pe[*]}
    JSHMEM_LAUNCHER_CP=${_jshmem_launcher[*]-}
    IFS=$_jshmem_ifs
    unset _jshmem_dirs _jshmem_jars _jshmem_newer _jshmem_jar _jshmem_f _jshmem_use_jars _jshmem_pe
fi
unset _jshmem_launcher

