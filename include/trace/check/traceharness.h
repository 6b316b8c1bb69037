/* tracepipe-check - a test harness for one element
 *
 * Part of libtracepipe-check-1.0 (pkg-config: tracepipe-check-1.0), not
 * of libtracepipe: tests link it, applications do not.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>
#include <trace/check/tracecheck-prelude.h>

G_BEGIN_DECLS

/**
 * TraceHarness:
 *
 * Drives one element from a test: the harness links its own pads to the
 * element's, pushes batches and EOS in, collects what comes out, and
 * keeps the element's bus messages. For N:1 elements, add one input per
 * request pad with trace_harness_add_input().
 */
typedef struct _TraceHarness TraceHarness;

TRACE_CHECK_API
TraceHarness *trace_harness_new (const char *factory_name);
TRACE_CHECK_API
TraceHarness *trace_harness_new_parse (const char *description);
TRACE_CHECK_API
TraceHarness *trace_harness_new_with_element (TraceElement *element,
                                              const char *sink_pad_name,
                                              const char *src_pad_name);
TRACE_CHECK_API
void trace_harness_free (TraceHarness *harness);

TRACE_CHECK_API
TraceElement *trace_harness_get_element (TraceHarness *harness);
TRACE_CHECK_API
TraceStringPool *trace_harness_get_string_pool (TraceHarness *harness);
TRACE_CHECK_API
TraceBatch *trace_harness_new_batch (TraceHarness *harness);
TRACE_CHECK_API
guint32 trace_harness_intern (TraceHarness *harness,
                              const char *str);
TRACE_CHECK_API
const char *trace_harness_string (TraceHarness *harness,
                                  guint32 id);

TRACE_CHECK_API
gboolean trace_harness_play (TraceHarness *harness);
TRACE_CHECK_API
guint trace_harness_add_input (TraceHarness *harness,
                               const char *pad_name);
TRACE_CHECK_API
void trace_harness_set_stream_start (TraceHarness *harness,
                                     guint input,
                                     const char *format,
                                     TraceClockDomain domain);
TRACE_CHECK_API
void trace_harness_set_stream_info (TraceHarness *harness,
                                    guint input,
                                    const TraceStreamInfo *info);
TRACE_CHECK_API
TraceFlowReturn trace_harness_push (TraceHarness *harness,
                                    TraceBatch *batch);
TRACE_CHECK_API
TraceFlowReturn trace_harness_push_to (TraceHarness *harness,
                                       guint input,
                                       TraceBatch *batch);
TRACE_CHECK_API
gboolean trace_harness_push_eos (TraceHarness *harness);
TRACE_CHECK_API
gboolean trace_harness_push_eos_to (TraceHarness *harness,
                                    guint input);
TRACE_CHECK_API
gboolean trace_harness_input_is_ready (TraceHarness *harness,
                                       guint input);

TRACE_CHECK_API
gboolean trace_harness_run_until_eos (TraceHarness *harness,
                                      guint timeout_ms);
TRACE_CHECK_API
TraceBatch *trace_harness_pull (TraceHarness *harness);
TRACE_CHECK_API
TraceBatch *trace_harness_take_all (TraceHarness *harness);
TRACE_CHECK_API
guint trace_harness_get_n_batches_out (TraceHarness *harness);
TRACE_CHECK_API
gboolean trace_harness_got_eos (TraceHarness *harness);
TRACE_CHECK_API
const TraceStreamInfo *trace_harness_get_stream_info (TraceHarness *harness);
TRACE_CHECK_API
TraceMessage *trace_harness_pop_message (TraceHarness *harness,
                                         TraceMessageType types);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceHarness, trace_harness_free)

G_END_DECLS
