/* tracepipe - json plugin: kernel records as systemTraceEvents text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Scheduling, task and cpu records have no Chrome event form; viewers
 * (perfetto, catapult) read them from the "systemTraceEvents" string as
 * ftrace text.  Each record becomes one line in the layout of the ftrace
 * text parsers read, the reverse of ftrace-src:
 *
 *   <comm>-<tid> (<tgid>) [<cpu>] .... <sec>.<frac>: <event>: <fields>
 *
 * Lines collect in a ChromeSpill (memory, then an unlinked temporary file)
 * and are copied, escaped, into the output by the suffix.  atrace marker
 * records (tracing_mark_write, print, 0) are never written: their content
 * already is in the JSON events, and a viewer would show it twice. The
 * exception are atrace counters read from text, which are written as
 * their line instead of a JSON event (chrome_writer_kernel_counter()).
 */
#include "config.h"

#include <string.h>

#include "json-private.h"

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
append_pool_string (ChromeWriter *w,
                    guint32 id)
{
  gsize len;
  const char *s = chrome_writer_str (w, id, &len);

  append_clean (w->line, s, len);
}

void
chrome_writer_note_thread_name (ChromeWriter *w,
                                gint64 tid,
                                guint32 name)
{
  if (tid == TRACE_ID_UNKNOWN || name == 0)
    return;
  if (w->comms == NULL)
    w->comms = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  if (g_hash_table_size (w->comms) >= CHROME_WRITER_MAX_COMMS &&
      !g_hash_table_contains (w->comms, &tid))
    return;
  g_hash_table_insert (w->comms, g_memdup2 (&tid, sizeof tid), GUINT_TO_POINTER (name));
}

static void
append_comm (ChromeWriter *w,
             gint64 tid,
             guint32 known)
{
  guint32 name = known;

  if (name == 0 && w->comms != NULL)
    name = GPOINTER_TO_UINT (g_hash_table_lookup (w->comms, &tid));
  if (name == 0)
    g_string_append (w->line, "<...>");
  else
    append_pool_string (w, name);
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
  chrome_fmt_int (line, ns / 1000000000);
  g_string_append_c (line, '.');
  if (ns % 1000 == 0)
    append_int_width (line, ns / 1000 % 1000000, 6, '0');
  else
    append_int_width (line, ns % 1000000000, 9, '0');
}

static void
append_prefix (ChromeWriter *w,
               const TraceEvent *ev,
               const char *event)
{
  GString *line = w->line;
  gint64 tid = ev->tid != TRACE_ID_UNKNOWN ? ev->tid : 0;

  g_string_truncate (line, 0);
  append_comm (w, tid, 0);
  g_string_append_c (line, '-');
  chrome_fmt_int (line, tid);
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

/* prev_state (TraceTaskState bits, the 4.4 layout ftrace-src uses); -1
 * (unknown) is "?", which ftrace-src reads back as -1. */
static void
append_task_state (GString *line,
                   gint64 state)
{
  static const struct
  {
    gint64 bit;
    char letter;
  } letters[] = {
    { TRACE_TASK_STATE_INTERRUPTIBLE, 'S' },
    { TRACE_TASK_STATE_UNINTERRUPTIBLE, 'D' },
    { TRACE_TASK_STATE_STOPPED, 'T' },
    { TRACE_TASK_STATE_TRACED, 't' },
    { TRACE_TASK_STATE_EXIT_DEAD, 'X' },
    { TRACE_TASK_STATE_EXIT_ZOMBIE, 'Z' },
    { TRACE_TASK_STATE_DEAD, 'x' },
    { TRACE_TASK_STATE_WAKEKILL, 'K' },
    { TRACE_TASK_STATE_WAKING, 'W' },
    { TRACE_TASK_STATE_PARKED, 'P' },
    { TRACE_TASK_STATE_NOLOAD, 'N' },
  };
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
  for (guint i = 0; i < G_N_ELEMENTS (letters); i++)
    if (state & letters[i].bit)
      {
        if (line->len > start)
          g_string_append_c (line, '|');
        g_string_append_c (line, letters[i].letter);
      }
  if (line->len == start)
    g_string_append_c (line, 'R');
  if (state & TRACE_TASK_STATE_PREEMPTED)
    g_string_append_c (line, '+');
}

static void
append_arg_value (ChromeWriter *w,
                  const TraceArg *arg)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  switch (arg->type)
    {
    case TRACE_ARG_INT:
      chrome_fmt_int (w->line, arg->v.i);
      break;
    case TRACE_ARG_UINT:
      chrome_fmt_uint (w->line, arg->v.u);
      break;
    case TRACE_ARG_DOUBLE:
      g_string_append (w->line, g_ascii_dtostr (buf, sizeof buf, arg->v.d));
      break;
    case TRACE_ARG_STRING:
      append_pool_string (w, arg->v.s);
      break;
    case TRACE_ARG_BOOL:
      g_string_append_c (w->line, arg->v.b ? '1' : '0');
      break;
    default:
      g_string_append_printf (w->line, "0x%" G_GINT64_MODIFIER "x", arg->v.u);
    }
}

