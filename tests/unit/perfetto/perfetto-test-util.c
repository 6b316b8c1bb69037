/* Helpers of the Perfetto unit tests: writing to memory, reading back,
 * and events as comparable text. */
#include "perfetto-test-util.h"

#include <string.h>

/* Writes @batches with a writer on a memory stream. */
GBytes *
pt_write (TraceBatch **batches,
          guint n_batches,
          const PerfettoWriterOptions *opts,
          PerfettoWriterStats *stats)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (PerfettoWriter) w = perfetto_writer_new (out, opts);
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < n_batches; i++)
    {
      g_assert_true (perfetto_writer_write_batch (w, batches[i], &error));
      g_assert_no_error (error);
    }
  g_assert_true (perfetto_writer_finish (w, &error));
  g_assert_no_error (error);
  if (stats)
    perfetto_writer_get_stats (w, stats);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* @bytes decoded as a Trace, which must succeed; free it with
 * perfetto__protos__trace__free_unpacked(). */
Perfetto__Protos__Trace *
pt_unpack (GBytes *bytes)
{
  Perfetto__Protos__Trace *trace = perfetto__protos__trace__unpack (NULL, g_bytes_get_size (bytes), g_bytes_get_data (bytes, NULL));

  g_assert_nonnull (trace);
  return trace;
}

/* Reads tests/data/perfetto/@name whole, as pt_read() does. */
TraceBatch *
pt_read_data_file (TraceStringPool *pool,
                   const char *name,
                   PerfettoReaderStats *stats)
{
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "perfetto", name, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  char *data = NULL;
  gsize len = 0;
  TraceBatch *out;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  bytes = g_bytes_new_take (data, len);
  out = pt_read (bytes, pool, stats, NULL, &error);
  g_assert_no_error (error);
  return out;
}

/* Reads all of @bytes into one batch (events and args copied). */
TraceBatch *
pt_read (GBytes *bytes,
         TraceStringPool *pool,
         PerfettoReaderStats *stats,
         TraceClockDomain *clock,
         GError **error)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr (PerfettoReader) r = perfetto_reader_new (in, "test.pftrace", pool);
  TraceBatch *all = trace_batch_new (pool, 0);
  TraceBatch *b = NULL;
  gboolean ok;

  while ((ok = perfetto_reader_read_batch (r, &b, error)) && b != NULL)
    {
      for (guint i = 0; i < b->n_events; i++)
        trace_batch_append_event (all, &b->events[i], b);
      trace_batch_unref (b);
    }
  if (stats)
    perfetto_reader_get_stats (r, stats);
  if (clock)
    *clock = perfetto_reader_get_clock_domain (r);
  if (!ok)
    g_clear_pointer (&all, trace_batch_unref);
  return all;
}

static void
append_arg (GString *s,
            TraceBatch *batch,
            const TraceArg *arg)
{
  g_string_append_printf (s, " %s=", trace_batch_get_string (batch, arg->key));
  switch ((TraceArgType) arg->type)
    {
    case TRACE_ARG_INT:
      g_string_append_printf (s, "i:%" G_GINT64_FORMAT, arg->v.i);
      break;
    case TRACE_ARG_UINT:
      g_string_append_printf (s, "u:%" G_GUINT64_FORMAT, arg->v.u);
      break;
    case TRACE_ARG_POINTER:
      g_string_append_printf (s, "p:0x%" G_GINT64_MODIFIER "x", arg->v.u);
      break;
    case TRACE_ARG_DOUBLE:
      g_string_append_printf (s, "d:%.17g", arg->v.d);
      break;
    case TRACE_ARG_BOOL:
      g_string_append_printf (s, "b:%d", arg->v.b);
      break;
    case TRACE_ARG_STRING:
    case TRACE_ARG_TEXT: /* where a value is kept is no part of it */
      g_string_append_printf (s, "s:'%s'", trace_batch_get_arg_string (batch, arg));
      break;
    case TRACE_ARG_NULL:
      g_string_append (s, "null");
      break;
    case TRACE_ARG_EMPTY_ARRAY:
      g_string_append (s, "[]");
      break;
    case TRACE_ARG_EMPTY_OBJECT:
      g_string_append (s, "{}");
      break;
    }
}

