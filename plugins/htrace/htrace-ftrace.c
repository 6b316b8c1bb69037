/* tracepipe - htrace: the ftrace plugin's kernel events
 *
 * hiprofiler's ftrace plugin (hitrace's kernel side) reads the ftrace ring
 * buffers and records each event as protobuf, per cpu. Each event the
 * ftrace text engine models (sched_switch, sched_wakeup/waking/wakeup_new,
 * sched_process_exit/free, task_newtask/rename, cpu_frequency, cpu_idle,
 * and print: the atrace markers) is written as the line ftrace's text
 * output holds for it and parsed by that engine (htrace-text.c), so it
 * becomes exactly the event the text path makes. The other kinds the
 * subset declares (irq, softirq, ipi, workqueue, binder) are written from
 * their message's descriptor, `name: field=value ...`, the line the
 * engine keeps as a generic event with its fields as args: no code per
 * kind, so declaring a message in the .proto is all a new kind needs.
 * Kinds the subset does not declare are counted (`skipped-ftrace-other`),
 * and so are fields a line cannot carry (`skipped-ftrace-fields`: fields
 * a newer writer added, repeated or nested ones; the event is kept
 * without them). Times are on the ring buffer's clock,
 * which FtraceCpuStatsMsg names (`boot` unless it says otherwise).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-private.h"

struct _HtraceFtrace
{
  TraceStringPool *pool;
  TraceClockDomain clock;
  /* undeclared kinds: FtraceEvent field number → count (0: more kinds
   * than HTRACE_MAX_FTRACE_KINDS, or none found) */
  GHashTable *undeclared;
};

static const char *const plugins[] = { "ftrace-plugin", "/data/local/tmp/libftrace_plugin.z.so", NULL };

gboolean
htrace_ftrace_handles (const char *plugin)
{
  return g_strv_contains (plugins, plugin);
}

HtraceFtrace *
htrace_ftrace_new (TraceStringPool *pool)
{
  HtraceFtrace *f = g_new0 (HtraceFtrace, 1);

  f->pool = pool;
  f->clock = TRACE_CLOCK_BOOTTIME; /* hiprofiler's default trace_clock, `boot` */
  f->undeclared = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  return f;
}

void
htrace_ftrace_free (HtraceFtrace *f)
{
  g_hash_table_unref (f->undeclared);
  g_free (f);
}

/* An undeclared kind has no name in the file, only its field number in
 * FtraceEvent's oneof (the event fields proper are numbered from 100;
 * below are the timestamp, tgid, comm and common fields): counted by
 * that number, which OpenHarmony's ftrace_event.proto names. */
static void
count_undeclared (HtraceFtrace *f,
                  const Htrace__FtraceEvent *e)
{
  guint number = 0;
  guint64 *count;

  for (gsize i = 0; i < e->base.n_unknown_fields && number == 0; i++)
    if (e->base.unknown_fields[i].tag >= 100 && e->base.unknown_fields[i].wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED)
      number = e->base.unknown_fields[i].tag;
  count = g_hash_table_lookup (f->undeclared, GUINT_TO_POINTER (number));
  if (count == NULL && g_hash_table_size (f->undeclared) >= HTRACE_MAX_FTRACE_KINDS)
    count = g_hash_table_lookup (f->undeclared, GUINT_TO_POINTER (0));
  if (count == NULL)
    {
      number = g_hash_table_size (f->undeclared) >= HTRACE_MAX_FTRACE_KINDS ? 0 : number;
      count = g_new0 (guint64, 1);
      g_hash_table_insert (f->undeclared, GUINT_TO_POINTER (number), count);
    }
  (*count)++;
}

/* by number, `other` (0) last */
static gint
compare_numbers (gconstpointer a,
                 gconstpointer b)
{
  guint x = GPOINTER_TO_UINT (a) - 1, y = GPOINTER_TO_UINT (b) - 1;

  return x < y ? -1 : x > y;
}

/**
 * htrace_ftrace_undeclared_text:
 * @f: the kernel events
 *
 * Returns: (nullable): the undeclared kinds counted, by number, sorted
 *   (`FtraceEvent field 211: 20, other: 1`), or %NULL when there were none
 */
char *
htrace_ftrace_undeclared_text (HtraceFtrace *f)
{
  g_autoptr (GList) numbers = g_list_sort (g_hash_table_get_keys (f->undeclared), compare_numbers);
  GString *s;

  if (numbers == NULL)
    return NULL;
  s = g_string_new (NULL);
  for (GList *l = numbers; l; l = l->next)
    {
      guint number = GPOINTER_TO_UINT (l->data);
      guint64 n = *(guint64 *) g_hash_table_lookup (f->undeclared, l->data);

      if (number == 0)
        g_string_append_printf (s, "%sother: %" G_GUINT64_FORMAT, s->len ? ", " : "", n);
      else
        g_string_append_printf (s, "%sFtraceEvent field %u: %" G_GUINT64_FORMAT, s->len ? ", " : "", number, n);
    }
  return g_string_free (s, FALSE);
}

