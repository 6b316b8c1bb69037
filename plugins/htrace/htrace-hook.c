/* tracepipe - htrace: native-hook allocations as live bytes per process
 *
 * Native hook records every malloc/free and mmap/munmap of the hooked
 * processes, each with its call stack. tracepipe's event model has no
 * heap-profile event yet, so the stacks are not read (docs/htrace.md):
 * each record moves one of two counters of its process, `heap.live`
 * (bytes malloc'ed and not yet freed) and `mmap.live` (bytes mapped and
 * not yet unmapped), stated after every change. A free names only an
 * address: the size is that of the allocation seen at that address, and
 * a free of an address not seen is counted and moves nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-private.h"

/* A size past 1 TiB is damage: counted as 1 TiB, so that totals of any
 * number of records cannot overflow. */
#define HOOK_MAX_SIZE ((guint64) 1 << 40)
/* Processes with counters; records of more are counted, not read. */
#define HOOK_MAX_PROCESSES 4096

typedef struct
{
  gint64 key[2]; /* pid, address: the hash key */
  guint64 size;
} HookAllocation;

struct _HtraceHook
{
  TraceStringPool *pool;
  TraceClockDomain clock;
  GHashTable *live;   /* HookAllocation.key → HookAllocation */
  GHashTable *totals; /* pid → gint64[2]: heap, mmap bytes */
  guint32 heap_name, mmap_name, unit;
};

static guint
key_hash (gconstpointer p)
{
  const gint64 *k = p;

  return g_int64_hash (&k[0]) * 31 + g_int64_hash (&k[1]);
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  return memcmp (a, b, 2 * sizeof (gint64)) == 0;
}

HtraceHook *
htrace_hook_new (TraceStringPool *pool)
{
  HtraceHook *h = g_new0 (HtraceHook, 1);

  h->pool = pool;
  h->clock = TRACE_CLOCK_REALTIME;
  h->live = g_hash_table_new_full (key_hash, key_equal, NULL, g_free);
  h->totals = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  h->heap_name = trace_string_pool_intern (pool, "heap.live");
  h->mmap_name = trace_string_pool_intern (pool, "mmap.live");
  h->unit = trace_string_pool_intern (pool, "bytes");
  return h;
}

void
htrace_hook_free (HtraceHook *h)
{
  if (h == NULL)
    return;
  g_hash_table_unref (h->live);
  g_hash_table_unref (h->totals);
  g_free (h);
}

/* `clock` is a name ("realtime", "boottime", ...); realtime when the
 * configuration does not say, as the captures without it are. */
void
htrace_hook_configure (HtraceHook *h,
                       HtraceContext *ctx,
                       const ProtobufCBinaryData *data)
{
  Htrace__NativeHookConfig *cfg = htrace__native_hook_config__unpack (ctx->allocator, data->len, data->data);

  if (cfg == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  if (cfg->clock == NULL || *cfg->clock == '\0')
    return;
  h->clock = trace_clock_domain_from_string (cfg->clock);
  if (g_str_has_prefix (cfg->clock, "realtime"))
    h->clock = TRACE_CLOCK_REALTIME;
  else if (g_str_has_prefix (cfg->clock, "monotonic") && !g_str_equal (cfg->clock, "monotonic_raw"))
    h->clock = TRACE_CLOCK_MONOTONIC;
  else if (g_str_equal (cfg->clock, "monotonic_raw"))
    h->clock = TRACE_CLOCK_MONOTONIC_RAW;
  g_debug ("native-hook events on %s (configuration clock \"%s\")", trace_clock_domain_to_string (h->clock),
           cfg->clock);
}

/* Returns the totals of @pid, or NULL past the limit of processes. */
static gint64 *
totals_of (HtraceHook *h,
           gint64 pid)
{
  gint64 *t = g_hash_table_lookup (h->totals, &pid);

  if (t == NULL && g_hash_table_size (h->totals) < HOOK_MAX_PROCESSES)
    {
      t = g_new0 (gint64, 3);
      t[2] = pid; /* the key lives in the value's block */
      g_hash_table_insert (h->totals, &t[2], t);
    }
  return t;
}

static void
state (HtraceHook *h,
       HtraceContext *ctx,
       gint64 ts,
       gint64 pid,
       gint64 tid,
       gboolean mmap,
       gint64 delta)
{
  gint64 *t = totals_of (h, pid);
  TraceEvent *ev;

  if (t == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_HOOK_OTHER, 1);
      return;
    }
  t[mmap] += delta;
  ev = trace_batch_append (ctx->batch, TRACE_EVENT_COUNTER, ts);
  ev->pid = pid;
  ev->tid = tid;
  ev->name = mmap ? h->mmap_name : h->heap_name;
  ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
  ev->u.counter.value = (double) t[mmap];
  ev->u.counter.unit = h->unit;
}