#define STR(id) trace_batch_get_string (batch, (id))

static void append_other_union (GString *s,
                                TraceBatch *batch,
                                const TraceEvent *ev);

static void
append_union (GString *s,
              TraceBatch *batch,
              const TraceEvent *ev)
{
  switch (ev->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
    case TRACE_EVENT_SLICE_END:
    case TRACE_EVENT_SLICE_COMPLETE:
    case TRACE_EVENT_INSTANT:
      g_string_append_printf (s, " dur=%" G_GINT64_FORMAT " out=%" G_GUINT64_FORMAT " in=%" G_GUINT64_FORMAT " track='%s'",
                              ev->u.slice.dur, ev->u.slice.flow_out, ev->u.slice.flow_in, STR (ev->u.slice.track));
      break;
    case TRACE_EVENT_ASYNC_BEGIN:
    case TRACE_EVENT_ASYNC_STEP:
    case TRACE_EVENT_ASYNC_END:
    case TRACE_EVENT_ASYNC_INSTANT:
    case TRACE_EVENT_FLOW_START:
    case TRACE_EVENT_FLOW_STEP:
    case TRACE_EVENT_FLOW_END:
      g_string_append_printf (s, " id=%" G_GUINT64_FORMAT " scope='%s' track='%s' step='%s'", ev->u.async.id,
                              STR (ev->u.async.scope), STR (ev->u.async.track), STR (ev->u.async.step));
      break;
    case TRACE_EVENT_COUNTER:
      g_string_append_printf (s, " value=%.17g id=%" G_GUINT64_FORMAT " unit='%s'", ev->u.counter.value,
                              ev->u.counter.id, STR (ev->u.counter.unit));
      break;
    case TRACE_EVENT_PROCESS_SORT_INDEX:
    case TRACE_EVENT_THREAD_SORT_INDEX:
      g_string_append_printf (s, " value=%" G_GINT64_FORMAT, ev->u.meta.value);
      break;
    default:
      append_other_union (s, batch, ev);
      break;
    }
}

static void
append_other_union (GString *s,
                    TraceBatch *batch,
                    const TraceEvent *ev)
{
  switch (ev->kind)
    {
    case TRACE_EVENT_SCHED_SWITCH:
      g_string_append_printf (s, " prev=%d/%d/%" G_GINT64_FORMAT "/'%s' next=%d/%d/'%s'",
                              ev->u.sched_switch.prev_tid, ev->u.sched_switch.prev_prio,
                              ev->u.sched_switch.prev_state, STR (ev->u.sched_switch.prev_comm),
                              ev->u.sched_switch.next_tid, ev->u.sched_switch.next_prio,
                              STR (ev->u.sched_switch.next_comm));
      break;
    case TRACE_EVENT_SCHED_WAKEUP:
    case TRACE_EVENT_SCHED_WAKING:
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
      g_string_append_printf (s, " wakee=%d prio=%d target=%d comm='%s' success=%d", ev->u.wakeup.tid,
                              ev->u.wakeup.prio, ev->u.wakeup.target_cpu, STR (ev->u.wakeup.comm),
                              ev->u.wakeup.success);
      break;
    case TRACE_EVENT_SCHED_PROCESS_EXIT:
    case TRACE_EVENT_SCHED_PROCESS_FREE:
    case TRACE_EVENT_TASK_NEWTASK:
    case TRACE_EVENT_TASK_RENAME:
      g_string_append_printf (s, " task=%d prio=%d comm='%s' old='%s' clone=%" G_GUINT64_FORMAT, ev->u.task.tid,
                              ev->u.task.prio, STR (ev->u.task.comm), STR (ev->u.task.old_comm),
                              ev->u.task.clone_flags);
      break;
    case TRACE_EVENT_CPU_FREQUENCY:
    case TRACE_EVENT_CPU_IDLE:
      g_string_append_printf (s, " cpu_id=%d state=%" G_GINT64_FORMAT, ev->u.cpu.cpu_id, ev->u.cpu.state);
      break;
    case TRACE_EVENT_STACK_NODE:
      g_string_append_printf (s, " node=%" G_GUINT64_FORMAT " parent=%" G_GUINT64_FORMAT, ev->u.stack_node.id,
                              ev->u.stack_node.parent_id);
      break;
    case TRACE_EVENT_SAMPLE:
      g_string_append_printf (s, " node=%" G_GUINT64_FORMAT " weight=%" G_GINT64_FORMAT, ev->u.sample.node_id,
                              ev->u.sample.weight);
      break;
    case TRACE_EVENT_CLOCK_MARKER:
      g_string_append_printf (s, " marker=%u domain=%u other=%" G_GINT64_FORMAT " issue=%" G_GINT64_FORMAT " sync='%s'",
                              ev->u.clock.marker, ev->u.clock.domain, ev->u.clock.other_ts,
                              ev->u.clock.issue_ts, STR (ev->u.clock.sync_id));
      break;
    case TRACE_EVENT_CHROME_PHASE:
      g_string_append_printf (s, " phase='%c' id=%u:%" G_GUINT64_FORMAT " scope='%s' tts=%" G_GINT64_FORMAT,
                              ev->u.chrome_phase.phase, ev->u.chrome_phase.id_kind, ev->u.chrome_phase.id,
                              STR (ev->u.chrome_phase.scope), trace_event_get_thread_ts (ev));
      break;
    default:
      break;
    }
}