/* ftrace's trace_clock names; the per-cpu `local` and `global` clocks
 * are on no clock the header reads. */
static TraceClockDomain
clock_of (const char *name)
{
  if (g_strcmp0 (name, "boot") == 0)
    return TRACE_CLOCK_BOOTTIME;
  if (g_strcmp0 (name, "mono") == 0)
    return TRACE_CLOCK_MONOTONIC;
  if (g_strcmp0 (name, "mono_raw") == 0)
    return TRACE_CLOCK_MONOTONIC_RAW;
  return TRACE_CLOCK_UNKNOWN;
}

/* Names go into a line: no line ends, no NULs (protobuf strings may hold
 * either). */
static void
append_name (GString *s,
             const char *name)
{
  for (const char *p = name ? name : ""; *p; p++)
    g_string_append_c (s, *p == '\n' || *p == '\r' ? ' ' : *p);
}

static void
append_wakeup (GString *s,
               const char *event,
               const Htrace__SchedWakeupFormat *w)
{
  g_string_append_printf (s, "%s: comm=", event);
  append_name (s, w->comm);
  g_string_append_printf (s, " pid=%d prio=%d success=%d target_cpu=%03d", w->pid, w->prio, w->success,
                          w->target_cpu);
}

static void
append_switch (GString *s,
               const Htrace__SchedSwitchFormat *sw)
{
  g_string_append (s, "sched_switch: prev_comm=");
  append_name (s, sw->prev_comm);
  /* the kernel's state bits, as trace-cmd prints them: the engine reads
   * a number as bits */
  g_string_append_printf (s, " prev_pid=%d prev_prio=%d prev_state=%" G_GUINT64_FORMAT " ==> next_comm=",
                          sw->prev_pid, sw->prev_prio, sw->prev_state);
  append_name (s, sw->next_comm);
  g_string_append_printf (s, " next_pid=%d next_prio=%d", sw->next_pid, sw->next_prio);
}

static void
append_process (GString *s,
                const char *event,
                const Htrace__SchedProcessFormat *p)
{
  g_string_append_printf (s, "%s: comm=", event);
  append_name (s, p->comm);
  g_string_append_printf (s, " pid=%d prio=%d", p->pid, p->prio);
}

/* The print event's buffer is the marker text with its newline. */
static void
append_print (GString *s,
              const Htrace__PrintFormat *p)
{
  gsize start;

  g_string_append (s, "tracing_mark_write: ");
  start = s->len;
  append_name (s, p->buf);
  while (s->len > start && s->str[s->len - 1] == ' ')
    g_string_truncate (s, s->len - 1);
}

/* One scalar or string field as `name=value`, or FALSE for a type a
 * line cannot carry. Integers in decimal, as the kernel prints most of
 * them; a uint64 past G_MAXINT64 (a kernel pointer) in hex, which the
 * engine still reads as a number. */
static gboolean
append_field (GString *s,
              const ProtobufCFieldDescriptor *fd,
              const void *member)
{
  if (fd->label == PROTOBUF_C_LABEL_REPEATED)
    return FALSE;
  switch (fd->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_ENUM:
      g_string_append_printf (s, " %s=%d", fd->name, *(const gint32 *) member);
      return TRUE;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
      g_string_append_printf (s, " %s=%u", fd->name, *(const guint32 *) member);
      return TRUE;
    case PROTOBUF_C_TYPE_BOOL:
      g_string_append_printf (s, " %s=%d", fd->name, *(const protobuf_c_boolean *) member ? 1 : 0);
      return TRUE;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
      g_string_append_printf (s, " %s=%" G_GINT64_FORMAT, fd->name, *(const gint64 *) member);
      return TRUE;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
      {
        guint64 v = *(const guint64 *) member;

        g_string_append_printf (s, v > G_MAXINT64 ? " %s=0x%" G_GINT64_MODIFIER "x" : " %s=%" G_GUINT64_FORMAT,
                                fd->name, v);
        return TRUE;
      }
    case PROTOBUF_C_TYPE_STRING:
      g_string_append_printf (s, " %s=", fd->name);
      append_name (s, *(const char *const *) member);
      return TRUE;
    default: /* bytes, floats, nested messages: no kernel format field */
      return FALSE;
    }
}

/* An event the engine keeps generically: the oneof member's name without
 * `_format` is the event's; its message's fields, which protobuf-c's
 * descriptor lists by number, are the kernel format file's in its order
 * (OpenHarmony numbers them so). Returns the fields left out. */
