/* tracepipe tools - info-sink: counts what a stream holds, in bounded memory
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "info.h"

/**
 * TraceInfoSink:
 *
 * The sink of trace-info's pipeline (`auto-src location=F ! info-sink`):
 * counts events by kind, per process and thread, per slice name and
 * counter, and keeps the first and last timestamps. Per event it only
 * adds to counters and looks up hash tables with a key on the stack; a
 * row is allocated the first time a thread or name is seen, up to the
 * INFO_MAX_* caps.
 */
struct _TraceInfoSink
{
  TraceBaseSink parent_instance;

  InfoSummary summary;
};

G_DEFINE_FINAL_TYPE (TraceInfoSink, trace_info_sink, TRACE_TYPE_BASE_SINK)

static const guint table_caps[INFO_N_TABLES] = {
  [INFO_TABLE_THREADS] = INFO_MAX_THREADS,
  [INFO_TABLE_PROCESSES] = INFO_MAX_PROCESSES,
  [INFO_TABLE_SLICE_NAMES] = INFO_MAX_NAMES,
  [INFO_TABLE_COUNTERS] = INFO_MAX_COUNTERS,
};

/* Threads are told apart by (pid, tid): Chrome numbers threads within
 * each process (tid 1 in five renderers is five threads), and Linux tids
 * are unique anyway. Processes by pid. */
static guint
thread_hash (gconstpointer key)
{
  const InfoThread *t = key;

  return g_int64_hash (&t->tid) * 31 + g_int64_hash (&t->pid);
}

static gboolean
thread_equal (gconstpointer a,
              gconstpointer b)
{
  const InfoThread *x = a, *y = b;

  return x->tid == y->tid && x->pid == y->pid;
}

static guint
pid_hash (gconstpointer key)
{
  return g_int64_hash (&((const InfoThread *) key)->pid);
}

static gboolean
pid_equal (gconstpointer a,
           gconstpointer b)
{
  return ((const InfoThread *) a)->pid == ((const InfoThread *) b)->pid;
}

static void
summary_reset (InfoSummary *s)
{
  g_clear_pointer (&s->thread_by_tid, g_hash_table_unref);
  for (guint i = 0; i < INFO_N_TABLES; i++)
    g_clear_pointer (&s->tables[i], g_hash_table_unref);
  g_free (s->format);
  g_free (s->clock);
  g_free (s->clock_source);
  memset (s, 0, sizeof *s);
  s->tables[INFO_TABLE_THREADS] = g_hash_table_new_full (thread_hash, thread_equal, g_free, NULL);
  s->thread_by_tid = g_hash_table_new (g_int64_hash, g_int64_equal);
  s->tables[INFO_TABLE_PROCESSES] = g_hash_table_new_full (pid_hash, pid_equal, g_free, NULL);
  s->tables[INFO_TABLE_SLICE_NAMES] = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  s->tables[INFO_TABLE_COUNTERS] = g_hash_table_new_full (NULL, NULL, NULL, g_free);
}

/* The row of @pid/@tid, made when there is room; NULL when the table is full. */
static InfoThread *
owner_row (InfoSummary *s,
           InfoTable table,
           gint64 pid,
           gint64 tid)
{
  InfoThread key = { .pid = pid, .tid = tid };
  InfoThread *row = g_hash_table_lookup (s->tables[table], &key);

  if (row != NULL || g_hash_table_size (s->tables[table]) >= table_caps[table])
    return row;
  row = g_memdup2 (&key, sizeof key);
  g_hash_table_add (s->tables[table], row);
  return row;
}

/* A thread's row. ftrace names a thread, and may show its events, before
 * it knows the process: an event without a pid goes to the thread that
 * tid last was, and a row made without a pid takes the first one its tid
 * is seen with. */
static InfoThread *
thread_row (InfoSummary *s,
            gint64 pid,
            gint64 tid)
{
  GHashTable *threads = s->tables[INFO_TABLE_THREADS];
  InfoThread key = { .pid = TRACE_ID_UNKNOWN, .tid = tid };
  InfoThread *row = NULL;

  if (pid == TRACE_ID_UNKNOWN)
    row = g_hash_table_lookup (s->thread_by_tid, &tid);
  else if ((row = g_hash_table_lookup (threads, &(InfoThread){ .pid = pid, .tid = tid })) == NULL &&
           g_hash_table_steal_extended (threads, &key, (gpointer *) &row, NULL))
    {
      row->pid = pid; /* the pid it lacked: the key changes */
      g_hash_table_add (threads, row);
    }
  if (row == NULL && (row = owner_row (s, INFO_TABLE_THREADS, pid, tid)) == NULL)
    return NULL;
  g_hash_table_replace (s->thread_by_tid, &row->tid, row);
  return row;
}

static InfoName *
name_row (InfoSummary *s,
          InfoTable table,
          guint32 name)
{
  InfoName *row = g_hash_table_lookup (s->tables[table], GUINT_TO_POINTER (name));

  if (row != NULL || g_hash_table_size (s->tables[table]) >= table_caps[table])
    return row;
  row = g_new0 (InfoName, 1);
  row->name = name;
  row->min = G_MAXDOUBLE;
  row->max = -G_MAXDOUBLE;
  g_hash_table_insert (s->tables[table], GUINT_TO_POINTER (name), row);
  return row;
}