/* One line saying everything about @ev, for comparisons. */
char *
pt_event_string (TraceBatch *batch,
                 const TraceEvent *ev)
{
  GString *s = g_string_new (NULL);
  const TraceArg *args = trace_batch_get_args (batch, ev);

  g_string_append_printf (s, "%s ts=%" G_GINT64_FORMAT " pid=%" G_GINT64_FORMAT " tid=%" G_GINT64_FORMAT " cpu=%d name='%s' cat='%s' flags=0x%x",
                          trace_event_kind_to_string (ev->kind), ev->ts, ev->pid, ev->tid, ev->cpu,
                          STR (ev->name), STR (ev->category), ev->flags);
  append_union (s, batch, ev);
  for (guint i = 0; i < ev->n_args; i++)
    append_arg (s, batch, &args[i]);
  return g_string_free (s, FALSE);
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
pt_event_strings (TraceBatch *batch,
                  gboolean sorted)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < batch->n_events; i++)
    if (batch->events[i].kind != TRACE_EVENT_NONE)
      g_ptr_array_add (out, pt_event_string (batch, &batch->events[i]));
  if (sorted)
    g_ptr_array_sort (out, compare_strings);
  return out;
}

void
pt_assert_same_events (GPtrArray *expected,
                       GPtrArray *actual)
{
  for (guint i = 0; i < MIN (expected->len, actual->len); i++)
    g_assert_cmpstr (actual->pdata[i], ==, expected->pdata[i]);
  g_assert_cmpuint (actual->len, ==, expected->len);
}

/* Where the file's records begin (and its end), found by parsing the
 * framing here rather than trusting the reader. */
GArray *
pt_record_offsets (GBytes *bytes)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  GArray *offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize pos = 0;

  while (pos < len)
    {
      guint64 n = 0;
      guint shift = 0;

      g_array_append_val (offsets, pos);
      g_assert_cmpuint (data[pos], ==, 0x0a); /* Trace.packet, length-delimited */
      pos++;
      while (data[pos] & 0x80)
        n |= (guint64) (data[pos++] & 0x7f) << shift, shift += 7;
      n |= (guint64) data[pos++] << shift;
      pos += n;
    }
  g_assert_cmpuint (pos, ==, len);
  g_array_append_val (offsets, pos);
  return offsets;
}

TraceEvent *
pt_add (TraceBatch *b,
        TraceEventKind kind,
        gint64 ts,
        gint64 pid,
        gint64 tid,
        const char *name)
{
  TraceEvent *ev = trace_batch_append (b, kind, ts);

  ev->pid = pid;
  ev->tid = tid;
  ev->name = name ? trace_string_pool_intern (b->pool, name) : 0;
  return ev;
}

guint32
pt_str (TraceBatch *b,
        const char *s)
{
  return trace_string_pool_intern (b->pool, s);
}
