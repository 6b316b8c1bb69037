/* tracepipe - memory handed out in order and given back all at once
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The protobuf readers (perfetto-src, htrace-src) unpack each record into
 * one, reset after the record, so memory does not depend on the file's
 * length and protobuf-c's many small allocations cost a bump each.
 */
#include "config.h"

#include "trace/trace.h"

struct _TraceArena
{
  guint8 *base;
  gsize size, max_size;
  gsize used;
  GSList *extra; /* blocks past base, freed at the reset */
  gboolean overflowed;
};

/**
 * trace_arena_new: (skip)
 * @size: the bytes of the arena's block
 * @max_size: what the block may grow to: an arena that overflowed grows
 *   fourfold at its reset, up to this (@size: it never grows)
 *
 * Returns: (transfer full): a new arena
 */
TraceArena *
trace_arena_new (gsize size,
                 gsize max_size)
{
  TraceArena *a = g_new0 (TraceArena, 1);

  a->size = size;
  a->max_size = MAX (size, max_size);
  a->base = g_malloc (size);
  return a;
}

/**
 * trace_arena_free:
 * @arena: (nullable) (transfer full): a #TraceArena
 */
void
trace_arena_free (TraceArena *arena)
{
  if (arena == NULL)
    return;
  trace_arena_reset (arena);
  g_free (arena->base);
  g_free (arena);
}

/**
 * trace_arena_alloc:
 * @arena: a #TraceArena
 * @size: bytes wanted
 *
 * Returns: (transfer none): @size bytes aligned to 16, valid until the
 *   next trace_arena_reset(); past the block's end, a block of their
 *   own (and a bigger block after the reset)
 */
gpointer
trace_arena_alloc (TraceArena *arena,
                   gsize size)
{
  gsize aligned = (size + 15) & ~(gsize) 15;
  gpointer block;

  if (aligned <= arena->size - arena->used)
    {
      block = arena->base + arena->used;
      arena->used += aligned;
      return block;
    }
  arena->overflowed = TRUE;
  block = g_malloc (MAX (aligned, 1));
  arena->extra = g_slist_prepend (arena->extra, block);
  return block;
}

/**
 * trace_arena_reset:
 * @arena: a #TraceArena
 *
 * Frees everything trace_arena_alloc() gave at once.
 */
void
trace_arena_reset (TraceArena *arena)
{
  g_slist_free_full (arena->extra, g_free);
  arena->extra = NULL;
  if (arena->overflowed && arena->size < arena->max_size)
    {
      arena->size = MIN (arena->size * 4, arena->max_size);
      arena->base = g_realloc (arena->base, arena->size);
    }
  arena->overflowed = FALSE;
  arena->used = 0;
}
