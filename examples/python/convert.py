#!/usr/bin/python3
# examples/python/convert.py: a tracepipe pipeline from Python
#
# Usage: convert.py INPUT OUTPUT.pftrace   ftrace-src ! perfetto-sink
#        convert.py                        fakesrc ! fakesink (no file needed)
#
# Uses the library through GObject introspection (PyGObject, Debian
# package python3-gi, which Debian's /usr/bin/python3 has and a pyenv or
# virtualenv python3 does not), with the Tracepipe-1.0.typelib that
# tracepipe installs when gobject-introspection was there at build time.
# From the source root of a build tree (docs/embedding.md, "From Python",
# also for an installed library):
#   GI_TYPELIB_PATH=build/core LD_LIBRARY_PATH=build/core \
#     /usr/bin/python3 examples/python/convert.py
#
# Prints PROGRESS as it comes and, at the end, the number of events the
# sink received: `events: N`. Exit status: 0 done, 1 error, 2 bad usage.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys

import gi

gi.require_version("Tracepipe", "1.0")
from gi.repository import GLib, Tracepipe  # noqa: E402


def make(factory_name, **properties):
    """An element with properties; GLib.Error names a missing element."""
    element = Tracepipe.ElementFactory.make_checked(factory_name, None)
    for key, value in properties.items():
        element.set_property(key.replace("_", "-"), value)
    return element


def build(argv):
    """The pipeline, element by element, as examples/convert does in C."""
    if len(argv) == 3:
        elements = [make("ftrace-src", location=argv[1]),
                    make("perfetto-sink", location=argv[2])]
    else:
        elements = [make("fakesrc", num_events=10000), make("fakesink")]
    pipeline = Tracepipe.Pipeline.new("convert")
    for element in elements:
        pipeline.add(element)
    for upstream, downstream in zip(elements, elements[1:]):
        upstream.link(downstream)  # raises GLib.Error if it cannot
    return pipeline, elements[-1]


def run(pipeline, sink):
    """Runs to EOS on a GLib main loop; returns the sink's event count."""
    loop = GLib.MainLoop()
    result = {"events": None, "error": None}
    MessageType = Tracepipe.MessageType

    def on_message(bus, message):
        if message.type == MessageType.PROGRESS and message.total > 0:
            print(f"{message.src_path}: {100 * message.done // message.total}%")
        elif message.type == MessageType.WARNING:
            print(Tracepipe.Message.to_string(message), file=sys.stderr)
        elif message.type == MessageType.STATS and message.src == sink:
            # STATS details are an a{sv} dictionary of counters.
            result["events"] = message.details.unpack().get("events-in", 0)
        elif message.type == MessageType.ERROR:
            result["error"] = Tracepipe.Message.to_string(message)
            loop.quit()
        elif message.type == MessageType.EOS:
            loop.quit()
        return GLib.SOURCE_CONTINUE

    # The pipeline runs in the thread-default main context of the thread
    # that made it, here the default one, which GLib.MainLoop() runs too.
    pipeline.get_bus().add_watch_full(None, on_message)
    if pipeline.set_state(Tracepipe.State.PLAYING) == Tracepipe.StateChangeReturn.SUCCESS:
        loop.run()
    else:
        # The element that refused posted an ERROR: deliver it.
        while result["error"] is None and GLib.MainContext.default().iteration(False):
            pass
        result["error"] = result["error"] or "the pipeline could not start"
    pipeline.set_state(Tracepipe.State.NULL)
    if result["error"]:
        raise RuntimeError(result["error"])
    return result["events"]


def main(argv):
    if len(argv) not in (1, 3):
        print(f"usage: {argv[0]} [INPUT OUTPUT.pftrace]", file=sys.stderr)
        return 2
    # Registers the core elements and loads the plugins.
    Tracepipe.init_check(argv)
    try:
        pipeline, sink = build(argv)
        events = run(pipeline, sink)
    except GLib.Error as error:
        print(f"ERROR: {error.message}", file=sys.stderr)
        return 1
    except RuntimeError as error:
        print(f"ERROR: {error}", file=sys.stderr)
        return 1
    print(f"events: {events}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
