/* tracepipe - base class for 1:1 filters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/traceelement.h>

G_BEGIN_DECLS

#define TRACE_TYPE_BASE_TRANSFORM (trace_base_transform_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceBaseTransform, trace_base_transform, TRACE, BASE_TRANSFORM, TraceElement)

/**
 * TRACE_BASE_TRANSFORM_FLOW_DROPPED:
 *
 * What @transform_ip returns when it took a reference to the batch to
 * push it later (a filter that must see more of the stream before it can
 * decide), or dropped it whole: the base pushes nothing and tells
 * upstream %TRACE_FLOW_OK.
 */
#define TRACE_BASE_TRANSFORM_FLOW_DROPPED TRACE_FLOW_CUSTOM_SUCCESS

/**
 * TraceBaseTransformClass:
 * @parent_class: the parent class
 * @start: prepares for a stream (NULL→READY), e.g. checks properties
 * @stop: frees what start made (READY→NULL)
 * @transform_ip: changes a writable batch in place. To drop events, set
 *   their kind to %TRACE_EVENT_NONE (the base removes them and counts
 *   them as dropped); to add events, append them. A batch left empty is
 *   not pushed. Return %TRACE_BASE_TRANSFORM_FLOW_DROPPED when the batch
 *   is kept to be pushed later with trace_base_transform_push().
 * @drain: at EOS, returns (transfer full) events still held (open slices
 *   to close, say) or %NULL; they are pushed before EOS
 * @stream_start: sees each stream-start on its way through
 *
 * A filter with one `sink` and one `src` pad, both `trace/events`.
 */
struct _TraceBaseTransformClass
{
  TraceElementClass parent_class;

  gboolean (*start) (TraceBaseTransform *trans,
                     GError **error);
  gboolean (*stop) (TraceBaseTransform *trans,
                    GError **error);
  TraceFlowReturn (*transform_ip) (TraceBaseTransform *trans,
                                   TraceBatch *batch);
  TraceBatch *(*drain) (TraceBaseTransform *trans);
  void (*stream_start) (TraceBaseTransform *trans,
                        const TraceStreamInfo *info);

  /*< private >*/
  gpointer _reserved[8];
};

TRACE_AVAILABLE_IN_ALL
void trace_base_transform_set_passthrough (TraceBaseTransform *trans,
                                           gboolean passthrough);
TRACE_AVAILABLE_IN_ALL
gboolean trace_base_transform_is_passthrough (TraceBaseTransform *trans);
TRACE_AVAILABLE_IN_ALL
TraceStringPool *trace_base_transform_get_string_pool (TraceBaseTransform *trans);
TRACE_AVAILABLE_IN_ALL
guint64 trace_base_transform_get_dropped (TraceBaseTransform *trans);
TRACE_AVAILABLE_IN_ALL
TraceFlowReturn trace_base_transform_push (TraceBaseTransform *trans,
                                           TraceBatch *batch);

G_END_DECLS
