/* tracepipe - ftrace text engine: kernel records written as ftrace lines
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reverse of the parser: one scheduling, task, cpu or raw ftrace
 * record becomes one line in the layout ftrace text parsers read
 * (perfetto, catapult, ftrace-src itself):
 *
 *   <comm>-<tid> (<tgid>) [<cpu>] .... <sec>.<frac>: <event>: <fields>
 *
 * The comm of a thread comes from the names the caller notes and from
 * what kernel records say about threads; `<...>` when none is known.
 * Where the lines go (json-sink's systemTraceEvents) and which records
 * are written is the caller's business.
 */
#include <math.h>
#include <string.h>

#include "ftrace-text-private.h"

/* Kernel thread names remembered for the line prefix. */
#define MAX_COMMS (1u << 20)

struct _FtraceTextWriter
{
  TraceStringPool *pool;
  GHashTable *comms; /* tid → interned comm */
  guint32 key_name;  /* "name": the positional text of a raw record */
};

/**
 * ftrace_text_writer_new:
 * @pool: the pool the records' strings are in
 */
FtraceTextWriter *
ftrace_text_writer_new (TraceStringPool *pool)
{
  FtraceTextWriter *w;

  g_return_val_if_fail (pool != NULL, NULL);

  w = g_new0 (FtraceTextWriter, 1);
  w->pool = trace_string_pool_ref (pool);
  w->key_name = trace_string_pool_intern (pool, "name");
  return w;
}

void
ftrace_text_writer_free (FtraceTextWriter *w)
{
  if (w == NULL)
    return;
  g_clear_pointer (&w->comms, g_hash_table_unref);
  trace_string_pool_unref (w->pool);
  g_free (w);
}

static const char *
pool_str (FtraceTextWriter *w,
          guint32 id,
          gsize *len)
{
  *len = trace_string_pool_get_length (w->pool, id);
  return trace_string_pool_get (w->pool, id);
}

/* ------------------------------------------------------------ comms */

/**
 * ftrace_text_writer_note_thread_name:
 *
 * Remembers @name (a pool id) as the comm of @tid (a thread name event).
 */
void
ftrace_text_writer_note_thread_name (FtraceTextWriter *w,
                                     gint64 tid,
                                     guint32 name)
{
  g_return_if_fail (w != NULL);

  if (tid == TRACE_ID_UNKNOWN || name == 0)
    return;
  if (w->comms == NULL)
    w->comms = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  if (g_hash_table_size (w->comms) >= MAX_COMMS && !g_hash_table_contains (w->comms, &tid))
    return;
  g_hash_table_insert (w->comms, g_memdup2 (&tid, sizeof tid), GUINT_TO_POINTER (name));
}

/**
 * ftrace_text_writer_get_thread_name:
 *
 * Returns: the comm the task column of @tid's lines shows (a pool id),
 *   0 when none is known (`<...>`)
 */
guint32
ftrace_text_writer_get_thread_name (FtraceTextWriter *w,
                                    gint64 tid)
{
  g_return_val_if_fail (w != NULL, 0);

  return w->comms ? GPOINTER_TO_UINT (g_hash_table_lookup (w->comms, &tid)) : 0;
}

/* A comm field names a thread only when it has no name yet: these are
 * truncated kernel comms, and a thread name (or the task column a source
 * read) wins, as the parser decides (docs/ftrace.md). */
static void
note_comm_if_unnamed (FtraceTextWriter *w,
                      gint64 tid,
                      guint32 comm)
{
  if (w->comms == NULL || !g_hash_table_contains (w->comms, &tid))
    ftrace_text_writer_note_thread_name (w, tid, comm);
}

/**
 * ftrace_text_writer_learn_comms:
 *
 * Learns thread names from what a kernel record says about threads.
 */
void
ftrace_text_writer_learn_comms (FtraceTextWriter *w,
                                const TraceEvent *ev)
{
  g_return_if_fail (w != NULL);

  switch (ev->kind)
    {
    case TRACE_EVENT_SCHED_SWITCH:
      note_comm_if_unnamed (w, ev->u.sched_switch.prev_tid, ev->u.sched_switch.prev_comm);
      note_comm_if_unnamed (w, ev->u.sched_switch.next_tid, ev->u.sched_switch.next_comm);
      break;
    case TRACE_EVENT_SCHED_WAKEUP:
    case TRACE_EVENT_SCHED_WAKING:
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
      note_comm_if_unnamed (w, ev->u.wakeup.tid, ev->u.wakeup.comm);
      break;
    case TRACE_EVENT_TASK_NEWTASK:
    case TRACE_EVENT_TASK_RENAME:
      ftrace_text_writer_note_thread_name (w, ev->u.task.tid, ev->u.task.comm);
      break;
    default:
      break;
    }
}