/* The event's args as " key=value" fields.  An arg "name" is ftrace-src's
 * positional text: it is written first, without its key. */
static void
append_args (ChromeWriter *w,
             TraceBatch *batch,
             const TraceEvent *ev,
             gboolean positional_name)
{
  const TraceArg *args = ev->n_args ? trace_batch_get_args (batch, ev) : NULL;
  guint32 name_key = positional_name ? w->str_name : 0;
  gboolean any = FALSE;

  for (guint i = 0; i < ev->n_args && positional_name; i++)
    if (args[i].key == name_key && args[i].type == TRACE_ARG_STRING)
      {
        append_arg_value (w, &args[i]);
        any = TRUE;
      }
  for (guint i = 0; i < ev->n_args; i++)
    {
      gsize len;
      const char *key;

      if (positional_name && args[i].key == name_key && args[i].type == TRACE_ARG_STRING)
        continue;
      key = chrome_writer_str (w, args[i].key, &len);
      if (any)
        g_string_append_c (w->line, ' ');
      append_clean (w->line, key, len);
      g_string_append_c (w->line, '=');
      append_arg_value (w, &args[i]);
      any = TRUE;
    }
}

static void
append_switch (ChromeWriter *w,
               const TraceEvent *ev)
{
  GString *line = w->line;

  g_string_append (line, "prev_comm=");
  append_comm (w, ev->u.sched_switch.prev_tid, ev->u.sched_switch.prev_comm);
  g_string_append (line, " prev_pid=");
  chrome_fmt_int (line, ev->u.sched_switch.prev_tid);
  g_string_append (line, " prev_prio=");
  chrome_fmt_int (line, ev->u.sched_switch.prev_prio);
  g_string_append (line, " prev_state=");
  append_task_state (line, ev->u.sched_switch.prev_state);
  g_string_append (line, " ==> next_comm=");
  append_comm (w, ev->u.sched_switch.next_tid, ev->u.sched_switch.next_comm);
  g_string_append (line, " next_pid=");
  chrome_fmt_int (line, ev->u.sched_switch.next_tid);
  g_string_append (line, " next_prio=");
  chrome_fmt_int (line, ev->u.sched_switch.next_prio);
}

static void
append_wakeup (ChromeWriter *w,
               const TraceEvent *ev)
{
  g_string_append (w->line, "comm=");
  append_comm (w, ev->u.wakeup.tid, ev->u.wakeup.comm);
  g_string_append (w->line, " pid=");
  chrome_fmt_int (w->line, ev->u.wakeup.tid);
  g_string_append (w->line, " prio=");
  chrome_fmt_int (w->line, ev->u.wakeup.prio);
  if (ev->u.wakeup.success >= 0)
    {
      g_string_append (w->line, " success=");
      chrome_fmt_int (w->line, ev->u.wakeup.success);
    }
  if (ev->u.wakeup.target_cpu >= 0)
    {
      g_string_append (w->line, " target_cpu=");
      append_int_width (w->line, ev->u.wakeup.target_cpu, 3, '0');
    }
}