static guint
append_generic (GString *s,
                const Htrace__FtraceEvent *e)
{
  const ProtobufCFieldDescriptor *member =
      protobuf_c_message_descriptor_get_field (&htrace__ftrace_event__descriptor, e->event_case);
  const ProtobufCMessage *msg;
  gsize name_len;
  guint left_out;

  if (member == NULL || member->type != PROTOBUF_C_TYPE_MESSAGE)
    return 0;
  msg = *(const ProtobufCMessage *const *) ((const char *) e + member->offset);
  if (msg == NULL)
    return 0;
  name_len = strlen (member->name);
  if (g_str_has_suffix (member->name, "_format"))
    name_len -= strlen ("_format");
  g_string_append_len (s, member->name, name_len);
  g_string_append_c (s, ':');
  left_out = msg->n_unknown_fields;
  for (guint i = 0; i < msg->descriptor->n_fields; i++)
    {
      const ProtobufCFieldDescriptor *fd = &msg->descriptor->fields[i];

      if (!append_field (s, fd, (const char *) msg + fd->offset))
        left_out++;
    }
  return left_out;
}

/* Returns the fields a generic event left out. */
static guint
append_event (GString *s,
              const Htrace__FtraceEvent *e)
{
  switch (e->event_case)
    {
    case HTRACE__FTRACE_EVENT__EVENT_PRINT_FORMAT:
      append_print (s, e->print_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_SWITCH_FORMAT:
      append_switch (s, e->sched_switch_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_FORMAT:
      append_wakeup (s, "sched_wakeup", e->sched_wakeup_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW_FORMAT:
      append_wakeup (s, "sched_wakeup_new", e->sched_wakeup_new_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING_FORMAT:
      append_wakeup (s, "sched_waking", e->sched_waking_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT_FORMAT:
      append_process (s, "sched_process_exit", e->sched_process_exit_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_FREE_FORMAT:
      append_process (s, "sched_process_free", e->sched_process_free_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_CPU_FREQUENCY_FORMAT:
      g_string_append_printf (s, "cpu_frequency: state=%u cpu_id=%u", e->cpu_frequency_format->state,
                              e->cpu_frequency_format->cpu_id);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_CPU_IDLE_FORMAT:
      g_string_append_printf (s, "cpu_idle: state=%u cpu_id=%u", e->cpu_idle_format->state,
                              e->cpu_idle_format->cpu_id);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_TASK_NEWTASK_FORMAT:
      g_string_append_printf (s, "task_newtask: pid=%d comm=", e->task_newtask_format->pid);
      append_name (s, e->task_newtask_format->comm);
      g_string_append_printf (s, " clone_flags=%" G_GINT64_MODIFIER "x oom_score_adj=%d",
                              e->task_newtask_format->clone_flags, e->task_newtask_format->oom_score_adj);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_TASK_RENAME_FORMAT:
      g_string_append_printf (s, "task_rename: pid=%d oldcomm=", e->task_rename_format->pid);
      append_name (s, e->task_rename_format->oldcomm);
      g_string_append (s, " newcomm=");
      append_name (s, e->task_rename_format->newcomm);
      g_string_append_printf (s, " oom_score_adj=%d", e->task_rename_format->oom_score_adj);
      break;
    default:
      return append_generic (s, e);
    }
  return 0;
}

static void
decode_event (HtraceFtrace *f,
              HtraceContext *ctx,
              guint cpu,
              const Htrace__FtraceEvent *e)
{
  gint64 ts, tid = e->common_fields ? e->common_fields->pid : 0;
  GString *line;
  guint left_out;

  ctx->stats->ftrace_events++;
  if (e->event_case == HTRACE__FTRACE_EVENT__EVENT__NOT_SET)
    {
      count_undeclared (f, e);
      htrace_context_skip (ctx, HTRACE_SKIP_FTRACE_OTHER, 1);
      return;
    }
  if (!htrace_context_time (ctx, f->clock, e->timestamp / 1000000000, e->timestamp % 1000000000, &ts))
    return;
  if (ts < 0)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_UNKNOWN_CLOCK, 1);
      return;
    }
  line = htrace_text_begin (ctx->text, e->comm, tid, e->tgid, cpu, ts);
  left_out = append_event (line, e);
  htrace_text_end (ctx->text, ctx->batch);
  if (left_out > 0)
    htrace_context_skip (ctx, HTRACE_SKIP_FTRACE_FIELD, left_out);
}

void
htrace_ftrace_decode (HtraceFtrace *f,
                      HtraceContext *ctx,
                      const ProtobufCBinaryData *data)
{
  Htrace__TracePluginResult *res = htrace__trace_plugin_result__unpack (ctx->allocator, data->len, data->data);

  if (res == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  for (gsize i = 0; i < res->n_ftrace_cpu_stats; i++)
    if (res->ftrace_cpu_stats[i]->trace_clock && *res->ftrace_cpu_stats[i]->trace_clock)
      f->clock = clock_of (res->ftrace_cpu_stats[i]->trace_clock);
  for (gsize i = 0; i < res->n_ftrace_cpu_detail; i++)
    {
      const Htrace__FtraceCpuDetailMsg *d = res->ftrace_cpu_detail[i];

      for (gsize e = 0; e < d->n_event; e++)
        decode_event (f, ctx, d->cpu, d->event[e]);
    }
}
