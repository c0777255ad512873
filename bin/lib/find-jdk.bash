# Sourced by bin/chiplet, bin/test and .ci/run: sets CHIPLET_JAVA_HOME to a JDK >= 25.
#
# Looks, in order, at $JAVA_HOME, /usr/lib/jvm/*25*, the other usual install paths (Debian/Ubuntu and
# Temurin packages, /opt, SDKMAN, macOS), and the java on PATH. On failure, find_jdk prints one line naming
# what it found and returns 1.

CHIPLET_MIN_JAVA=25

# The feature version of the JDK at $1 ("25", "17", "8" for 1.8), or nothing when $1 holds no runnable java.
jdk_version()
{
    local home="$1" line version
    [[ -x "$home/bin/java" && -x "$home/bin/javac" ]] || return 0
    # The JDK's release file names its version without starting a JVM (a tenth of a second, on every bin/chiplet run).
    line="$(grep -m1 -E '^JAVA_VERSION="[^"]+"' "$home/release" 2>/dev/null)" \
        || line="$("$home/bin/java" -version 2>&1 | grep -m1 -E 'version "[^"]+"')" || return 0
    version="${line#*\"}"
    version="${version%%\"*}"
    version="${version#1.}"
    echo "${version%%[.+-]*}"
}

find_jdk()
{
    local -a candidates=()
    local found="" seen="|" home version

    [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME")
    shopt -s nullglob
    candidates+=(/usr/lib/jvm/*25* /usr/lib/jvm/temurin-* /usr/lib/jvm/*)
    candidates+=(/opt/java /opt/java/* /opt/jdk* /usr/java/* /usr/local/java/*)
    candidates+=("$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*)
    candidates+=(/Library/Java/JavaVirtualMachines/*/Contents/Home)
    shopt -u nullglob
    if command -v java >/dev/null 2>&1; then
        home="$(readlink -f "$(command -v java)")"
        candidates+=("${home%/bin/java}")
    fi

    for home in "${candidates[@]}"; do
        home="$(readlink -f "$home" 2>/dev/null || echo "${home%/}")"
        # Bash 3 (macOS) has no associative arrays.
        [[ "$seen" == *"|$home|"* ]] && continue
        seen+="$home|"
        version="$(jdk_version "$home")"
        [[ -z "$version" || ! "$version" =~ ^[0-9]+$ ]] && continue
        if (( version >= CHIPLET_MIN_JAVA )); then
            CHIPLET_JAVA_HOME="$home"
            return 0
        fi
        found+="${found:+, }$home ($version)"
    done
    echo "chiplet: needs a JDK >= $CHIPLET_MIN_JAVA (set JAVA_HOME); found: ${found:-none}" >&2
    return 1
}