static void
append_task (ChromeWriter *w,
             const TraceEvent *ev)
{
  GString *line = w->line;

  switch (ev->kind)
    {
    case TRACE_EVENT_TASK_NEWTASK:
      g_string_append_printf (line, "pid=%d comm=", ev->u.task.tid);
      append_comm (w, ev->u.task.tid, ev->u.task.comm);
      g_string_append_printf (line, " clone_flags=%" G_GINT64_MODIFIER "x", ev->u.task.clone_flags);
      break;
    case TRACE_EVENT_TASK_RENAME:
      g_string_append_printf (line, "pid=%d oldcomm=", ev->u.task.tid);
      append_comm (w, ev->u.task.tid, ev->u.task.old_comm);
      g_string_append (line, " newcomm=");
      append_comm (w, ev->u.task.tid, ev->u.task.comm);
      break;
    default:
      g_string_append (line, "comm=");
      append_comm (w, ev->u.task.tid, ev->u.task.comm);
      g_string_append_printf (line, " pid=%d prio=%d", ev->u.task.tid, ev->u.task.prio);
    }
}

/* A comm field names a thread only when it has no name yet: these are
 * truncated kernel comms, and a thread name (or the task column a source
 * read) wins, as ftrace-src's parser decides (docs/ftrace.md). */
static void
note_comm_if_unnamed (ChromeWriter *w,
                      gint64 tid,
                      guint32 comm)
{
  if (w->comms == NULL || !g_hash_table_contains (w->comms, &tid))
    chrome_writer_note_thread_name (w, tid, comm);
}

/* Learns thread names from what kernel records say about threads. */
static void
learn_comms (ChromeWriter *w,
             const TraceEvent *ev)
{
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
      chrome_writer_note_thread_name (w, ev->u.task.tid, ev->u.task.comm);
      break;
    default:
      break;
    }
}

static const char *
kernel_event_name (ChromeWriter *w,
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

  if (ev->kind == TRACE_EVENT_FTRACE)
    return chrome_writer_str (w, ev->name, &len);
  return names[ev->kind - TRACE_EVENT_SCHED_SWITCH];
}

static gboolean
is_marker_event (const char *name)
{
  return strcmp (name, "tracing_mark_write") == 0 || strcmp (name, "print") == 0 ||
         strcmp (name, "0") == 0;
}

static void
append_payload (ChromeWriter *w,
                TraceBatch *batch,
                const TraceEvent *ev)
{
  switch (ev->kind)
    {
    case TRACE_EVENT_SCHED_SWITCH:
      append_switch (w, ev);
      break;
    case TRACE_EVENT_SCHED_WAKEUP:
    case TRACE_EVENT_SCHED_WAKING:
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
      append_wakeup (w, ev);
      break;
    case TRACE_EVENT_CPU_FREQUENCY:
    case TRACE_EVENT_CPU_IDLE:
      g_string_append (w->line, "state=");
      chrome_fmt_int (w->line, ev->u.cpu.state);
      g_string_append (w->line, " cpu_id=");
      chrome_fmt_int (w->line, ev->u.cpu.cpu_id);
      break;
    case TRACE_EVENT_FTRACE:
      append_args (w, batch, ev, TRUE);
      return;
    default:
      append_task (w, ev);
    }
  if (ev->n_args > 0)
    {
      g_string_append_c (w->line, ' ');
      append_args (w, batch, ev, FALSE);
    }
}

static gboolean
ensure_kernel_text (ChromeWriter *w,
                    GError **error)
{
  static const char header[] = "# tracer: nop\n";

  if (w->kernel != NULL)
    return TRUE;
  w->kernel = chrome_spill_new (w->opts.system_trace_memory);
  w->line = g_string_sized_new (256);
  return chrome_spill_write (w->kernel, header, sizeof header - 1, error);
}

/**
 * chrome_writer_kernel_event:
 *
 * Adds one kernel record to the systemTraceEvents text.
 */
gboolean
chrome_writer_kernel_event (ChromeWriter *w,
                            TraceBatch *batch,
                            const TraceEvent *ev,
                            GError **error)
{
  const char *event = kernel_event_name (w, ev);

  learn_comms (w, ev);
  if (w->opts.form == CHROME_FORM_ARRAY || ev->ts < 0)
    {
      w->stats.dropped_kernel++;
      return TRUE;
    }
  if (ev->kind == TRACE_EVENT_FTRACE && is_marker_event (event))
    {
      w->stats.dropped_markers++;
      return TRUE;
    }
  if (!ensure_kernel_text (w, error))
    return FALSE;
  append_prefix (w, ev, event);
  append_payload (w, batch, ev);
  g_string_append_c (w->line, '\n');
  w->stats.kernel_lines++;
  return chrome_spill_write (w->kernel, w->line->str, w->line->len, error);
}

