/* tracepipe - htrace: the ftrace plugin's kernel events
 *
 * hiprofiler's ftrace plugin (hitrace's kernel side) reads the ftrace ring
 * buffers and records each event as protobuf, per cpu. Each event the
 * ftrace engine models (sched_switch, sched_wakeup/waking/wakeup_new,
 * sched_process_exit/free, task_newtask/rename, cpu_frequency, cpu_idle,
 * and print: the atrace markers) goes to that engine as a typed record
 * (htrace-records.c, ftrace-kernel-events.c), so it becomes exactly the
 * event ftrace-src makes of the same event as text. The other kinds the
 * subset declares (irq, softirq, ipi, workqueue, binder) are added from
 * their message's descriptor, as the generic event the engine keeps for
 * `name: field=value ...` with its fields as args: no code per kind, so
 * declaring a message in the .proto is all a new kind needs.
 * Kinds the subset does not declare are counted (`skipped-ftrace-other`),
 * and so are fields no kernel format prints (`skipped-ftrace-fields`:
 * fields a newer writer added, repeated or nested ones; the event is kept
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
  HtraceFtrace *f = g_new0 (HtraceFtrace, HTRACE_TRIM_TRAILING_SPACES);

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
      count = g_new0 (guint64, HTRACE_TRIM_TRAILING_SPACES);
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

/* The kernel's prev_state bits, as trace-cmd prints them and the engine
 * reads a number: bits past gint64 are no state. */
static gint64
prev_state (guint64 raw)
{
  return raw > G_MAXINT64 ? -1 : (gint64) raw;
}

static void
add_switch (HtraceRecords *t,
            TraceBatch *batch,
            const FtraceRecord *rec,
            const Htrace__SchedSwitchFormat *sw)
{
  FtraceKernelEvent e = { TRACE_EVENT_SCHED_SWITCH };

  e.u.sched_switch = (FtraceSwitch){ .prev_comm = htrace_records_name (t, 0, sw->prev_comm, HTRACE_TRIM_TRAILING_SPACES),
                                     .prev_tid = sw->prev_pid,
                                     .prev_prio = sw->prev_prio,
                                     .prev_state = prev_state (sw->prev_state),
                                     .next_comm = htrace_records_name (t, 1, sw->next_comm, HTRACE_TRIM_TRAILING_SPACES),
                                     .next_tid = sw->next_pid,
                                     .next_prio = sw->next_prio };
  ftrace_parser_add_kernel (htrace_records_get_parser (t), batch, rec, &e);
}

static void
add_wakeup (HtraceRecords *t,
            TraceBatch *batch,
            const FtraceRecord *rec,
            TraceEventKind kind,
            const Htrace__SchedWakeupFormat *w)
{
  FtraceKernelEvent e = { kind };

  e.u.wakeup = (FtraceWakeup){ .comm = htrace_records_name (t, 0, w->comm, HTRACE_TRIM_TRAILING_SPACES),
                               .tid = w->pid,
                               .prio = w->prio,
                               .target_cpu = w->target_cpu,
                               .success = w->success };
  ftrace_parser_add_kernel (htrace_records_get_parser (t), batch, rec, &e);
}

/* sched_process_exit and _free: comm, pid, prio */
static void
add_process (HtraceRecords *t,
             TraceBatch *batch,
             const FtraceRecord *rec,
             TraceEventKind kind,
             const Htrace__SchedProcessFormat *p)
{
  FtraceKernelEvent e = { kind };

  e.u.task = (FtraceTask){ .comm = htrace_records_name (t, 0, p->comm, HTRACE_TRIM_TRAILING_SPACES),
                           .tid = p->pid,
                           .prio = p->prio };
  ftrace_parser_add_kernel (htrace_records_get_parser (t), batch, rec, &e);
}

/* task_newtask and task_rename carry no prio (-1, as from text) and
 * their oom_score_adj as an arg. */
