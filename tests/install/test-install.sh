#!/usr/bin/env bash
# tests/install: what `meson install` puts on a machine, used the way a C
# application author and a plugin author use it.
#
#   test-install.sh SOURCE_ROOT BUILD_ROOT [--cc=COMPILER] [--sanitize=VALUE]
#
# Installs the current build into a temporary DESTDIR, then, with only the
# installed files on the paths: checks what was installed, builds each
# example with its own standalone meson.build against the installed
# tracepipe-1.0.pc and runs it, builds the out-of-tree plugin the same way
# and runs pipelines through the installed trace-launch that use it.
# Prints TAP. Skips (`1..0 # SKIP`) when meson, a C compiler or pkg-config
# is missing. Examples that need format elements which are not built yet
# (filter, perfetto-sink, …) are compiled but their runs are skipped.
set -u

source_root=$1
build_root=$2
shift 2
sanitize=none
for arg in "$@"; do
  case $arg in
    --cc=*) export CC="${arg#--cc=}" ;;
    --sanitize=*) sanitize="${arg#--sanitize=}" ;;
  esac
done

for tool in meson ninja pkg-config "${CC:-cc}"; do
  if ! command -v "${tool%% *}" >/dev/null; then
    echo "1..0 # SKIP $tool is not installed"
    exit 0
  fi
done

# Nothing from the build tree or the caller may leak in: only what the
# steps below set explicitly.
unset TRACEPIPE_PLUGIN_PATH TRACEPIPE_PLUGIN_SYSTEM_PATH LD_LIBRARY_PATH GI_TYPELIB_PATH PKG_CONFIG_PATH

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracepipe-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
destdir=$tmp/dest
log=$tmp/log

# ---- TAP helpers ----

