/* tracepipe - filter and main-thread-filter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

#include "traceeventfilter.h"

G_BEGIN_DECLS

#define TRACE_TYPE_FILTER (trace_filter_get_type ())
G_DECLARE_FINAL_TYPE (TraceFilter, trace_filter, TRACE, FILTER, TraceBaseTransform)

#define TRACE_TYPE_MAIN_THREAD_FILTER (trace_main_thread_filter_get_type ())
G_DECLARE_FINAL_TYPE (TraceMainThreadFilter, trace_main_thread_filter, TRACE, MAIN_THREAD_FILTER, TraceBaseTransform)

TRACE_ELEMENT_REGISTER_DECLARE (filter)
TRACE_ELEMENT_REGISTER_DECLARE (main_thread_filter)

void _trace_filter_collect_stats (TraceEventFilter *filter,
                                  GVariantDict *dict);
void _trace_filter_warn_undecidable (TraceElement *element,
                                     TraceEventFilter *filter,
                                     gboolean keep_unknown);

G_END_DECLS
