/* tracepipe - htrace: FFRT task markers
 *
 * The ffrt-profiler plugin records what FFRT's hitrace markers would
 * have written: a phase (`B`, `E`, `S`, `C`...), a label and a cookie,
 * with the time, pid and tid. They become the atrace marker hitrace text
 * would hold (`B|pid|H:label`, as TraceStreamer rebuilds them), read by
 * the ftrace engine as a print event of that thread (htrace-records.c),
 * so that they are the same events as from hitrace text. Two kinds do
 * not:
 *
 * - `F` records are FFRT's task-state changes (`F|pid|H:R|3`: task 3 is
 *   ready; P, R, Co, F in the captures); FFRT writes no `S`, so as async
 *   ends they would end nothing. They become instants on their
 *   thread, named by the state, with the task id as an arg.
 * - records with neither a marker nor raw data name a thread and its
 *   process.
 *
 * Raw records (FFRT's binary payloads) are counted, not read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-private.h"

/* Thread names remembered for the task of the marker records. */
#define MAX_THREADS 65536

struct _HtraceFfrt
{
  TraceStringPool *pool;
  GString *line; /* names, labels, marker texts */
  TraceClockDomain clock;
  GHashTable *comms; /* tid → interned thread name */
  guint32 category;
};

HtraceFfrt *
htrace_ffrt_new (TraceStringPool *pool)
{
  HtraceFfrt *f = g_new0 (HtraceFfrt, 1);

  f->pool = pool;
  f->line = g_string_sized_new (256);
  /* FFRT's default, and what the configuration says when it is there */
  f->clock = TRACE_CLOCK_BOOTTIME;
  f->comms = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  f->category = trace_string_pool_intern (pool, "ffrt");
  return f;
}

void
htrace_ffrt_free (HtraceFfrt *f)
{
  if (f == NULL)
    return;
  g_string_free (f->line, TRUE);
  g_hash_table_unref (f->comms);
  g_free (f);
}

/* The FFRT configuration's own clock numbering (not POSIX ids); 0,
 * "unknown", is taken as FFRT's default, boottime. */