static void
count_owner (InfoSummary *s,
             const TraceEvent *ev)
{
  InfoThread *row;

  if (ev->kind == TRACE_EVENT_PROCESS_NAME || ev->kind == TRACE_EVENT_THREAD_NAME)
    {
      if (ev->kind == TRACE_EVENT_PROCESS_NAME)
        row = owner_row (s, INFO_TABLE_PROCESSES, ev->pid, TRACE_ID_UNKNOWN);
      else
        row = thread_row (s, ev->pid, ev->tid);
      if (row != NULL)
        row->name = ev->name;
      return;
    }
  if (trace_event_kind_get_group (ev->kind) == TRACE_EVENT_GROUP_METADATA)
    return;
  if (ev->pid != TRACE_ID_UNKNOWN)
    {
      if ((row = owner_row (s, INFO_TABLE_PROCESSES, ev->pid, TRACE_ID_UNKNOWN)) != NULL)
        row->events++;
      else
        s->overflow[INFO_TABLE_PROCESSES]++;
    }
  if (ev->tid != TRACE_ID_UNKNOWN)
    {
      if ((row = thread_row (s, ev->pid, ev->tid)) != NULL)
        row->events++;
      else
        s->overflow[INFO_TABLE_THREADS]++;
    }
}

/* trace_processor's names for the softirq vectors (its slices of a
 * softirq_entry); a vector past them makes no slice. */
static const char *const softirq_actions[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
                                               "BLOCK_IOPOLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

/* The slice trace_processor makes of a typed kernel event: an
 * irq_handler_entry is `IRQ (NAME)`, a softirq_entry its vector's action
 * (`TIMER`), as json-sink writes them; 0 for any other event (the exits
 * end those slices). Of their ftrace text lines it makes no slice. */
static guint32
kernel_slice_name (InfoSummary *s,
                   TraceBatch *batch,
                   const TraceEvent *ev)
{
  const TraceArg *arg;
  const char *name;
  g_autofree char *title = NULL;

  if (!s->typed_kernel_events || ev->cpu < 0)
    return 0;
  if (s->k.irq_entry == 0)
    {
      s->k.irq_entry = trace_string_pool_intern (batch->pool, "irq_handler_entry");
      s->k.softirq_entry = trace_string_pool_intern (batch->pool, "softirq_entry");
      s->k.name = trace_string_pool_intern (batch->pool, "name");
      s->k.vec = trace_string_pool_intern (batch->pool, "vec");
    }
  if (ev->name == s->k.softirq_entry)
    {
      arg = trace_batch_find_arg (batch, ev, s->k.vec);
      if (arg == NULL || (arg->type != TRACE_ARG_INT && arg->type != TRACE_ARG_UINT) ||
          arg->v.u >= G_N_ELEMENTS (softirq_actions))
        return 0;
      return trace_string_pool_intern (batch->pool, softirq_actions[arg->v.u]);
    }
  if (ev->name != s->k.irq_entry)
    return 0;
  arg = trace_batch_find_arg (batch, ev, s->k.name);
  name = arg ? trace_batch_get_arg_string (batch, arg) : NULL;
  title = g_strdup_printf ("IRQ (%s)", name ? name : "");
  return trace_string_pool_intern (batch->pool, title);
}

static void
count_name (InfoSummary *s,
            TraceBatch *batch,
            const TraceEvent *ev)
{
  InfoTable table;
  InfoName *row;
  guint32 name = ev->name;

  switch (ev->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
    case TRACE_EVENT_SLICE_COMPLETE:
    case TRACE_EVENT_INSTANT:
    case TRACE_EVENT_ASYNC_BEGIN:
    case TRACE_EVENT_ASYNC_INSTANT:
      table = INFO_TABLE_SLICE_NAMES;
      break;
    case TRACE_EVENT_COUNTER:
      table = INFO_TABLE_COUNTERS;
      break;
    case TRACE_EVENT_FTRACE:
      if ((name = kernel_slice_name (s, batch, ev)) == 0)
        return;
      table = INFO_TABLE_SLICE_NAMES;
      break;
    default:
      return;
    }
  if ((row = name_row (s, table, name)) == NULL)
    {
      s->overflow[table]++;
      return;
    }
  row->count++;
  if (table == INFO_TABLE_COUNTERS)
    {
      row->min = MIN (row->min, ev->u.counter.value);
      row->max = MAX (row->max, ev->u.counter.value);
    }
}

static void
count_event (InfoSummary *s,
             TraceBatch *batch,
             const TraceEvent *ev)
{
  if (ev->kind >= TRACE_EVENT_N_KINDS)
    return;
  s->events++;
  s->by_kind[ev->kind]++;
  /* Metadata and call-tree nodes carry no time of their own (often 0);
   * clock markers are left out too, so that "first event" is the event
   * `filter start=+1.5s` counts from (docs/filters.md). */
  if (!(trace_event_kind_get_group (ev->kind) & (TRACE_EVENT_GROUP_METADATA | TRACE_EVENT_GROUP_CLOCK)) &&
      ev->kind != TRACE_EVENT_STACK_NODE)
    {
      if (!s->have_ts || ev->ts < s->first_ts)
        s->first_ts = ev->ts;
      if (!s->have_ts || ev->ts > s->last_ts)
        s->last_ts = ev->ts;
      s->have_ts = TRUE;
    }
  count_owner (s, ev);
  count_name (s, batch, ev);
}

static TraceFlowReturn
trace_info_sink_render (TraceBaseSink *sink,
                        TraceBatch *batch,
                        GError **error)
{
  InfoSummary *s = &TRACE_INFO_SINK (sink)->summary;

  for (guint i = 0; i < batch->n_events; i++)
    count_event (s, batch, &batch->events[i]);
  return TRACE_FLOW_OK;
}

static void
trace_info_sink_stream_start (TraceBaseSink *sink,
                              const TraceStreamInfo *info)
{
  InfoSummary *s = &TRACE_INFO_SINK (sink)->summary;

  g_free (s->format);
  g_free (s->clock);
  g_free (s->clock_source);
  s->format = g_strdup (info->format);
  s->clock = g_strdup (trace_clock_domain_to_string (info->clock_domain));
  s->clock_source = g_strdup (info->clock_source);
  s->typed_kernel_events = (info->flags & TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS) != 0;
}

static gboolean
trace_info_sink_start (TraceBaseSink *sink,
                       GError **error)
{
  summary_reset (&TRACE_INFO_SINK (sink)->summary);
  return TRUE;
}

static void
trace_info_sink_finalize (GObject *object)
{
  InfoSummary *s = &TRACE_INFO_SINK (object)->summary;

  summary_reset (s);
  for (guint i = 0; i < INFO_N_TABLES; i++)
    g_clear_pointer (&s->tables[i], g_hash_table_unref);
  G_OBJECT_CLASS (trace_info_sink_parent_class)->finalize (object);
}

static void
trace_info_sink_class_init (TraceInfoSinkClass *klass)
{
  TraceBaseSinkClass *sink_class = TRACE_BASE_SINK_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = trace_info_sink_finalize;
  sink_class->start = trace_info_sink_start;
  sink_class->stream_start = trace_info_sink_stream_start;
  sink_class->render = trace_info_sink_render;
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Trace summary sink", "Sink/Trace",
                                    "Counts events by kind, thread, name and counter (trace-info)", "tracepipe");
}

