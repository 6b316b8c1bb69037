/* tracepipe - bins: elements that contain elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/traceelement.h>

G_BEGIN_DECLS

#define TRACE_TYPE_BIN (trace_bin_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceBin, trace_bin, TRACE, BIN, TraceElement)

/**
 * TraceBinClass:
 * @parent_class: the parent class
 *
 * The class of #TraceBin.
 */
struct _TraceBinClass
{
  TraceElementClass parent_class;

  /*< private >*/
  gpointer _reserved[8];
};

TRACE_AVAILABLE_IN_ALL
TraceElement *trace_bin_new (const char *name);
TRACE_AVAILABLE_IN_ALL
gboolean trace_bin_add (TraceBin *bin,
                        TraceElement *element);
TRACE_AVAILABLE_IN_ALL
void trace_bin_add_many (TraceBin *bin,
                         TraceElement *first,
                         ...) G_GNUC_NULL_TERMINATED;
TRACE_AVAILABLE_IN_ALL
gboolean trace_bin_remove (TraceBin *bin,
                           TraceElement *element);
TRACE_AVAILABLE_IN_ALL
TraceElement *trace_bin_get_by_name (TraceBin *bin,
                                     const char *name);
TRACE_AVAILABLE_IN_ALL
const GList *trace_bin_get_children (TraceBin *bin);
TRACE_AVAILABLE_IN_ALL
GList *trace_bin_get_sorted (TraceBin *bin);

G_END_DECLS