/* ------------------------------------------------------------ numbers */

static void
append_uint (GString *line,
             guint64 v)
{
  char buf[24];
  char *p = buf + sizeof buf;

  do
    {
      *--p = '0' + v % 10;
      v /= 10;
    }
  while (v != 0);
  g_string_append_len (line, p, buf + sizeof buf - p);
}

static void
append_int (GString *line,
            gint64 v)
{
  if (v < 0)
    {
      g_string_append_c (line, '-');
      append_uint (line, 0 - (guint64) v);
    }
  else
    append_uint (line, v);
}

/* The shortest of %.15g, %.16g and %.17g that reads back to the same
 * double, integral values with ".0" (and "null" for NaN and infinity):
 * the JSON writer's numbers, which these lines always had. */
static void
append_double (GString *line,
               double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };

  if (!isfinite (v))
    {
      g_string_append_len (line, "null", 4);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buf, sizeof buf, formats[i], v);
      if (g_ascii_strtod (buf, NULL) == v)
        break;
    }
  g_string_append (line, buf);
  if (strpbrk (buf, ".eE") == NULL)
    g_string_append_len (line, ".0", 2);
}

/* What printf's "%<width>d" (@fill ' ') and "%0<width>d" (@fill '0')
 * write, without printf: g_string_append_printf() allocates a temporary
 * string per call, several per kernel record. */
static void
append_int_width (GString *line,
                  gint64 v,
                  guint width,
                  char fill)
{
  char buf[24];
  char *p = buf + sizeof buf;
  guint64 mag = v < 0 ? 0 - (guint64) v : (guint64) v;
  guint len;

  do
    {
      *--p = (char) ('0' + mag % 10);
      mag /= 10;
    }
  while (mag != 0);
  len = (guint) (buf + sizeof buf - p) + (v < 0);
  if (v < 0 && fill == '0')
    g_string_append_c (line, '-');
  for (; len < width; len++)
    g_string_append_c (line, fill);
  if (v < 0 && fill != '0')
    g_string_append_c (line, '-');
  g_string_append_len (line, p, buf + sizeof buf - p);
}

/* Seconds with 6 decimals when the time is whole µs (the usual ftrace
 * layout), 9 when it has ns (trace-cmd -t, newer perfetto text). */
static void
append_seconds (GString *line,
                gint64 ns)
{
  append_int (line, ns / 1000000000);
  g_string_append_c (line, '.');
  if (ns % 1000 == 0)
    append_int_width (line, ns / 1000 % 1000000, 6, '0');
  else
    append_int_width (line, ns % 1000000000, 9, '0');
}

/* ------------------------------------------------------------ text */

/* Characters that would break the one-line format become spaces. */
static void
append_clean (GString *line,
              const char *s,
              gsize len)
{
  gsize start = line->len;

  g_string_append_len (line, s, len);
  for (gsize i = start; i < line->len; i++)
    if (line->str[i] == '\n' || line->str[i] == '\r' || line->str[i] == '\0')
      line->str[i] = ' ';
}

static void
append_pool_string (FtraceTextWriter *w,
                    GString *line,
                    guint32 id)
{
  gsize len;
  const char *s = pool_str (w, id, &len);

  append_clean (line, s, len);
}

static void
append_comm (FtraceTextWriter *w,
             GString *line,
             gint64 tid,
             guint32 known)
{
  guint32 name = known;

  if (name == 0 && w->comms != NULL)
    name = GPOINTER_TO_UINT (g_hash_table_lookup (w->comms, &tid));
  if (name == 0)
    g_string_append (line, "<...>");
  else
    append_pool_string (w, line, name);
}

/* `<comm>-<tid> (<tgid>) [<cpu>] .... <sec>.<frac>: <event>: ` */
static void
append_prefix (FtraceTextWriter *w,
               GString *line,
               const TraceEvent *ev,
               const char *event)
{
  gint64 tid = ev->tid != TRACE_ID_UNKNOWN ? ev->tid : 0;

  g_string_truncate (line, 0);
  append_comm (w, line, tid, 0);
  g_string_append_c (line, '-');
  append_int (line, tid);
  g_string_append_c (line, ' ');
  /* The idle task has no process: a TGID column of 0 would make
   * trace_processor take it for an ordinary thread, and give it states */
  if (ev->pid != TRACE_ID_UNKNOWN && tid != 0)
    {
      g_string_append_c (line, '(');
      append_int_width (line, ev->pid, 5, ' ');
      g_string_append_c (line, ')');
    }
  else
    g_string_append (line, "(-----)");
  g_string_append (line, " [");
  append_int_width (line, ev->cpu >= 0 ? ev->cpu : 0, 3, '0');
  g_string_append (line, "] .... ");
  append_seconds (line, ev->ts);
  g_string_append (line, ": ");
  g_string_append (line, event);
  g_string_append (line, ": ");
}