void
htrace_ffrt_configure (HtraceFfrt *f,
                       HtraceContext *ctx,
                       const ProtobufCBinaryData *data)
{
  static const TraceClockDomain clocks[] = { TRACE_CLOCK_BOOTTIME, TRACE_CLOCK_BOOTTIME, TRACE_CLOCK_REALTIME,
                                             TRACE_CLOCK_REALTIME, TRACE_CLOCK_MONOTONIC, TRACE_CLOCK_MONOTONIC,
                                             TRACE_CLOCK_MONOTONIC_RAW };
  Htrace__FfrtConfig *cfg = htrace__ffrt_config__unpack (ctx->allocator, data->len, data->data);

  if (cfg == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  f->clock = cfg->clock_id >= 0 && cfg->clock_id < (gint) G_N_ELEMENTS (clocks) ? clocks[cfg->clock_id]
                                                                                : TRACE_CLOCK_UNKNOWN;
  g_debug ("FFRT events on %s (configuration clock %d)", trace_clock_domain_to_string (f->clock), cfg->clock_id);
}

/* Appends @b up to its first NUL (FFRT counts the terminator in its
 * labels), line ends turned into spaces: one record is one line. */
static void
append_text (GString *s,
             const ProtobufCBinaryData *b)
{
  const guint8 *end = b->data ? memchr (b->data, '\0', b->len) : NULL;
  gsize len = end ? (gsize) (end - b->data) : b->len;

  len = MIN (len, FTRACE_MAX_NAME_LENGTH);
  for (gsize i = 0; i < len; i++)
    g_string_append_c (s, b->data[i] == '\n' || b->data[i] == '\r' ? ' ' : (char) b->data[i]);
}

static void
remember_names (HtraceFfrt *f,
                HtraceContext *ctx,
                gint64 ts,
                const Htrace__FfrtEvent *e)
{
  TraceEvent *ev;

  if (e->thread_name.len > 0)
    {
      g_string_truncate (f->line, 0);
      append_text (f->line, &e->thread_name);
      ev = trace_batch_append (ctx->batch, TRACE_EVENT_THREAD_NAME, ts);
      ev->pid = e->pid;
      ev->tid = e->tid;
      ev->name = trace_string_pool_intern (f->pool, f->line->str);
      if (g_hash_table_size (f->comms) < MAX_THREADS || g_hash_table_contains (f->comms, &(gint64){ e->tid }))
        g_hash_table_insert (f->comms, g_memdup2 (&(gint64){ e->tid }, sizeof (gint64)),
                             GUINT_TO_POINTER (ev->name));
    }
  if (e->process_name.len > 0)
    {
      g_string_truncate (f->line, 0);
      append_text (f->line, &e->process_name);
      ev = trace_batch_append (ctx->batch, TRACE_EVENT_PROCESS_NAME, ts);
      ev->pid = e->pid;
      ev->name = trace_string_pool_intern (f->pool, f->line->str);
    }
}

/* FFRT writes no `S`: its `F` records are all task states. */
static gboolean
is_task_state (const Htrace__FfrtTrace *t)
{
  return t->trace_type.len >= 1 && t->trace_type.data[0] == 'F' && (t->trace_type.len == 1 || t->trace_type.data[1] == '\0');
}

static void
task_state (HtraceFfrt *f,
            HtraceContext *ctx,
            gint64 ts,
            const Htrace__FfrtEvent *e)
{
  TraceEvent *ev = trace_batch_append (ctx->batch, TRACE_EVENT_INSTANT, ts);

  g_string_truncate (f->line, 0);
  append_text (f->line, &e->trace->label);
  ev->pid = e->pid;
  ev->tid = e->tid;
  ev->cpu = e->trace->cpu;
  ev->category = f->category;
  ev->name = trace_string_pool_intern (f->pool, f->line->str);
  trace_batch_add_arg_int (ctx->batch, ev, "task_id", (gint64) e->trace->cookie);
  trace_batch_add_arg_string (ctx->batch, ev, "state", f->line->str);
}

/* `B|pid|H:label|cookie`, written by the task `comm-tid (pid)` on its cpu */
static void
marker (HtraceFfrt *f,
        HtraceContext *ctx,
        gint64 ts,
        const Htrace__FfrtEvent *e)
{
  guint32 comm = GPOINTER_TO_UINT (g_hash_table_lookup (f->comms, &(gint64){ e->tid }));
  FtraceRecord rec = htrace_record (comm ? trace_string_pool_get (f->pool, comm) : NULL, e->tid,
                                    e->pid, e->trace->cpu, ts);

  g_string_truncate (f->line, 0);
  append_text (f->line, &e->trace->trace_type);
  g_string_append_printf (f->line, "|%u", e->pid);
  if (e->trace->label.len > 0)
    {
      g_string_append (f->line, "|H:");
      append_text (f->line, &e->trace->label);
    }
  if (e->trace->cookie != 0)
    g_string_append_printf (f->line, "|%" G_GUINT64_FORMAT, e->trace->cookie);
  ftrace_parser_add_print (htrace_records_get_parser (ctx->records), ctx->batch, &rec, f->line->str, f->line->len);
}

static void
decode_event (HtraceFfrt *f,
              HtraceContext *ctx,
              const Htrace__FfrtEvent *e)
{
  gint64 ts;

  ctx->stats->ffrt_events++;
  if (e->event_case == HTRACE__FFRT_EVENT__EVENT_RAW)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_FFRT_RAW, 1);
      return;
    }
  if (!htrace_context_time (ctx, f->clock, e->tv_sec, e->tv_nsec, &ts))
    return;
  if (e->event_case != HTRACE__FFRT_EVENT__EVENT_TRACE)
    remember_names (f, ctx, ts, e);
  else if (ts < 0)
    htrace_context_skip (ctx, HTRACE_SKIP_UNKNOWN_CLOCK, 1);
  else if (is_task_state (e->trace))
    task_state (f, ctx, ts, e);
  else
    marker (f, ctx, ts, e);
}

void
htrace_ffrt_decode (HtraceFfrt *f,
                    HtraceContext *ctx,
                    const ProtobufCBinaryData *data)
{
  Htrace__FfrtResult *res = htrace__ffrt_result__unpack (ctx->allocator, data->len, data->data);

  if (res == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  for (gsize i = 0; i < res->n_ffrt_event; i++)
    decode_event (f, ctx, res->ffrt_event[i]);
}
