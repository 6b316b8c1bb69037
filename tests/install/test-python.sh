#!/usr/bin/env bash
# tests/install: examples/python/convert.py against the build tree.
#
#   test-python.sh SOURCE_ROOT BUILD_ROOT TYPELIB_DIR [--sanitize=VALUE]
#
# Runs the Python example through PyGObject and the build's typelib and
# checks its event count against the same pipeline run by trace-launch.
# With ftrace-src and perfetto-sink built, it also converts a sample
# systrace and checks the Perfetto file. Exit 77 (skipped) without a
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
export GI_TYPELIB_PATH=$typelib_dir
export LD_LIBRARY_PATH=$build_root/core
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
