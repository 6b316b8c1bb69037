/* tracepipe - base class for sources
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <gio/gio.h>
#include <trace/traceelement.h>

G_BEGIN_DECLS

#define TRACE_TYPE_BASE_SRC (trace_base_src_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceBaseSrc, trace_base_src, TRACE, BASE_SRC, TraceElement)

/**
 * TraceBaseSrcClass:
 * @parent_class: the parent class
 * @start: opens the input (NULL→READY); an error here fails the state
 *   change and is posted on the bus
 * @stop: closes it (READY→NULL)
 * @create: produces the next batch into @batch and returns
 *   %TRACE_FLOW_OK, or returns %TRACE_FLOW_EOS at the end, or
 *   %TRACE_FLOW_ERROR with @error set. Called once per main-loop dispatch,
 *   only when downstream is ready for more.
 * @finish: called once at the end of the input (also after send_eos),
 *   before EOS is pushed: report what was skipped, push a last batch with
 *   trace_base_src_push_batch()
 *
 * A source owns one `src` pad. The base class schedules it as a #GSource
 * on the pipeline's main context, sends stream-start before the first
 * batch and EOS after the last, posts PROGRESS messages and honours
 * back-pressure.
 */
struct _TraceBaseSrcClass
{
  TraceElementClass parent_class;

  gboolean (*start) (TraceBaseSrc *src,
                     GError **error);
  gboolean (*stop) (TraceBaseSrc *src,
                    GError **error);
  TraceFlowReturn (*create) (TraceBaseSrc *src,
                             TraceBatch **batch,
                             GError **error);
  void (*finish) (TraceBaseSrc *src);

  /*< private >*/
  gpointer _reserved[8];
};

TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_base_src_new_batch (TraceBaseSrc *src);
TRACE_AVAILABLE_IN_ALL
TraceFlowReturn trace_base_src_push_batch (TraceBaseSrc *src,
                                           TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
void trace_base_src_set_stream_info (TraceBaseSrc *src,
                                     const char *format,
                                     const char *location,
                                     TraceClockDomain domain,
                                     const char *clock_source);
TRACE_AVAILABLE_IN_ALL
void trace_base_src_set_stream_metadata (TraceBaseSrc *src,
                                         const char *metadata);
TRACE_AVAILABLE_IN_ALL
void trace_base_src_set_stream_flags (TraceBaseSrc *src,
                                      TraceStreamFlags flags);
TRACE_AVAILABLE_IN_ALL
void trace_base_src_set_progress (TraceBaseSrc *src,
                                  guint64 done,
                                  guint64 total);
TRACE_AVAILABLE_IN_ALL
guint64 trace_base_src_get_events_produced (TraceBaseSrc *src);

G_END_DECLS