static void
trace_info_sink_init (TraceInfoSink *self)
{
  summary_reset (&self->summary);
}

/**
 * trace_info_sink_get_summary:
 * @sink: a #TraceInfoSink
 *
 * Returns: (transfer none): what it counted; valid until it starts again
 */
const InfoSummary *
trace_info_sink_get_summary (TraceInfoSink *sink)
{
  return &sink->summary;
}

/* Most events first; ties by id, so the output is the same every run. */
static gint
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer user_data)
{
  gboolean threads = GPOINTER_TO_INT (user_data);
  guint64 x, y;
  gint64 id_x, id_y;

  if (threads)
    {
      const InfoThread *s = *(InfoThread **) a, *t = *(InfoThread **) b;

      x = s->events, y = t->events;
      id_x = s->tid != TRACE_ID_UNKNOWN ? s->tid : s->pid, id_y = t->tid != TRACE_ID_UNKNOWN ? t->tid : t->pid;
    }
  else
    {
      const InfoName *m = *(InfoName **) a, *n = *(InfoName **) b;

      x = m->count, y = n->count, id_x = m->name, id_y = n->name;
    }
  if (x != y)
    return x < y ? 1 : -1;
  return id_x < id_y ? -1 : id_x > id_y;
}

GPtrArray *
info_table_sorted (const InfoSummary *summary,
                   InfoTable table)
{
  GPtrArray *rows = g_ptr_array_new ();
  gboolean threads = table == INFO_TABLE_THREADS || table == INFO_TABLE_PROCESSES;
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, summary->tables[table]);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_ptr_array_add (rows, threads ? key : value);

  g_ptr_array_sort_with_data (rows, compare_rows, GINT_TO_POINTER (threads));
  return rows;
}

static gboolean
register_tools_plugin (TracePlugin *plugin,
                       GError **error)
{
  return trace_element_register (plugin, "info-sink", TRACE_RANK_NONE, TRACE_TYPE_INFO_SINK);
}

static const TracePluginDesc tools_plugin = {
  TRACE_PLUGIN_ABI_VERSION,
  "trace-info",
  "trace-info's own elements",
  register_tools_plugin,
  PACKAGE_VERSION,
  "LGPL-2.1-or-later",
  "tracepipe",
  { NULL },
};

/* info-sink lives in the tool, not in a plugin: it is trace-info's output
 * format, not something to put in other pipelines. */
gboolean
info_register_elements (GError **error)
{
  return trace_registry_register_static_plugin (&tools_plugin, error);
}
