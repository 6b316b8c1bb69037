/* tracepipe - why sinks drop events, in one set of words
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every reason any sink drops events for, with its stats key and the
 * text of the WARNING: two sinks that lose the same events say it the
 * same way, and docs/launch-syntax.md lists this table.
 */
#include "config.h"

#include "trace/trace.h"

static const struct
{
  const char *key;
  const char *what; /* plural, the count follows */
} reasons[TRACE_SINK_DROP_N_REASONS] = {
  [TRACE_SINK_DROP_UNMATCHED_END] = { "unmatched-end", "slice ends without an open slice" },
  [TRACE_SINK_DROP_UNMATCHED_ASYNC_END] = { "unmatched-async-end", "async ends without an open async slice" },
  [TRACE_SINK_DROP_REPEATED_LEGACY_BEGIN] = { "repeated-legacy-begin",
                                              "repeated begins of an open unnestable async slice (atrace S|, "
                                              "Chrome S)" },
  [TRACE_SINK_DROP_KERNEL] = { "kernel", "kernel events the output has no place for (ftrace=false, the JSON "
                                         "array form, a time before 0)" },
  [TRACE_SINK_DROP_SWITCHES_WITHOUT_PREV] = { "switches-without-prev",
                                              "sched switches without a previous task (a cpu's first compact "
                                              "record)" },
  [TRACE_SINK_DROP_UNKNOWN_STACK_NODE] = { "unknown-stack-node", "samples on a stack node never defined" },
  [TRACE_SINK_DROP_CLOCK_MARKER] = { "clock-marker", "clock markers with nothing to map to" },
  [TRACE_SINK_DROP_FLOWS] = { "flows", "flow ids of slices with no place in the output" },
  [TRACE_SINK_DROP_THREAD_TABLE_FULL] = { "thread-table-full",
                                          "events of threads past the thread table (max-threads)" },
  [TRACE_SINK_DROP_OTHER] = { "other", "events the output format has no form for" },
};

/**
 * trace_sink_drops_append: (skip)
 * @drops: (element-type TraceSinkDrop): what a sink dropped, as
 *   #TraceFileSinkClass.get_drops fills it
 * @counts: how many events the sink dropped for each reason (0 for the
 *   reasons it never drops for)
 *
 * Appends every reason, in the order of #TraceSinkDropReason, with its
 * shared key and text and its count (the reports leave out those at 0).
 */
void
trace_sink_drops_append (GArray *drops,
                         const guint64 counts[TRACE_SINK_DROP_N_REASONS])
{
  g_return_if_fail (drops != NULL && counts != NULL);

  for (guint i = 0; i < TRACE_SINK_DROP_N_REASONS; i++)
    {
      TraceSinkDrop drop = { reasons[i].key, reasons[i].what, counts[i] };

      g_array_append_val (drops, drop);
    }
}