/* prev_state in the 4.4 bit layout the parser reads (one table for both
 * directions, ftrace_task_states); -1 (unknown) is "?", which the parser
 * reads back as -1. Idle (D|N) is one letter, preempted a trailing '+'. */
static void
append_task_state (GString *line,
                   gint64 state)
{
  gsize start = line->len;

  if (state < 0)
    {
      g_string_append_c (line, '?');
      return;
    }
  if ((state & TRACE_TASK_STATE_IDLE) == TRACE_TASK_STATE_IDLE)
    {
      g_string_append_c (line, 'I');
      state &= ~(gint64) TRACE_TASK_STATE_IDLE;
    }
  for (guint i = 0; i < FTRACE_N_TASK_STATES; i++)
    if (ftrace_task_states[i].bit && (state & ftrace_task_states[i].bit))
      {
        if (line->len > start)
          g_string_append_c (line, '|');
        g_string_append_c (line, ftrace_task_states[i].letter);
      }
  if (line->len == start)
    g_string_append_c (line, 'R');
  if (state & TRACE_TASK_STATE_PREEMPTED)
    g_string_append_c (line, '+');
}

static void
append_arg_value (FtraceTextWriter *w,
                  GString *line,
                  TraceBatch *batch,
                  const TraceArg *arg)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  switch (arg->type)
    {
    case TRACE_ARG_INT:
      append_int (line, arg->v.i);
      break;
    case TRACE_ARG_UINT:
      append_uint (line, arg->v.u);
      break;
    case TRACE_ARG_DOUBLE:
      g_string_append (line, g_ascii_dtostr (buf, sizeof buf, arg->v.d));
      break;
    case TRACE_ARG_STRING:
      append_pool_string (w, line, arg->v.s);
      break;
    case TRACE_ARG_TEXT:
      append_clean (line, trace_batch_get_arg_string (batch, arg), arg->v.text.len);
      break;
    case TRACE_ARG_BOOL:
      g_string_append_c (line, arg->v.b ? '1' : '0');
      break;
    default:
      g_string_append_printf (line, "0x%" G_GINT64_MODIFIER "x", arg->v.u);
    }
}

static gboolean
is_string (const TraceArg *arg)
{
  return arg->type == TRACE_ARG_STRING || arg->type == TRACE_ARG_TEXT;
}

/* The event's args as " key=value" fields.  An arg "name" is the parser's
 * positional text: it is written first, without its key. */
static void
append_args (FtraceTextWriter *w,
             GString *line,
             TraceBatch *batch,
             const TraceEvent *ev,
             gboolean positional_name)
{
  const TraceArg *args = ev->n_args ? trace_batch_get_args (batch, ev) : NULL;
  guint32 name_key = positional_name ? w->key_name : 0;
  gboolean any = FALSE;

  for (guint i = 0; i < ev->n_args && positional_name; i++)
    if (args[i].key == name_key && is_string (&args[i]))
      {
        append_arg_value (w, line, batch, &args[i]);
        any = TRUE;
      }
  for (guint i = 0; i < ev->n_args; i++)
    {
      gsize len;
      const char *key;

      if (positional_name && args[i].key == name_key && is_string (&args[i]))
        continue;
      key = pool_str (w, args[i].key, &len);
      if (any)
        g_string_append_c (line, ' ');
      append_clean (line, key, len);
      g_string_append_c (line, '=');
      append_arg_value (w, line, batch, &args[i]);
      any = TRUE;
    }
}

