#!/usr/bin/env bash
# tests/install: examples/python/convert.py against the build tree.
#
#   test-python.sh SOURCE_ROOT BUILD_ROOT TYPELIB_DIR [--sanitize=VALUE]
#
# Runs the Python examples through PyGObject and the build's typelib,
# with the environment docs/embedding.md gives (relative paths, as
# written there), and checks them against trace-launch: convert.py's
# event count against the same pipeline; with ftrace-src and
# perfetto-sink built, a converted systrace; slices-per-thread.py's
# counts (app-sink) against the slices fakesink dump=true prints. Exit 77 (skipped) without a
# typelib or without python3-gi.
set -u

source_root=$1
build_root=$2
typelib_dir=$3
sanitize=${4:-}
sanitize=${sanitize#--sanitize=}

skip () { echo "SKIP: $1"; exit 77; }
fail () { echo "FAIL: $1" >&2; exit 1; }

[ -n "$typelib_dir" ] && [ -e "$typelib_dir/Tracepipe-1.0.typelib" ] ||
  skip "no Tracepipe-1.0.typelib: gobject-introspection was not installed at build time"
case $sanitize in
  ""|none) ;;
  *) skip "python3 cannot load a library built with -Db_sanitize=$sanitize" ;;
esac
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import gi' 2>/dev/null; then
    python=$candidate
    break
  fi
done
[ -n "$python" ] || skip "no python3 with PyGObject (Debian: python3-gi)"

# The library from the build tree finds the build tree's plugins itself.
unset TRACEPIPE_PLUGIN_PATH TRACEPIPE_PLUGIN_SYSTEM_PATH
# The docs' command runs from the source root with build/ relative;
# the build tree may be elsewhere, so use the path relative to here.
cd "$source_root" || fail "cannot cd to $source_root"
rel_build=$(realpath --relative-to=. "$build_root")
export GI_TYPELIB_PATH=$(realpath --relative-to=. "$typelib_dir")
export LD_LIBRARY_PATH=$rel_build/core
script=$source_root/examples/python/convert.py
launch=$build_root/tools/trace-launch
inspect=$build_root/tools/trace-inspect
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracepipe-python.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The reference: one line per event out of trace-launch's fakesink.
count_events () { "$launch" -q "$@" ! fakesink dump=true | wc -l; }

want=$(count_events fakesrc num-events=10000)
got=$("$python" "$script") || fail "convert.py (fakesrc ! fakesink) failed: $got"
[ "$got" = "events: $want" ] || fail "convert.py said \"$got\", trace-launch counts $want events"
echo "ok: fakesrc ! fakesink, $want events"

input=$source_root/tests/data/ftrace/catapult_atrace_data.txt
if "$inspect" ftrace-src >/dev/null 2>&1 && "$inspect" perfetto-sink >/dev/null 2>&1 && [ -e "$input" ]; then
  want=$(count_events ftrace-src location="$input")
  got=$("$python" "$script" "$input" "$tmp/out.pftrace" | tail -n 1) || fail "convert.py $input failed: $got"
  [ "$got" = "events: $want" ] || fail "convert.py said \"$got\", trace-launch counts $want events"
  # A Perfetto trace starts with a Trace.packet field: tag 0x0a.
  [ -s "$tmp/out.pftrace" ] && [ "$(head -c 1 "$tmp/out.pftrace" | od -An -tx1 | tr -d ' ')" = 0a ] ||
    fail "$tmp/out.pftrace is not a Perfetto trace"
  echo "ok: converted $input, $want events"
else
  echo "not run: the conversion of $input (needs ftrace-src and perfetto-sink)"
fi

# slices-per-thread.py: pid, tid and count of each thread with slices,
# as fakesink's dump counts them (a slice-begin or slice-complete line).
slices_reference () {
  "$launch" -q auto-src location="$1" ! fakesink dump=true 2>"$tmp/reference.err" |
    awk '$2 == "slice-begin" || $2 == "slice-complete" { split ($3, p, "="); split ($4, t, "="); n[p[2] " " t[2]]++ }
         END { for (k in n) print k, n[k] }' | sort -n -k1,1 -k2,2
}
script=$source_root/examples/python/slices-per-thread.py
# (a full systrace export: auto-src finds its data block 1.1 MiB in)
for input in "$source_root/tests/data/json/speedscope_chrome69_simple.json" \
             "$source_root/tests/data/ftrace/catapult_decompressed_atrace_data.txt" \
             "$source_root/tests/data/ftrace/gtechoogle_systrace_full_export.html"; do
  want=$(slices_reference "$input")
  [ -n "$want" ] || fail "trace-launch found no slices in $input: the reference is empty"
  out=$tmp/slices-$(basename "$input")
  "$python" "$script" "$input" >"$out" 2>"$tmp/slices.err" ||
    fail "slices-per-thread.py $input failed: $(cat "$tmp/slices.err")"
  got=$(cut -d' ' -f1-3 "$out")
  [ "$got" = "$want" ] || fail "slices-per-thread.py $input:
$got
but fakesink dump counts:
$want"
  echo "ok: slices per thread of $input ($(echo "$want" | wc -l) threads)"
done
# The names of the threads come from the trace.
grep -q '^85110 775 [0-9]* CrBrowserMain$' "$tmp/slices-speedscope_chrome69_simple.json" ||
  fail "slices-per-thread.py does not name thread 775 CrBrowserMain"
echo "ok: thread names"

# A missing file: exit 1, the reason on stderr, nothing on stdout.
"$python" "$script" "$tmp/missing.json" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 1 ] && [ ! -s "$tmp/out" ] && grep -q 'missing.json' "$tmp/err" ||
  fail "slices-per-thread.py on a missing file: exit $status, stdout \"$(cat "$tmp/out")\", stderr \"$(cat "$tmp/err")\""
echo "ok: a missing file fails with exit 1"

# Pipeline.run() shows the bus's WARNINGs on stderr, as trace-launch does:
# an input with one line that does not parse.
if "$inspect" ftrace-src >/dev/null 2>&1; then
  damaged=$tmp/damaged.txt
  { head -n 20 "$source_root/tests/data/ftrace/catapult_atrace_data.txt"; echo "not an ftrace line"; } >"$damaged"
  "$python" -c '
import sys, gi
gi.require_version("Tracepipe", "1.0")
from gi.repository import Tracepipe
Tracepipe.init_check(sys.argv)
Tracepipe.parse_launch("ftrace-src location=" + sys.argv[1] + " ! fakesink").run()
' "$damaged" 2>"$tmp/run.err" || fail "Pipeline.run() on $damaged failed: $(cat "$tmp/run.err")"
  grep -q "^WARNING: from /pipeline0/ftrace-src0: .*damaged.txt: 1 unparsable lines (line 21)$" "$tmp/run.err" ||
    fail "Pipeline.run() printed no WARNING: \"$(cat "$tmp/run.err")\""
  echo "ok: Pipeline.run() prints the warnings"
fi
