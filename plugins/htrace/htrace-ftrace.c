/* tracepipe - htrace: the ftrace plugin's kernel events
 *
 * hiprofiler's ftrace plugin (hitrace's kernel side) reads the ftrace ring
 * buffers and records each event as protobuf, per cpu. Each event the
 * ftrace text engine models (sched_switch, sched_wakeup/waking/wakeup_new,
 * sched_process_exit/free, task_newtask/rename, cpu_frequency, cpu_idle,
 * and print: the atrace markers) is written as the line ftrace's text
 * output holds for it and parsed by that engine (htrace-text.c), so it
 * becomes exactly the event the text path makes. Other events are counted
 * (`skipped-ftrace-other`). Their times are on the ring buffer's clock,
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
  return f;
}

void
htrace_ftrace_free (HtraceFtrace *f)
{
  g_free (f);
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

static void
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
    default: /* NOT_SET: counted by the caller */
      break;
    }
}

static void
decode_event (HtraceFtrace *f,
              HtraceContext *ctx,
              guint cpu,
              const Htrace__FtraceEvent *e)
{
  gint64 ts, tid = e->common_fields ? e->common_fields->pid : 0;
  GString *line;

  ctx->stats->ftrace_events++;
  if (e->event_case == HTRACE__FTRACE_EVENT__EVENT__NOT_SET)
    {
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
  append_event (line, e);
  htrace_text_end (ctx->text, ctx->batch);
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
