#!/usr/bin/env bash
# Fails when a configured build uses a Debian package that scripts/deps.sh does not install.
#   scripts/check-deps.sh [BUILD_DIR]     (default build/ci; run after `cmake --preset ...`)
#
# A machine that already has a package hides a missing install step: the build works there and
# nowhere else. So every file the configure step found is traced to the package that owns it
# (dpkg -S): the package configurations CMake loaded (the *_DIR entries of CMakeCache.txt), the
# programs and libraries it found that the build rules use (the cache's other file entries) and
# every library the build links (build.ninja). Each owner must be in deps.sh's list, or be pulled in by it: the
# closure of Depends and Pre-Depends of the listed packages, as installed here.
#
# A file no package owns (a tool in /usr/local, say) is reported as a warning: a fresh machine
# would not have it either, but neither could deps.sh install it.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/ci}"
cache="$build/CMakeCache.txt"
if [ ! -f "$cache" ]; then
    echo "check-deps: $cache not found: configure first (cmake --preset ci)" >&2
    exit 2
fi

# Candidate files, one per line.
files() {
    # Package configurations: the *Config.cmake / *-config.cmake inside each *_DIR.
    sed -n -E 's/^[A-Za-z0-9_]+_DIR:PATH=(\/.*)$/\1/p' "$cache" | while read -r dir; do
        [ -d "$dir" ] || continue
        name="$(basename "$dir")"
        for c in "$dir/${name}Config.cmake" "$dir/$(echo "$name" | tr 'A-Z' 'a-z')-config.cmake"; do
            if [ -f "$c" ]; then
                echo "$c"
                continue 2
            fi
        done
        find "$dir" -maxdepth 1 \( -name '*Config.cmake' -o -name '*-config.cmake' \) | head -n 1
    done
    # Programs and libraries found by find_program / find_library (FILEPATH entries) that the
    # build rules use; an optional find that nothing uses (FindOpenGL's GLU, say) is not needed.
    sed -n -E 's/^[A-Za-z0-9_]+:FILEPATH=(\/.*)$/\1/p' "$cache" | while read -r f; do
        if grep -qsF -- "$f" "$build/build.ninja" "$build/CMakeFiles/rules.ninja"; then
            echo "$f"
        fi
    done
    # Libraries the build links.
    if [ -f "$build/build.ninja" ]; then
        grep -h '^  LINK_LIBRARIES = ' "$build/build.ninja" | tr ' ' '\n' | grep '^/' || true
    fi
}

src="$(pwd)"
mapfile -t candidates < <(files | sort -u)
owners_file="$(mktemp)"
trap 'rm -f "$owners_file"' EXIT
unowned=()
for f in "${candidates[@]}"; do
    [ -e "$f" ] || continue
    case "$f" in "$src"/* | "$(cd "$build" && pwd)"/*) continue ;; esac
    owner=""
    # dpkg knows the path a package ships; try it as given, resolved, and across the /usr merge.
    for p in "$f" "$(readlink -f "$f")"; do
        for q in "$p" "${p#/usr}" "/usr$p"; do
            owner="$(dpkg -S "$q" 2>/dev/null | grep -v '^diversion' | head -n 1 | sed -E 's/: .*$//')" || true
            [ -n "$owner" ] && break 2
        done
    done
    if [ -z "$owner" ]; then
        unowned+=("$f")
        continue
    fi
    # "pkg1, pkg2" when several packages ship the path; drop ":arch".
    echo "$owner" | tr ',' '\n' | sed -E 's/^ *//; s/:[a-z0-9_-]+$//' | while read -r o; do
        printf '%s\t%s\n' "$o" "$f"
    done >>"$owners_file"
done

for f in "${unowned[@]}"; do
    echo "check-deps: warning: $f belongs to no Debian package (a fresh machine lacks it)" >&2
done

mapfile -t listed < <(./scripts/deps.sh --list)

# The closure of the listed packages over Depends / Pre-Depends, among installed packages (an
# alternative counts when it is installed; a virtual name counts for every installed provider).
python3 - "$owners_file" "${listed[@]}" <<'EOF'
import re, subprocess, sys

owners_file, listed = sys.argv[1], sys.argv[2:]
out = subprocess.run(
    ["dpkg-query", "-W", "-f=${Package}\t${db:Status-Status}\t${Depends}, ${Pre-Depends}\t${Provides}\n"],
    capture_output=True, text=True, check=True).stdout
deps, provides = {}, {}
for line in out.splitlines():
    name, status, dep, prov = (line.split("\t") + ["", "", ""])[:4]
    if status != "installed":
        continue
    deps.setdefault(name, []).append(dep)
    for p in prov.split(","):
        p = re.sub(r"\(.*?\)|:\S+", "", p).strip()
        if p:
            provides.setdefault(p, set()).add(name)

def names(alternative):
    n = re.sub(r"\(.*?\)|\[.*?\]|<.*?>|:\S+", "", alternative).strip()
    out = set()
    if n in deps:
        out.add(n)
    out |= provides.get(n, set())
    return out

closure, todo = set(), [p for p in listed if p in deps]
missing_listed = [p for p in listed if p not in deps]
while todo:
    p = todo.pop()
    if p in closure:
        continue
    closure.add(p)
    for field in deps.get(p, []):
        for group in field.split(","):
            for alt in group.split("|"):
                todo.extend(names(alt) - closure)

used = {}
with open(owners_file) as f:
    for line in f:
        pkg, path = line.rstrip("\n").split("\t", 1)
        used.setdefault(pkg, []).append(path)

bad = {p: paths for p, paths in used.items() if p not in closure}
for p in missing_listed:
    print(f"check-deps: note: {p} is listed in scripts/deps.sh but not installed here "
          "(deps.sh installs nodejs and npm only when the commands are missing)", file=sys.stderr)
if bad:
    for p, paths in sorted(bad.items()):
        print(f"check-deps: the build uses {p} ({', '.join(sorted(paths)[:3])}"
              f"{', ...' if len(paths) > 3 else ''}), which scripts/deps.sh neither installs "
              f"nor pulls in: add {p} to its list", file=sys.stderr)
    sys.exit(1)
print(f"check-deps: {len(used)} packages used by the build, all installed by scripts/deps.sh "
      f"({len(listed)} listed, {len(closure)} with their dependencies)")
EOF
