/* tracepipe - work any idle thread of the process may do
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <glib.h>
#include <trace/trace-export.h>

G_BEGIN_DECLS

/**
 * TraceSpareWorkFunc:
 * @data: what was given to trace_spare_work_add()
 *
 * Does one piece of some work, if one is waiting: a piece short enough
 * (a fraction of a millisecond) that the thread lending its time can go
 * back to its own work soon. It is called on any thread that lends its
 * spare time, possibly on several at once.
 *
 * Returns: whether it did a piece
 */
typedef gboolean (*TraceSpareWorkFunc) (gpointer data);

TRACE_AVAILABLE_IN_ALL
guint trace_spare_work_add (TraceSpareWorkFunc func,
                            gpointer data);
TRACE_AVAILABLE_IN_ALL
void trace_spare_work_remove (guint id);
TRACE_AVAILABLE_IN_ALL
void trace_spare_work_notify (void);

TRACE_AVAILABLE_IN_ALL
gboolean trace_spare_work_run (void);
TRACE_AVAILABLE_IN_ALL
void trace_spare_work_lend (GMutex *lock,
                            GCond *cond);
TRACE_AVAILABLE_IN_ALL
void trace_spare_work_unlend (GCond *cond);
TRACE_AVAILABLE_IN_ALL
guint trace_spare_work_get_n_lenders (void);
TRACE_AVAILABLE_IN_ALL
gboolean trace_spare_work_idle (GMutex *lock,
                                GCond *cond,
                                gboolean (*has_own_work) (gpointer data),
                                gpointer data);

G_END_DECLS