/**
 * chrome_writer_kernel_counter:
 * @written: (out): whether @ev went into the kernel text
 *
 * An atrace counter read from a text line (it has a cpu) goes back as
 * that line, `tracing_mark_write: C|pid|name|value[|category]`:
 * trace_processor names the track of a JSON `C` event "NAME KEY" but of
 * an atrace counter "NAME", and it rejects a decimal atrace value from
 * our output as it did from the original. Others are JSON `C` events.
 */
gboolean
chrome_writer_kernel_counter (ChromeWriter *w,
                              const TraceEvent *ev,
                              gboolean *written,
                              GError **error)
{
  gsize len, cat_len = 0;
  const char *name = chrome_writer_str (w, ev->name, &len);
  const char *cat = ev->category ? chrome_writer_str (w, ev->category, &cat_len) : NULL;
  TraceEvent writer;

  *written = FALSE;
  if (w->opts.form == CHROME_FORM_ARRAY || ev->cpu < 0 || ev->pid < 0 || ev->tid < 0 || ev->ts < 0 ||
      memchr (name, '|', len) != NULL || (cat && memchr (cat, '|', cat_len) != NULL))
    return TRUE;
  if (!ensure_kernel_text (w, error))
    return FALSE;
  learn_comms (w, ev);
  /* the counter's pid is its process, not necessarily the writer's */
  writer = *ev;
  writer.pid = TRACE_ID_UNKNOWN;
  append_prefix (w, &writer, "tracing_mark_write");
  g_string_append (w->line, "C|");
  chrome_fmt_int (w->line, ev->pid);
  g_string_append_c (w->line, '|');
  append_clean (w->line, name, len);
  g_string_append_c (w->line, '|');
  if (ev->flags & TRACE_EVENT_FLAG_COUNTER_INT)
    chrome_fmt_int (w->line, (gint64) ev->u.counter.value);
  else
    chrome_fmt_double (w->line, ev->u.counter.value);
  if (cat)
    {
      g_string_append_c (w->line, '|');
      append_clean (w->line, cat, cat_len);
    }
  g_string_append_c (w->line, '\n');
  w->stats.kernel_lines++;
  *written = TRUE;
  return chrome_spill_write (w->kernel, w->line->str, w->line->len, error);
}

/* The length of @p's prefix that ends on a whole UTF-8 character, so a
 * character split between two reads is escaped whole. */
static gsize
complete_utf8_prefix (const char *p,
                      gsize len)
{
  for (gsize back = 1; back <= 3 && back <= len; back++)
    {
      guchar c = p[len - back];

      if (c < 0x80)
        return len;
      if (c >= 0xC0)
        return (gsize) g_utf8_skip[c] > back ? len - back : len;
    }
  return len;
}

/**
 * chrome_writer_kernel_suffix:
 *
 * Writes `,"systemTraceEvents":"…"` with the collected text.
 */
gboolean
chrome_writer_kernel_suffix (ChromeWriter *w,
                             GError **error)
{
  g_autoptr (GInputStream) in = NULL;
  char chunk[64 * 1024];
  gsize carry = 0;

  if (w->kernel == NULL)
    return TRUE;
  in = chrome_spill_read (w->kernel, error);
  if (in == NULL)
    return FALSE;
  g_string_append (w->buf, ",\n\"systemTraceEvents\":\"");
  for (;;)
    {
      gssize n = g_input_stream_read (in, chunk + carry, sizeof chunk - carry, NULL, error);
      gsize avail, whole;

      if (n < 0)
        return FALSE;
      avail = carry + n;
      whole = n == 0 ? avail : complete_utf8_prefix (chunk, avail);
      chrome_fmt_string_body (w->buf, chunk, whole);
      carry = avail - whole;
      memmove (chunk, chunk + whole, carry);
      if (n == 0)
        break;
      if (w->buf->len >= CHROME_WRITER_FLUSH_SIZE && !chrome_writer_flush (w, error))
        return FALSE;
    }
  g_string_append_c (w->buf, '"');
  return TRUE;
}

void
chrome_writer_kernel_free (ChromeWriter *w)
{
  g_clear_pointer (&w->kernel, chrome_spill_free);
  g_clear_pointer (&w->comms, g_hash_table_unref);
  if (w->line)
    g_string_free (w->line, TRUE);
  w->line = NULL;
}