static void
allocated (HtraceHook *h,
           HtraceContext *ctx,
           gint64 ts,
           gint64 pid,
           gint64 tid,
           guint64 addr,
           guint64 size)
{
  HookAllocation *a = g_hash_table_lookup (h->live, (gint64[2]){ pid, (gint64) addr });
  gint64 delta = (gint64) MIN (size, HOOK_MAX_SIZE);

  /* an address allocated again without a free seen: the old one is gone */
  if (a != NULL)
    delta -= (gint64) a->size;
  else if (g_hash_table_size (h->live) < HTRACE_MAX_LIVE_ALLOCATIONS)
    {
      a = g_new (HookAllocation, 1);
      a->key[0] = pid;
      a->key[1] = (gint64) addr;
      g_hash_table_insert (h->live, a->key, a);
    }
  if (a != NULL)
    a->size = (guint64) MIN (size, HOOK_MAX_SIZE);
  state (h, ctx, ts, pid, tid, FALSE, delta);
}

static void
freed (HtraceHook *h,
       HtraceContext *ctx,
       gint64 ts,
       gint64 pid,
       gint64 tid,
       guint64 addr)
{
  gint64 key[2] = { pid, (gint64) addr };
  HookAllocation *a = g_hash_table_lookup (h->live, key);
  gint64 size;

  if (a == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_HOOK_UNMATCHED_FREE, 1);
      return;
    }
  size = (gint64) a->size;
  g_hash_table_remove (h->live, key);
  state (h, ctx, ts, pid, tid, FALSE, -size);
}

static void
decode_event (HtraceHook *h,
              HtraceContext *ctx,
              const Htrace__NativeHookData *e)
{
  gint64 ts;

  ctx->stats->hook_events++;
  if (e->event_case == HTRACE__NATIVE_HOOK_DATA__EVENT__NOT_SET)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_HOOK_OTHER, 1);
      return;
    }
  if (!htrace_context_time (ctx, h->clock, e->tv_sec, e->tv_nsec, &ts))
    return;
  switch (e->event_case)
    {
    case HTRACE__NATIVE_HOOK_DATA__EVENT_ALLOC_EVENT:
      allocated (h, ctx, ts, e->alloc_event->pid, e->alloc_event->tid, e->alloc_event->addr, e->alloc_event->size);
      break;
    case HTRACE__NATIVE_HOOK_DATA__EVENT_FREE_EVENT:
      freed (h, ctx, ts, e->free_event->pid, e->free_event->tid, e->free_event->addr);
      break;
    case HTRACE__NATIVE_HOOK_DATA__EVENT_MMAP_EVENT:
      state (h, ctx, ts, e->mmap_event->pid, e->mmap_event->tid, TRUE,
             (gint64) MIN (e->mmap_event->size, HOOK_MAX_SIZE));
      break;
    default:
      state (h, ctx, ts, e->munmap_event->pid, e->munmap_event->tid, TRUE,
             -(gint64) MIN (e->munmap_event->size, HOOK_MAX_SIZE));
      break;
    }
}

void
htrace_hook_decode (HtraceHook *h,
                    HtraceContext *ctx,
                    const ProtobufCBinaryData *data)
{
  Htrace__BatchNativeHookData *batch = htrace__batch_native_hook_data__unpack (ctx->allocator, data->len, data->data);

  if (batch == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  for (gsize i = 0; i < batch->n_events; i++)
    decode_event (h, ctx, batch->events[i]);
}