static void
append_switch (FtraceTextWriter *w,
               GString *line,
               const TraceEvent *ev)
{
  g_string_append (line, "prev_comm=");
  append_comm (w, line, ev->u.sched_switch.prev_tid, ev->u.sched_switch.prev_comm);
  g_string_append (line, " prev_pid=");
  append_int (line, ev->u.sched_switch.prev_tid);
  g_string_append (line, " prev_prio=");
  append_int (line, ev->u.sched_switch.prev_prio);
  g_string_append (line, " prev_state=");
  append_task_state (line, ev->u.sched_switch.prev_state);
  g_string_append (line, " ==> next_comm=");
  append_comm (w, line, ev->u.sched_switch.next_tid, ev->u.sched_switch.next_comm);
  g_string_append (line, " next_pid=");
  append_int (line, ev->u.sched_switch.next_tid);
  g_string_append (line, " next_prio=");
  append_int (line, ev->u.sched_switch.next_prio);
}

static void
append_wakeup (FtraceTextWriter *w,
               GString *line,
               const TraceEvent *ev)
{
  g_string_append (line, "comm=");
  append_comm (w, line, ev->u.wakeup.tid, ev->u.wakeup.comm);
  g_string_append (line, " pid=");
  append_int (line, ev->u.wakeup.tid);
  g_string_append (line, " prio=");
  append_int (line, ev->u.wakeup.prio);
  if (ev->u.wakeup.success >= 0)
    {
      g_string_append (line, " success=");
      append_int (line, ev->u.wakeup.success);
    }
  if (ev->u.wakeup.target_cpu >= 0)
    {
      g_string_append (line, " target_cpu=");
      append_int_width (line, ev->u.wakeup.target_cpu, 3, '0');
    }
}

static void
append_task (FtraceTextWriter *w,
             GString *line,
             const TraceEvent *ev)
{
  switch (ev->kind)
    {
    case TRACE_EVENT_TASK_NEWTASK:
      g_string_append_printf (line, "pid=%d comm=", ev->u.task.tid);
      append_comm (w, line, ev->u.task.tid, ev->u.task.comm);
      g_string_append_printf (line, " clone_flags=%" G_GINT64_MODIFIER "x", ev->u.task.clone_flags);
      break;
    case TRACE_EVENT_TASK_RENAME:
      g_string_append_printf (line, "pid=%d oldcomm=", ev->u.task.tid);
      append_comm (w, line, ev->u.task.tid, ev->u.task.old_comm);
      g_string_append (line, " newcomm=");
      append_comm (w, line, ev->u.task.tid, ev->u.task.comm);
      break;
    default:
      g_string_append (line, "comm=");
      append_comm (w, line, ev->u.task.tid, ev->u.task.comm);
      g_string_append_printf (line, " pid=%d prio=%d", ev->u.task.tid, ev->u.task.prio);
    }
}

static void
append_payload (FtraceTextWriter *w,
                GString *line,
                TraceBatch *batch,
                const TraceEvent *ev)
{
  switch (ev->kind)
    {
    case TRACE_EVENT_SCHED_SWITCH:
      append_switch (w, line, ev);
      break;
    case TRACE_EVENT_SCHED_WAKEUP:
    case TRACE_EVENT_SCHED_WAKING:
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
      append_wakeup (w, line, ev);
      break;
    case TRACE_EVENT_CPU_FREQUENCY:
    case TRACE_EVENT_CPU_IDLE:
      g_string_append (line, "state=");
      append_int (line, ev->u.cpu.state);
      g_string_append (line, " cpu_id=");
      append_int (line, ev->u.cpu.cpu_id);
      break;
    case TRACE_EVENT_FTRACE:
      append_args (w, line, batch, ev, TRUE);
      return;
    default:
      append_task (w, line, ev);
    }
  if (ev->n_args > 0)
    {
      g_string_append_c (line, ' ');
      append_args (w, line, batch, ev, FALSE);
    }
}

/* ------------------------------------------------------------ records */

/**
 * ftrace_text_record_name:
 * @ev: a kernel record (TRACE_EVENT_SCHED_SWITCH … TRACE_EVENT_FTRACE)
 *
 * Returns: the ftrace event name @ev is written with (`sched_switch`,
 *   or a raw record's own name)
 */
const char *
ftrace_text_record_name (FtraceTextWriter *w,
                         const TraceEvent *ev)
{
  static const char *const names[] = {
    "sched_switch",
    "sched_wakeup",
    "sched_waking",
    "sched_wakeup_new",
    "sched_process_exit",
    "sched_process_free",
    "task_newtask",
    "task_rename",
    "cpu_frequency",
    "cpu_idle",
  };
  gsize len;

  g_return_val_if_fail (w != NULL, NULL);
  g_return_val_if_fail (ev->kind >= TRACE_EVENT_SCHED_SWITCH && ev->kind <= TRACE_EVENT_FTRACE, NULL);

  if (ev->kind == TRACE_EVENT_FTRACE)
    return pool_str (w, ev->name, &len);
  return names[ev->kind - TRACE_EVENT_SCHED_SWITCH];
}

