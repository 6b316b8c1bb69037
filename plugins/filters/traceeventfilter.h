/* tracepipe - the logic of the `filter` and `main-thread-filter` elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A private module: the elements are thin wrappers that set the
 * conditions from their properties, call trace_event_filter_process() on
 * every writable batch and trace_event_filter_drain() at EOS.  See
 * docs/filters.md for the rules and the decisions behind them.
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/**
 * TraceFilterDropReason:
 * @TRACE_FILTER_DROP_KIND: the event's kind is not among the wanted ones
 * @TRACE_FILTER_DROP_CATEGORY: the category does not match
 * @TRACE_FILTER_DROP_NAME: the name does not match
 * @TRACE_FILTER_DROP_TID: the thread is not the wanted one (or not a main
 *   thread, or the event belongs to no thread)
 * @TRACE_FILTER_DROP_PID: the process is not the wanted one (or the event
 *   belongs to no process)
 * @TRACE_FILTER_DROP_THREAD_NAME: the thread's name does not match
 * @TRACE_FILTER_DROP_PROCESS_NAME: the process' name does not match
 * @TRACE_FILTER_DROP_INVERT: the event matched and `invert` is set
 * @TRACE_FILTER_DROP_WINDOW: the event lies outside the time window
 * @TRACE_FILTER_DROP_UNDECIDABLE: the conditions could not be decided and
 *   `keep-unknown` is off
 *
 * Why an event was dropped.  Ends, steps and async ends count under the
 * reason of the begin they follow.
 */
typedef enum
{
  TRACE_FILTER_DROP_KIND,
  TRACE_FILTER_DROP_CATEGORY,
  TRACE_FILTER_DROP_NAME,
  TRACE_FILTER_DROP_TID,
  TRACE_FILTER_DROP_PID,
  TRACE_FILTER_DROP_THREAD_NAME,
  TRACE_FILTER_DROP_PROCESS_NAME,
  TRACE_FILTER_DROP_INVERT,
  TRACE_FILTER_DROP_WINDOW,
  TRACE_FILTER_DROP_UNDECIDABLE,
  TRACE_FILTER_N_DROP_REASONS
} TraceFilterDropReason;

/**
 * TraceEventFilterStats:
 * @events_in: events given to the filter
 * @kept: events passed on (metadata included, synthesized edges excluded)
 * @dropped: events dropped, by #TraceFilterDropReason
 * @undecidable: events whose thread or process (or its name) was not
 *   known when they arrived, kept or dropped by `keep-unknown`
 * @metadata: metadata events passed whatever the conditions
 * @synthesized: slice begins and ends made at the window's edges
 * @clipped: complete slices shortened to fit the window
 */
typedef struct
{
  guint64 events_in;
  guint64 kept;
  guint64 dropped[TRACE_FILTER_N_DROP_REASONS];
  guint64 undecidable;
  guint64 metadata;
  guint64 synthesized;
  guint64 clipped;
} TraceEventFilterStats;

typedef struct _TraceEventFilter TraceEventFilter;

TraceEventFilter *trace_event_filter_new (TraceStringPool *pool);
void trace_event_filter_free (TraceEventFilter *filter);

/* Conditions; each call replaces the previous value of that condition.
 * A NULL or empty glob removes it.  Set them before the first batch. */
void trace_event_filter_set_tid (TraceEventFilter *filter,
                                 gint64 tid);
void trace_event_filter_set_tid_main (TraceEventFilter *filter);
void trace_event_filter_unset_tid (TraceEventFilter *filter);
gboolean trace_event_filter_set_tid_from_string (TraceEventFilter *filter,
                                                 const char *text,
                                                 GError **error);
void trace_event_filter_set_pid (TraceEventFilter *filter,
                                 gint64 pid);
void trace_event_filter_unset_pid (TraceEventFilter *filter);
void trace_event_filter_set_process_name (TraceEventFilter *filter,
                                          const char *glob);
void trace_event_filter_set_thread_name (TraceEventFilter *filter,
                                         const char *glob);
void trace_event_filter_set_name (TraceEventFilter *filter,
                                  const char *glob);
void trace_event_filter_set_category (TraceEventFilter *filter,
                                      const char *glob);
void trace_event_filter_set_kinds (TraceEventFilter *filter,
                                   TraceEventGroup kinds);
void trace_event_filter_set_start (TraceEventFilter *filter,
                                   gint64 start_ns);
void trace_event_filter_set_end (TraceEventFilter *filter,
                                 gint64 end_ns);
void trace_event_filter_set_start_relative (TraceEventFilter *filter,
                                            gint64 offset_ns);
void trace_event_filter_set_end_relative (TraceEventFilter *filter,
                                          gint64 offset_ns);
gboolean trace_event_filter_set_window_from_string (TraceEventFilter *filter,
                                                    const char *start,
                                                    const char *end,
                                                    GError **error);
void trace_event_filter_set_invert (TraceEventFilter *filter,
                                    gboolean invert);
void trace_event_filter_set_keep_unknown (TraceEventFilter *filter,
                                          gboolean keep_unknown);

void trace_event_filter_process (TraceEventFilter *filter,
                                 TraceBatch *batch);
TraceBatch *trace_event_filter_drain (TraceEventFilter *filter);

char *trace_event_filter_explain_empty_window (TraceEventFilter *filter);
void trace_event_filter_get_stats (TraceEventFilter *filter,
                                   TraceEventFilterStats *stats);
char *trace_event_filter_stats_to_string (const TraceEventFilterStats *stats);
const char *trace_filter_drop_reason_to_string (TraceFilterDropReason reason);

/* Property parsers, shared by the elements and trace-launch users. */
gboolean trace_event_filter_parse_time (const char *text,
                                        gint64 *out_ns,
                                        GError **error);
gboolean trace_event_filter_parse_window_time (const char *text,
                                               gint64 *out_ns,
                                               gboolean *relative,
                                               GError **error);
gboolean trace_event_filter_parse_kinds (const char *text,
                                         TraceEventGroup *out_kinds,
                                         GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceEventFilter, trace_event_filter_free)

G_END_DECLS
