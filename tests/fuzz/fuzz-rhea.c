/* tracepipe fuzzing - rhea-repair on arbitrary slice streams
 *
 * The input is read as the repair's options (three bytes), then as
 * events, two bytes each: thread, process, time step, number of args;
 * kind (a `B:`, `E:` or `T:` marker of one of 8 methods, a plain begin
 * or end, a complete slice, an instant, a counter).  The events go to
 * the repair in batches of a size the options choose, with small hold
 * limits, so that cuts, overflows and drains happen on short inputs.
 *
 * Whatever the input, the repair promises: every thread's slice events
 * come out in time order and balanced (an end always closes a begin of
 * its thread, and the drain closes every begin), and as many events come
 * out as its stats say.  Any other outcome aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "fuzz-targets.h"
#include "rhea-private.h"

#define N_THREADS 4

/* What one thread's output has shown so far. */
typedef struct
{
  gint64 last_ts;
  guint depth;
  gboolean seen;
} ThreadCheck;

static ThreadCheck *
thread_check (ThreadCheck *checks,
              const TraceEvent *ev)
{
  guint tid = (guint) (ev->tid - 1000);
  guint pid = (guint) (ev->pid - 100);

  g_assert_cmpuint (tid, <, N_THREADS);
  g_assert_cmpuint (pid, <, 2);
  return &checks[pid * N_THREADS + tid];
}

static void
check_output (ThreadCheck *checks,
              const TraceBatch *batch,
              guint64 *n_out)
{
  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];
      ThreadCheck *c;

      if (ev->kind == TRACE_EVENT_NONE)
        continue;
      (*n_out)++;
      if (!trace_event_is_slice_like (ev->kind))
        continue;
      c = thread_check (checks, ev);
      g_assert_true (!c->seen || ev->ts >= c->last_ts);
      c->last_ts = ev->ts;
      c->seen = TRUE;
      if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
        c->depth++;
      else if (ev->kind == TRACE_EVENT_SLICE_END)
        {
          g_assert_cmpuint (c->depth, >, 0);
          c->depth--;
        }
    }
}

static const char *const markers[] = { "B:", "E:", "T:" };

/* One event of two input bytes, appended to @batch. */
static void
append_event (TraceBatch *batch,
              TraceStringPool *pool,
              guint8 a,
              guint8 b,
              gint64 *ts)
{
  guint kind = b >> 5;
  TraceEvent *ev;

  *ts += (a >> 2) & 7;
  if (kind <= 3)
    {
      g_autofree char *name = kind <= 2 ? g_strdup_printf ("%sapp.M:m%u", markers[kind], b & 7) : g_strdup_printf ("plain%u", b & 7);

      ev = trace_batch_append (batch, TRACE_EVENT_SLICE_BEGIN, *ts);
      ev->name = trace_string_pool_intern (pool, name);
    }
  else if (kind == 4)
    ev = trace_batch_append (batch, TRACE_EVENT_SLICE_END, *ts);
  else if (kind == 5)
    {
      ev = trace_batch_append (batch, TRACE_EVENT_SLICE_COMPLETE, *ts);
      ev->u.slice.dur = b & 31;
      ev->name = trace_string_pool_intern (pool, "complete");
    }
  else if (kind == 6)
    {
      ev = trace_batch_append (batch, TRACE_EVENT_INSTANT, *ts);
      ev->name = trace_string_pool_intern (pool, "instant");
    }
  else
    {
      ev = trace_batch_append (batch, TRACE_EVENT_COUNTER, *ts);
      ev->u.counter.value = b & 31;
    }
  ev->tid = 1000 + (a & 3);
  ev->pid = 100 + ((a >> 5) & 1);
  for (guint n = 0; n < (guint) (a >> 6); n++)
    trace_batch_add_arg_int (batch, ev, "line", n);
}

static RheaRepair *
make_repair (TraceStringPool *pool,
             const guint8 *opts)
{
  RheaRepairOptions o = {
    .markers = !(opts[0] & 0x80),
    .marker_ends = (opts[2] >> 4) % 3,
    .crash_tag = (opts[0] & 0x40) != 0,
    .max_hold = 1 + (opts[0] & 0x3f),
    .max_hold_total = 1 + opts[1] * 2,
  };

  return rhea_repair_new_with_options (pool, &o);
}

void
fuzz_rhea_repair (const guint8 *data,
                  gsize size)
{
  g_autoptr (TraceStringPool) pool = fuzz_get_pool ();
  g_autoptr (RheaRepair) repair = NULL;
  ThreadCheck checks[2 * N_THREADS];
  guint64 n_out = 0;
  RheaRepairStats stats;
  TraceBatch *batch = NULL;
  guint per_batch;
  gint64 ts = 0;

  if (size < 3)
    return;
  memset (checks, 0, sizeof checks);
  repair = make_repair (pool, data);
  per_batch = 1 + (data[2] & 15);
  for (gsize i = 3; i + 1 < size; i += 2)
    {
      if (batch == NULL)
        batch = trace_batch_new (pool, per_batch);
      append_event (batch, pool, data[i], data[i + 1], &ts);
      if (batch->n_events < per_batch && i + 3 < size)
        continue;
      rhea_repair_process (repair, batch);
      check_output (checks, batch, &n_out);
      g_clear_pointer (&batch, trace_batch_unref);
    }
  while ((batch = rhea_repair_drain (repair)) != NULL)
    {
      check_output (checks, batch, &n_out);
      trace_batch_unref (batch);
    }
  for (guint t = 0; t < G_N_ELEMENTS (checks); t++)
    g_assert_cmpuint (checks[t].depth, ==, 0);
  rhea_repair_get_stats (repair, &stats);
  g_assert_cmpuint (stats.events_out, ==, n_out);
  g_free (rhea_repair_get_summary (repair));
}