/**
 * ftrace_text_is_marker:
 * @name: an ftrace event name
 *
 * Returns: whether @name is an atrace marker event (`tracing_mark_write`,
 *   `print`, or `0` as some kernels print it), whose text is atrace
 *   payload rather than fields
 */
gboolean
ftrace_text_is_marker (const char *name)
{
  return strcmp (name, "tracing_mark_write") == 0 || strcmp (name, "print") == 0 ||
         strcmp (name, "0") == 0;
}

/**
 * ftrace_text_write_record:
 * @line: replaced by the line, with its '\n'
 * @batch: the batch @ev is in (for its args)
 * @ev: a kernel record (TRACE_EVENT_SCHED_SWITCH … TRACE_EVENT_FTRACE)
 *
 * Formats one kernel record as one ftrace text line.
 */
void
ftrace_text_write_record (FtraceTextWriter *w,
                          GString *line,
                          TraceBatch *batch,
                          const TraceEvent *ev)
{
  g_return_if_fail (w != NULL);
  g_return_if_fail (line != NULL);

  append_prefix (w, line, ev, ftrace_text_record_name (w, ev));
  append_payload (w, line, batch, ev);
  g_string_append_c (line, '\n');
}

/**
 * ftrace_text_write_marker:
 * @line: replaced by the line, with its '\n'
 * @ev: the record the marker stands for: its task, cpu and time
 * @payload: the atrace payload (`C|237|name|0`), without '\n'
 *
 * Formats `tracing_mark_write: PAYLOAD` with the prefix of @ev, the line
 * by which trace_processor's systrace parser reads an atrace point.
 */
void
ftrace_text_write_marker (FtraceTextWriter *w,
                          GString *line,
                          const TraceEvent *ev,
                          const char *payload,
                          gsize len)
{
  g_return_if_fail (w != NULL);
  g_return_if_fail (line != NULL);

  append_prefix (w, line, ev, "tracing_mark_write");
  append_clean (line, payload, len);
  g_string_append_c (line, '\n');
}

/**
 * ftrace_text_can_write_counter:
 *
 * Returns: whether @ev (a TRACE_EVENT_COUNTER) has what an atrace counter
 *   line needs: a cpu, pid, tid, time, and no '|' in its name or category
 */
gboolean
ftrace_text_can_write_counter (FtraceTextWriter *w,
                               const TraceEvent *ev)
{
  gsize len, cat_len = 0;
  const char *name, *cat;

  g_return_val_if_fail (w != NULL, FALSE);

  if (ev->cpu < 0 || ev->pid < 0 || ev->tid < 0 || ev->ts < 0)
    return FALSE;
  name = pool_str (w, ev->name, &len);
  cat = ev->category ? pool_str (w, ev->category, &cat_len) : NULL;
  return memchr (name, '|', len) == NULL && (cat == NULL || memchr (cat, '|', cat_len) == NULL);
}

/**
 * ftrace_text_write_counter:
 * @line: replaced by the line, with its '\n'
 * @ev: a counter ftrace_text_can_write_counter() accepts
 *
 * Formats an atrace counter as its line,
 * `tracing_mark_write: C|pid|name|value[|category]`.
 */
void
ftrace_text_write_counter (FtraceTextWriter *w,
                           GString *line,
                           const TraceEvent *ev)
{
  gsize len, cat_len = 0;
  const char *name, *cat;
  TraceEvent writer;

  g_return_if_fail (w != NULL);
  g_return_if_fail (line != NULL);

  name = pool_str (w, ev->name, &len);
  cat = ev->category ? pool_str (w, ev->category, &cat_len) : NULL;
  /* the counter's pid is its process, not necessarily the writer's */
  writer = *ev;
  writer.pid = TRACE_ID_UNKNOWN;
  append_prefix (w, line, &writer, "tracing_mark_write");
  g_string_append (line, "C|");
  append_int (line, ev->pid);
  g_string_append_c (line, '|');
  append_clean (line, name, len);
  g_string_append_c (line, '|');
  if (ev->flags & TRACE_EVENT_FLAG_COUNTER_INT)
    append_int (line, (gint64) ev->u.counter.value);
  else
    append_double (line, ev->u.counter.value);
  if (cat)
    {
      g_string_append_c (line, '|');
      append_clean (line, cat, cat_len);
    }
  g_string_append_c (line, '\n');
}
