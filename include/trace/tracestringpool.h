/* tracepipe - interned strings shared by a pipeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <glib-object.h>
#include <trace/trace-export.h>

G_BEGIN_DECLS

/**
 * TraceStringPool:
 *
 * Interns strings to small stable ids. One pool is shared by all elements
 * of a pipeline, so events carry 32-bit ids, comparison is integer
 * comparison and sinks can intern names once (Perfetto interned data).
 *
 * Interning is thread-safe. Looking an id up takes no lock: strings never
 * move and are never freed while the pool lives, and an id only reaches
 * another thread inside a batch handed over through a synchronised queue.
 * Id 0 is the empty string.
 */
typedef struct _TraceStringPool TraceStringPool;

#define TRACE_TYPE_STRING_POOL (trace_string_pool_get_type ())
TRACE_AVAILABLE_IN_ALL
GType trace_string_pool_get_type (void) G_GNUC_CONST;

TRACE_AVAILABLE_IN_ALL
TraceStringPool *trace_string_pool_new (void);
TRACE_AVAILABLE_IN_ALL
TraceStringPool *trace_string_pool_get_default (void);
TRACE_AVAILABLE_IN_ALL
TraceStringPool *trace_string_pool_ref (TraceStringPool *pool);
TRACE_AVAILABLE_IN_ALL
void trace_string_pool_unref (TraceStringPool *pool);

TRACE_AVAILABLE_IN_ALL
guint32 trace_string_pool_intern (TraceStringPool *pool,
                                  const char *str);
TRACE_AVAILABLE_IN_ALL
guint32 trace_string_pool_intern_len (TraceStringPool *pool,
                                      const char *str,
                                      gsize len);
TRACE_AVAILABLE_IN_ALL
guint32 trace_string_pool_lookup (TraceStringPool *pool,
                                  const char *str,
                                  gsize len);
TRACE_AVAILABLE_IN_ALL
const char *trace_string_pool_get (TraceStringPool *pool,
                                   guint32 id);
TRACE_AVAILABLE_IN_ALL
gsize trace_string_pool_get_length (TraceStringPool *pool,
                                    guint32 id);
TRACE_AVAILABLE_IN_ALL
guint trace_string_pool_get_size (TraceStringPool *pool);
TRACE_AVAILABLE_IN_ALL
guint32 trace_string_pool_hash (const char *str,
                                gsize len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceStringPool, trace_string_pool_unref)

G_END_DECLS