static void
add_task (HtraceRecords *t,
          TraceBatch *batch,
          const FtraceRecord *rec,
          const Htrace__FtraceEvent *ev)
{
  FtraceKernelEvent e = { TRACE_EVENT_TASK_RENAME, .u.task = { .prio = -1, .has_oom_score_adj = TRUE } };

  if (ev->event_case == HTRACE__FTRACE_EVENT__EVENT_TASK_NEWTASK_FORMAT)
    {
      const Htrace__TaskNewtaskFormat *n = ev->task_newtask_format;

      e.kind = TRACE_EVENT_TASK_NEWTASK;
      e.u.task.comm = htrace_records_name (t, 0, n->comm, HTRACE_TRIM_TRAILING_SPACES);
      e.u.task.tid = n->pid;
      e.u.task.clone_flags = (guint64) n->clone_flags;
      e.u.task.oom_score_adj = n->oom_score_adj;
    }
  else
    {
      const Htrace__TaskRenameFormat *r = ev->task_rename_format;

      e.u.task.old_comm = htrace_records_name (t, 0, r->oldcomm, HTRACE_TRIM_TRAILING_SPACES);
      e.u.task.comm = htrace_records_name (t, 1, r->newcomm, HTRACE_TRIM_TRAILING_SPACES);
      e.u.task.tid = r->pid;
      e.u.task.oom_score_adj = r->oom_score_adj;
    }
  ftrace_parser_add_kernel (htrace_records_get_parser (t), batch, rec, &e);
}

/* cpu_frequency and cpu_idle */
static void
add_cpu (HtraceRecords *t,
         TraceBatch *batch,
         const FtraceRecord *rec,
         TraceEventKind kind,
         const Htrace__CpuStateFormat *c)
{
  FtraceKernelEvent e = { kind, .u.cpu = { c->state, (gint32) c->cpu_id } };

  ftrace_parser_add_kernel (htrace_records_get_parser (t), batch, rec, &e);
}

/* The print event's buffer is the marker text with its newline. */
static void
add_print (HtraceRecords *t,
           TraceBatch *batch,
           const FtraceRecord *rec,
           const Htrace__PrintFormat *p)
{
  FtraceName buf = htrace_records_name (t, 0, p->buf, HTRACE_TRIM_NONE);

  ftrace_parser_add_print (htrace_records_get_parser (t), batch, rec, buf.str, buf.len);
}

/* Whether a field has a value a kernel format file would print: a
 * scalar or a string. */
static gboolean
is_printable (const ProtobufCFieldDescriptor *fd)
{
  if (fd->label == PROTOBUF_C_LABEL_REPEATED)
    return FALSE;
  switch (fd->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_ENUM:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_BOOL:
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_STRING:
      return TRUE;
    default: /* bytes, floats, nested messages: no kernel format field */
      return FALSE;
    }
}

/* One field as an arg: integers as INT, a uint64 past G_MAXINT64 (a
 * kernel pointer) as UINT, strings read as the engine reads a printed
 * value (@last: the event's last field, whose trailing blanks the
 * line's end drops). */
static void
add_field (HtraceRecords *t,
           TraceBatch *batch,
           TraceEvent *ev,
           const ProtobufCFieldDescriptor *fd,
           const void *member,
           gboolean last)
{
  FtraceParser *parser = htrace_records_get_parser (t);
  guint32 key;

  if (fd->type == PROTOBUF_C_TYPE_STRING)
    {
      FtraceName value = htrace_records_name (t, 0, *(const char *const *) member,
                                              last ? HTRACE_TRIM_TRAILING_BLANKS : HTRACE_TRIM_TRAILING_SPACES);

      ftrace_parser_add_field (parser, batch, ev, fd->name, strlen (fd->name), value.str, value.len);
      return;
    }
  key = ftrace_parser_intern (parser, fd->name, strlen (fd->name));
  switch (fd->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_ENUM:
      trace_batch_add_arg (batch, ev, key, TRACE_ARG_INT)->v.i = *(const gint32 *) member;
      break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
      trace_batch_add_arg (batch, ev, key, TRACE_ARG_INT)->v.i = *(const guint32 *) member;
      break;
    case PROTOBUF_C_TYPE_BOOL:
      trace_batch_add_arg (batch, ev, key, TRACE_ARG_INT)->v.i = *(const protobuf_c_boolean *) member ? 1 : 0;
      break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
      if (*(const guint64 *) member > G_MAXINT64)
        {
          trace_batch_add_arg (batch, ev, key, TRACE_ARG_UINT)->v.u = *(const guint64 *) member;
          break;
        }
      /* fall through */
    default:
      trace_batch_add_arg (batch, ev, key, TRACE_ARG_INT)->v.i = *(const gint64 *) member;
      break;
    }
}

/* An event the engine keeps generically: the oneof member's name without
 * `_format` is the event's; its message's fields, which protobuf-c's
 * descriptor lists by number, are the kernel format file's in its order
 * (OpenHarmony numbers them so). Returns the fields left out. */
