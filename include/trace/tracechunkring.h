/* tracepipe - chunks of an input worked on by threads, taken back in order
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
 * TraceChunkRing:
 *
 * A fixed ring of chunks that a reader fills in input order, that worker
 * threads (and threads lending their spare time, see
 * trace_spare_work_add()) work on in any order, and that the reader
 * takes back in input order. The chunks are structures of the reader's
 * own kind, allocated zeroed by the ring and reused: memory does not grow
 * with the input.
 */
typedef struct _TraceChunkRing TraceChunkRing;

/**
 * TraceChunkRingFunc:
 * @chunk: a chunk of the ring
 * @user_data: what was given to trace_chunk_ring_new()
 *
 * The work done on a chunk (on any thread: it may depend on the chunk's
 * bytes only), or what frees the memory a chunk holds.
 */
typedef void (*TraceChunkRingFunc) (gpointer chunk,
                                    gpointer user_data);

/**
 * TraceChunkRingUnstarted:
 * @TRACE_CHUNK_RING_WAIT: wait until a worker or a lender has done it
 * @TRACE_CHUNK_RING_WORK_HERE: do its work on the calling thread
 * @TRACE_CHUNK_RING_SKIP: take it without its work
 *
 * What trace_chunk_ring_peek() does with the oldest chunk when no thread
 * has started its work yet.
 */
typedef enum
{
  TRACE_CHUNK_RING_WAIT,
  TRACE_CHUNK_RING_WORK_HERE,
  TRACE_CHUNK_RING_SKIP,
} TraceChunkRingUnstarted;

TRACE_AVAILABLE_IN_ALL
TraceChunkRing *trace_chunk_ring_new (const char *thread_name,
                                      gsize chunk_struct_size,
                                      guint n_workers,
                                      guint n_lenders,
                                      TraceChunkRingFunc work,
                                      TraceChunkRingFunc clear,
                                      gpointer user_data,
                                      GError **error);
TRACE_AVAILABLE_IN_ALL
void trace_chunk_ring_free (TraceChunkRing *ring);

TRACE_AVAILABLE_IN_ALL
gpointer trace_chunk_ring_get_free (TraceChunkRing *ring);
TRACE_AVAILABLE_IN_ALL
void trace_chunk_ring_submit (TraceChunkRing *ring);
TRACE_AVAILABLE_IN_ALL
gpointer trace_chunk_ring_peek (TraceChunkRing *ring,
                                TraceChunkRingUnstarted unstarted,
                                gboolean *skipped);
TRACE_AVAILABLE_IN_ALL
void trace_chunk_ring_release (TraceChunkRing *ring);

G_END_DECLS