n=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () {
  n=$((n + 1)); echo "not ok $n - $1"
  echo "--- $1:" >&2
  tail -n 40 "$log" >&2
}
skip () { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# check DESCRIPTION COMMAND...: one test point; the output goes to $log.
check () {
  local what=$1
  shift
  if "$@" >"$log" 2>&1; then ok "$what"; else not_ok "$what"; return 1; fi
}
bail () { echo "Bail out! $1"; tail -n 40 "$log" >&2; exit 1; }

# ---- install ----

meson install -C "$build_root" --destdir "$destdir" --no-rebuild >"$log" 2>&1 ||
  bail "meson install --destdir failed"
ok "meson install --destdir"

installed_pc=$(find "$destdir" -name tracepipe-1.0.pc | head -n 1)
[ -n "$installed_pc" ] || bail "no tracepipe-1.0.pc was installed"
prefix=$(sed -n 's/^prefix=//p' "$installed_pc")

# The .pc says prefix=/usr/local (or whatever the build's prefix is): right
# on the machine it is installed on, wrong inside DESTDIR. A copy whose
# prefix points into DESTDIR makes every path it derives (includedir,
# libdir, pluginsdir) point at the staged files; pkg-config's sysroot and
# --define-prefix do not fit (they break glib's paths or multiarch libdir).
mkdir -p "$tmp/pkgconfig"
for pc in tracepipe-1.0.pc tracepipe-check-1.0.pc; do
  [ -e "$(dirname "$installed_pc")/$pc" ] || bail "no $pc was installed"
  sed "s|^prefix=.*|prefix=$destdir$prefix|" "$(dirname "$installed_pc")/$pc" >"$tmp/pkgconfig/$pc"
done
export PKG_CONFIG_PATH=$tmp/pkgconfig
libdir=$(pkg-config --variable=libdir tracepipe-1.0)
includedir=$(pkg-config --variable=includedir tracepipe-1.0)
pluginsdir=$(pkg-config --variable=pluginsdir tracepipe-1.0)
bindir=$(dirname "$(find "$destdir" -name trace-launch -type f | head -n 1)")

check "the library, headers, tools and .pc are installed" \
  test -e "$libdir/libtracepipe-1.0.so.0" -a -e "$libdir/libtracepipe-1.0.so" \
  -a -e "$includedir/tracepipe-1.0/trace/trace.h" -a -x "$bindir/trace-launch" -a -x "$bindir/trace-inspect"
check "the test harness library and its header are installed" \
  test -e "$libdir/libtracepipe-check-1.0.so.0" -a -e "$libdir/libtracepipe-check-1.0.so" \
  -a -e "$includedir/tracepipe-1.0/trace/check/traceharness.h"

# Every plugin the build made is installed in the plugin directory.
plugins_installed () {
  local built found=0
  for built in "$build_root"/plugins/*/*.so; do
    [ -e "$built" ] || continue
    found=1
    [ -e "$pluginsdir/$(basename "$built")" ] || { echo "not installed: $built"; return 1; }
  done
  [ $found = 1 ] || echo "(the build has no format plugins)"
}
check "every built plugin is installed in pluginsdir" plugins_installed

# An installed library, not running from the build tree, scans the plugin
# directory it was configured with: the same one the .pc names.
check "the library looks for plugins in the .pc's pluginsdir" \
  grep -qaF "${pluginsdir#"$destdir"}" "$libdir/libtracepipe-1.0.so.0"

# From here on, programs run with the installed library only. The library
# (and so trace-launch) scans its configured plugin directory, an absolute
# path under the prefix; inside DESTDIR that path does not hold the staged
# plugins, so TRACEPIPE_PLUGIN_SYSTEM_PATH, which replaces it, points at
# the staged copy. It is the only plugin setting used; the build tree's
# plugins are never on any path.
export LD_LIBRARY_PATH=$libdir
export TRACEPIPE_PLUGIN_SYSTEM_PATH=$pluginsdir
launch=$bindir/trace-launch
inspect=$bindir/trace-inspect

# The installed tools list exactly the elements the build tree's do.
same_elements () {
  diff <(env -u TRACEPIPE_PLUGIN_SYSTEM_PATH -u LD_LIBRARY_PATH "$build_root/tools/trace-inspect") \
    <("$inspect")
}
check "the installed trace-inspect lists the installed plugins' elements" same_elements

have_elements () {
  local e
  for e in "$@"; do "$inspect" "$e" >/dev/null 2>&1 || { echo "$e"; return 1; }; done
}

# count_events DESCRIPTION...: how many events reach a fakesink, one line
# each, by the installed trace-launch: the reference the examples must match.
count_events () { "$launch" -q "$@" ! fakesink dump=true | wc -l; }

# ---- the examples, each a standalone meson project ----

setup_args=()
if [ "$sanitize" != none ]; then
  # An instrumented library needs an instrumented program to load it.
  setup_args+=("-Db_sanitize=$sanitize" -Db_lundef=false)
fi
build_example () {
  meson setup "$tmp/build-$1" "$source_root/examples/$1" "${setup_args[@]}" \
    -Dc_link_args="-Wl,-rpath,$libdir" &&
    meson compile -C "$tmp/build-$1" -j 2 &&
    # Linked against the staged library, not some other copy.
    ldd "$tmp/build-$1/$2" | grep -qF "$libdir/libtracepipe-1.0.so.0"
}
for example in convert launch app-element; do
  check "examples/$example builds against the installed tracepipe-1.0.pc" build_example "$example" "$example"
done
check "examples/plugin builds against the installed tracepipe-1.0.pc" \
  build_example plugin libtracepipe-slicetext.so

# app-element: the renamed events are exactly the reference's slice-3s.
app_element_renames () {
  local ref=$tmp/app-ref out=$tmp/app-out want
  "$launch" -q fakesrc num-events=10000 ! fakesink dump=true >"$ref" || return 1
  "$tmp/build-app-element/app-element" slice-3 renamed >"$out" 2>"$tmp/app-err" || return 1
  want=$(grep -c 'name="slice-3"' "$ref")
  [ "$want" -gt 0 ] && [ "$(grep -c 'name="renamed"' "$out")" = "$want" ] &&
    ! grep -q 'name="slice-3"' "$out" && [ "$(wc -l <"$out")" = "$(wc -l <"$ref")" ] &&
    grep -qx "renamed $want events" "$tmp/app-err" ||
    { echo "want $want renamed"; cat "$tmp/app-err"; return 1; }
}
check "examples/app-element renames every slice-3 of fakesrc" app_element_renames

# launch --pipeline: its STATS of the sink count the reference's events.
launch_reads_stats () {
  local want
  want=$(count_events fakesrc num-events=1000)
  "$tmp/build-launch/launch" --pipeline 'fakesrc num-events=1000 ! fakesink name=out' >"$tmp/launch-out" &&
    grep -A10 '^/pipeline0/out$' "$tmp/launch-out" | grep -qx "  events-in = $want" ||
    { echo "want events-in = $want"; cat "$tmp/launch-out"; return 1; }
}
check "examples/launch prints the sink's STATS" launch_reads_stats

# The real conversion needs the format plugins and a sample file.
input=$source_root/tests/data/ftrace/catapult_atrace_data.txt
is_perfetto () { [ -s "$1" ] && [ "$(head -c 1 "$1" | od -An -tx1 | tr -d ' ')" = 0a ]; }
convert_converts () {
  "$tmp/build-convert/convert" "$input" "$tmp/convert.pftrace" >"$tmp/convert-out" &&
    grep -q ' 100% ' "$tmp/convert-out" && is_perfetto "$tmp/convert.pftrace"
}
launch_converts () {
  local want
  want=$(count_events ftrace-src location="$input" ! filter tid=main)
  "$tmp/build-launch/launch" "$input" "$tmp/launch.pftrace" >"$tmp/launch-out" &&
    is_perfetto "$tmp/launch.pftrace" &&
    grep -A10 '^/pipeline0/perfetto-sink0$' "$tmp/launch-out" | grep -qx "  events-in = $want" ||
    { echo "want events-in = $want"; cat "$tmp/launch-out"; return 1; }
}
if missing=$(have_elements ftrace-src filter perfetto-sink) && [ -e "$input" ]; then
  check "examples/convert converts a systrace to Perfetto, with progress" convert_converts
  check "examples/launch converts it too and counts the events" launch_converts
else
  reason="the element ${missing:-?} is not installed (trace-inspect ${missing:-?} fails)"
  [ -e "$input" ] || reason="no sample input $input"
  skip "examples/convert runs" "$reason"
  skip "examples/launch converts a file" "$reason"
fi

# ---- the out-of-tree plugin ----

plugin_build=$tmp/build-plugin
check "examples/plugin's own tests pass against the installed library" \
  meson test -C "$plugin_build" --print-errorlogs
check "trace-inspect lists the plugin from TRACEPIPE_PLUGIN_PATH" \
  bash -c "TRACEPIPE_PLUGIN_PATH='$plugin_build' '$inspect' | grep -q '^slicetext:  slicetext-src: ' &&
           TRACEPIPE_PLUGIN_PATH='$plugin_build' '$inspect' slicetext-src"

# The events are the sample's valid lines with dur >= 1ms, worked out
# here from the file with awk, not from the program.
plugin_pipeline () {
  local sample=$source_root/examples/plugin/sample.slices
  awk '$1 !~ /^#/ && NF == 4 && $1 ~ /^-?[0-9]+$/ && $2 ~ /^-?[0-9]+$/ && $4 ~ /^[0-9]+$/ && $4 >= 1000000 {
         printf "%s slice-complete pid=1 tid=%s cpu=-1 name=\"%s\" dur=%s\n", $1, $2, $3, $4 }' \
    "$sample" >"$tmp/plugin-want"
  [ -s "$tmp/plugin-want" ] &&
    TRACEPIPE_PLUGIN_PATH=$plugin_build "$launch" -q \
      slicetext-src location="$sample" ! min-duration min-dur=1ms ! fakesink dump=true >"$tmp/plugin-got" &&
    diff "$tmp/plugin-want" "$tmp/plugin-got"
}
check "trace-launch runs slicetext-src ! min-duration from the plugin" plugin_pipeline

# Installed into the plugin directory the .pc names, it needs no
# TRACEPIPE_PLUGIN_PATH. (The relocated .pc's pluginsdir already points
# into DESTDIR, so a plain install stages it there.)
check "the plugin installs into pluginsdir and is found there" \
  bash -c "meson install -C '$plugin_build' &&
           test -e '$pluginsdir/libtracepipe-slicetext.so' && '$inspect' min-duration"

# ---- Python, through the installed typelib ----

typelib=$libdir/girepository-1.0/Tracepipe-1.0.typelib
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import gi' 2>/dev/null; then
    python=$candidate
    break
  fi
done
python_runs () {
  local want
  want=$(count_events fakesrc num-events=10000)
  GI_TYPELIB_PATH=$(dirname "$typelib") "$python" "$source_root/examples/python/convert.py" >"$tmp/py-out" &&
    grep -qx "events: $want" "$tmp/py-out" || { echo "want events: $want"; cat "$tmp/py-out"; return 1; }
}
# app-sink through the installed typelib: the per-thread slice counts of
# a Chrome JSON trace, against what the installed trace-launch's fakesink
# prints for the same file.
python_slices () {
  local input=$source_root/tests/data/json/speedscope_chrome69_simple.json want got
  want=$("$launch" -q json-src location="$input" ! fakesink dump=true 2>/dev/null |
    awk '$2 == "slice-begin" || $2 == "slice-complete" { n[$3 " " $4]++ } END { for (k in n) print k, n[k] }' |
    sed 's/pid=//; s/tid=//' | sort -n -k1,1 -k2,2)
  got=$(GI_TYPELIB_PATH=$(dirname "$typelib") "$python" "$source_root/examples/python/slices-per-thread.py" "$input" |
    cut -d' ' -f1-3)
  [ -n "$want" ] && [ "$got" = "$want" ] || { printf 'want:\n%s\ngot:\n%s\n' "$want" "$got"; return 1; }
}
for what in "examples/python/convert.py runs a pipeline through the installed typelib:python_runs" \
            "examples/python/slices-per-thread.py counts slices through app-sink:python_slices"; do
  if [ ! -e "$typelib" ]; then
    skip "${what%%:*}" "no typelib installed (gobject-introspection was not there at build time)"
  elif [ -z "$python" ]; then
    skip "${what%%:*}" "no python3 with PyGObject (python3-gi)"
  elif [ "$sanitize" != none ]; then
    skip "${what%%:*}" "python3 cannot load a library built with -Db_sanitize=$sanitize"
  else
    check "${what%%:*}" "${what##*:}"
  fi
done

echo "1..$n"
