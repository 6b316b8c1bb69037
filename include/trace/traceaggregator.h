/* tracepipe - base class for N:1 elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/traceelement.h>

G_BEGIN_DECLS

#define TRACE_TYPE_AGGREGATOR_PAD (trace_aggregator_pad_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceAggregatorPad, trace_aggregator_pad, TRACE, AGGREGATOR_PAD, TracePad)

/**
 * TraceAggregatorPadClass:
 * @parent_class: the parent class
 *
 * Subclass it to give request pads properties (`sink_1::offset=5ms`).
 */
struct _TraceAggregatorPadClass
{
  TracePadClass parent_class;

  /*< private >*/
  gpointer _reserved[4];
};

TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_aggregator_pad_peek_batch (TraceAggregatorPad *pad);
TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_aggregator_pad_pop_batch (TraceAggregatorPad *pad);
TRACE_AVAILABLE_IN_ALL
guint trace_aggregator_pad_get_queued (TraceAggregatorPad *pad);
TRACE_AVAILABLE_IN_ALL
gboolean trace_aggregator_pad_is_eos (TraceAggregatorPad *pad);
TRACE_AVAILABLE_IN_ALL
const TraceStreamInfo *trace_aggregator_pad_get_stream_info (TraceAggregatorPad *pad);

#define TRACE_TYPE_AGGREGATOR (trace_aggregator_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceAggregator, trace_aggregator, TRACE, AGGREGATOR, TraceElement)

/**
 * TraceAggregatorClass:
 * @parent_class: the parent class
 * @start: prepares (NULL→READY)
 * @stop: releases (READY→NULL)
 * @aggregate: called when every input that is not at EOS has at least
 *   one batch queued (or @all_at_eos is %TRUE: every input ended). Pop
 *   batches with trace_aggregator_pad_pop_batch() and push results with
 *   trace_aggregator_finish_batch(). Must pop at least one batch when any
 *   is queued.
 * @sink_stream_start: sees the stream-start of one input; return the
 *   stream-start to send downstream (transfer full), or %NULL to send
 *   none now
 * @drain: after the last input ended, returns (transfer full) what is
 *   still held, or %NULL
 *
 * An element with request `sink_%u` pads and one `src` pad. Each input
 * has a bounded queue (property `max-queued`): an input whose queue is
 * full is not ready, so its source waits while the others catch up.
 * EOS goes downstream once every input ended and every queue is empty.
 */
struct _TraceAggregatorClass
{
  TraceElementClass parent_class;

  gboolean (*start) (TraceAggregator *agg,
                     GError **error);
  gboolean (*stop) (TraceAggregator *agg,
                    GError **error);
  TraceFlowReturn (*aggregate) (TraceAggregator *agg,
                                gboolean all_at_eos);
  TraceStreamEvent *(*sink_stream_start) (TraceAggregator *agg,
                                          TraceAggregatorPad *pad,
                                          TraceStreamEvent *event);
  TraceBatch *(*drain) (TraceAggregator *agg);

  /*< private >*/
  gpointer _reserved[8];
};

TRACE_AVAILABLE_IN_ALL
TraceFlowReturn trace_aggregator_finish_batch (TraceAggregator *agg,
                                               TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
GList *trace_aggregator_get_sink_pads (TraceAggregator *agg);
TRACE_AVAILABLE_IN_ALL
TraceAggregatorPad *trace_aggregator_get_oldest_pad (TraceAggregator *agg);

G_END_DECLS