static guint
add_generic (HtraceRecords *t,
             TraceBatch *batch,
             const FtraceRecord *rec,
             const Htrace__FtraceEvent *e)
{
  const ProtobufCFieldDescriptor *member =
      protobuf_c_message_descriptor_get_field (&htrace__ftrace_event__descriptor, e->event_case);
  const ProtobufCMessage *msg;
  gsize name_len;
  guint left_out, last = 0;
  TraceEvent *ev;

  if (member == NULL || member->type != PROTOBUF_C_TYPE_MESSAGE)
    return 0;
  msg = *(const ProtobufCMessage *const *) ((const char *) e + member->offset);
  if (msg == NULL)
    return 0;
  name_len = strlen (member->name);
  if (g_str_has_suffix (member->name, "_format"))
    name_len -= strlen ("_format");
  ev = ftrace_parser_add_generic (htrace_records_get_parser (t), batch, rec, &(FtraceName){ member->name, name_len, 0 });
  left_out = msg->n_unknown_fields;
  for (guint i = 0; i < msg->descriptor->n_fields; i++)
    if (is_printable (&msg->descriptor->fields[i]))
      last = i;
  for (guint i = 0; i < msg->descriptor->n_fields; i++)
    {
      const ProtobufCFieldDescriptor *fd = &msg->descriptor->fields[i];

      if (is_printable (fd))
        add_field (t, batch, ev, fd, (const char *) msg + fd->offset, i == last);
      else
        left_out++;
    }
  return left_out;
}

/* Returns the fields a generic event left out. */
static guint
add_event (HtraceRecords *t,
           TraceBatch *batch,
           const FtraceRecord *rec,
           const Htrace__FtraceEvent *e)
{
  switch (e->event_case)
    {
    case HTRACE__FTRACE_EVENT__EVENT_PRINT_FORMAT:
      add_print (t, batch, rec, e->print_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_SWITCH_FORMAT:
      add_switch (t, batch, rec, e->sched_switch_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_FORMAT:
      add_wakeup (t, batch, rec, TRACE_EVENT_SCHED_WAKEUP, e->sched_wakeup_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW_FORMAT:
      add_wakeup (t, batch, rec, TRACE_EVENT_SCHED_WAKEUP_NEW, e->sched_wakeup_new_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING_FORMAT:
      add_wakeup (t, batch, rec, TRACE_EVENT_SCHED_WAKING, e->sched_waking_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT_FORMAT:
      add_process (t, batch, rec, TRACE_EVENT_SCHED_PROCESS_EXIT, e->sched_process_exit_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_FREE_FORMAT:
      add_process (t, batch, rec, TRACE_EVENT_SCHED_PROCESS_FREE, e->sched_process_free_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_CPU_FREQUENCY_FORMAT:
      add_cpu (t, batch, rec, TRACE_EVENT_CPU_FREQUENCY, e->cpu_frequency_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_CPU_IDLE_FORMAT:
      add_cpu (t, batch, rec, TRACE_EVENT_CPU_IDLE, e->cpu_idle_format);
      break;
    case HTRACE__FTRACE_EVENT__EVENT_TASK_NEWTASK_FORMAT:
    case HTRACE__FTRACE_EVENT__EVENT_TASK_RENAME_FORMAT:
      add_task (t, batch, rec, e);
      break;
    default:
      return add_generic (t, batch, rec, e);
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
  FtraceRecord rec;
  guint left_out;

  ctx->stats->ftrace_events++;
  if (e->event_case == HTRACE__FTRACE_EVENT__EVENT__NOT_SET)
    {
      count_undeclared (f, e);
      htrace_context_skip (ctx, HTRACE_SKIP_FTRACE_OTHER, HTRACE_TRIM_TRAILING_SPACES);
      return;
    }
  if (!htrace_context_time (ctx, f->clock, e->timestamp / 1000000000, e->timestamp % 1000000000, &ts))
    return;
  if (ts < 0)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_UNKNOWN_CLOCK, HTRACE_TRIM_TRAILING_SPACES);
      return;
    }
  rec = htrace_record (e->comm, tid, e->tgid, cpu, ts);
  left_out = add_event (ctx->records, ctx->batch, &rec, e);
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
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, HTRACE_TRIM_TRAILING_SPACES);
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
