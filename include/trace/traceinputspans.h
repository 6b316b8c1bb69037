/* tracepipe - the time each input of a merge covers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <glib.h>
#include <trace/trace-export.h>
#include <trace/tracebatch.h>
#include <trace/tracepad.h>

G_BEGIN_DECLS

/**
 * TraceInputSpans:
 *
 * The earliest and latest timed event of each input of an element that
 * merges streams (`clock-sync`, `funnel`), to tell the user when the
 * inputs never meet in time: captures of different moments, or clocks
 * nothing tied together, which the Perfetto UI shows as one long empty
 * stretch. Not thread-safe: the element serializes its calls.
 */
typedef struct _TraceInputSpans TraceInputSpans;

TRACE_AVAILABLE_IN_ALL
TraceInputSpans *trace_input_spans_new (void);
TRACE_AVAILABLE_IN_ALL
void trace_input_spans_free (TraceInputSpans *spans);
TRACE_AVAILABLE_IN_ALL
void trace_input_spans_clear (TraceInputSpans *spans);
TRACE_AVAILABLE_IN_ALL
void trace_input_spans_add_batch (TraceInputSpans *spans,
                                  TracePad *pad,
                                  const TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
char *trace_input_spans_describe_gaps (TraceInputSpans *spans);

G_END_DECLS
