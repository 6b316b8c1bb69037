#!/usr/bin/python3
# examples/python/slices-per-thread.py: events into Python with app-sink
#
# Usage: slices-per-thread.py TRACE
#
# Reads TRACE with auto-src (any format tracepipe detects) into an
# app-sink and counts, per thread, the slices that begin on it (a
# slice-begin or a complete slice each). Prints one line per thread,
# sorted by pid then tid:
#
#   PID TID SLICES NAME
#
# NAME is the thread's name when the trace gives one, else "-".
#
# The pipeline runs without a main loop of its own: while the queue of
# app-sink is empty, pull_batch() iterates the pipeline's main context
# itself, which runs the source one batch at a time. From the build tree
# (docs/embedding.md, "From Python"):
#   GI_TYPELIB_PATH=build/core LD_LIBRARY_PATH=build/core \
#     /usr/bin/python3 examples/python/slices-per-thread.py tests/data/ftrace/catapult_atrace_data.txt
#
# Exit status: 0 done, 1 error, 2 bad usage.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys
from collections import Counter

import gi

gi.require_version("Tracepipe", "1.0")
from gi.repository import GLib, Tracepipe  # noqa: E402

SLICE_KINDS = (Tracepipe.EventKind.SLICE_BEGIN, Tracepipe.EventKind.SLICE_COMPLETE)


def count(sink):
    """Pulls every batch; returns ({(pid, tid): slices}, {(pid, tid): name})."""
    slices = Counter()
    names = {}
    while True:
        batch = sink.pull_batch()  # None at EOS, or on an ERROR
        if batch is None:
            return slices, names
        # One call per field per event: events are plain structs in the
        # batch, read by index, with no object made for each.
        for i in range(batch.get_n_events()):
            kind = batch.get_event_kind(i)
            if kind in SLICE_KINDS:
                slices[batch.get_event_pid(i), batch.get_event_tid(i)] += 1
            elif kind == Tracepipe.EventKind.THREAD_NAME:
                names[batch.get_event_pid(i), batch.get_event_tid(i)] = batch.get_event_name(i)


def first_error(pipeline):
    """The ERROR the pipeline posted, as one line (nothing watches the bus)."""
    message = pipeline.get_bus().pop_filtered(Tracepipe.MessageType.ERROR)
    return Tracepipe.Message.to_string(message) if message else "the pipeline stopped"


def main(argv):
    if len(argv) != 2:
        print(f"usage: {argv[0]} TRACE", file=sys.stderr)
        return 2
    Tracepipe.init_check(argv)
    sink = Tracepipe.ElementFactory.make_checked("app-sink", "sink")
    src = Tracepipe.ElementFactory.make_checked("auto-src", None)
    src.set_property("location", argv[1])
    pipeline = Tracepipe.Pipeline.new("slices")
    pipeline.add(src)
    pipeline.add(sink)
    src.link(sink)

    error = None
    if pipeline.set_state(Tracepipe.State.PLAYING) == Tracepipe.StateChangeReturn.SUCCESS:
        slices, names = count(sink)
        if not sink.is_eos():
            error = first_error(pipeline)
    else:
        error = first_error(pipeline)  # e.g. no such file, unknown format
    pipeline.set_state(Tracepipe.State.NULL)
    if error:
        print(f"ERROR: {error}", file=sys.stderr)
        return 1
    for (pid, tid), n in sorted(slices.items()):
        print(pid, tid, n, names.get((pid, tid)) or "-")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except GLib.Error as error:
        print(f"ERROR: {error.message}", file=sys.stderr)
        sys.exit(1)
