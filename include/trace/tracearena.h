/* tracepipe - memory handed out in order and given back all at once
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
 * TraceArena:
 *
 * A bump allocator for what a reader decodes from one record and drops
 * after it (protobuf-c's messages, through a ProtobufCAllocator whose
 * functions call these): no malloc per field, everything freed at once
 * by trace_arena_reset(). Not thread-safe.
 */
typedef struct _TraceArena TraceArena;

TRACE_AVAILABLE_IN_ALL
TraceArena *trace_arena_new (gsize size,
                             gsize max_size);
TRACE_AVAILABLE_IN_ALL
void trace_arena_free (TraceArena *arena);
TRACE_AVAILABLE_IN_ALL
gpointer trace_arena_alloc (TraceArena *arena,
                            gsize size);
TRACE_AVAILABLE_IN_ALL
void trace_arena_reset (TraceArena *arena);

G_END_DECLS
