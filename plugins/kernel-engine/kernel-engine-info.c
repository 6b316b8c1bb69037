/* tracepipe - kernel record engine: what one event id is read as
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * At an event id's first record its format decides its kind and finds
 * the fields that kind reads (tep_find_field() once per id, never per
 * record). A typed kind whose format lacks a field it needs (a tracer's
 * event of the same name, a kernel that renamed a field; counted), or
 * has fields the kind does not read, is read as a generic event instead:
 * through its text, which ftrace-src reads into the same kind.
 */
#include <string.h>

#include "kernel-engine-private.h"

typedef struct
{
  const char *system;
  const char *name;
  KernelKind kind;
  TraceEventKind event_kind;
  /* the fields, in KernelEventInfo.f's order; `?` before a name: optional */
  const char *fields[KERNEL_MAX_FIELDS];
} KernelEventSpec;

static const KernelEventSpec specs[] = {
  { "sched", "sched_switch", KERNEL_KIND_SWITCH, TRACE_EVENT_SCHED_SWITCH, { "prev_comm", "prev_pid", "?prev_prio", "prev_state", "next_comm", "next_pid", "?next_prio" } },
  { "sched", "sched_wakeup", KERNEL_KIND_WAKEUP, TRACE_EVENT_SCHED_WAKEUP, { "?comm", "pid", "?prio", "?target_cpu", "?success" } },
  { "sched", "sched_waking", KERNEL_KIND_WAKEUP, TRACE_EVENT_SCHED_WAKING, { "?comm", "pid", "?prio", "?target_cpu", "?success" } },
  { "sched", "sched_wakeup_new", KERNEL_KIND_WAKEUP, TRACE_EVENT_SCHED_WAKEUP_NEW, { "?comm", "pid", "?prio", "?target_cpu", "?success" } },
  { "sched", "sched_process_exit", KERNEL_KIND_PROCESS, TRACE_EVENT_SCHED_PROCESS_EXIT, { "?comm", "pid", "?prio" } },
  { "sched", "sched_process_free", KERNEL_KIND_PROCESS, TRACE_EVENT_SCHED_PROCESS_FREE, { "?comm", "pid", "?prio" } },
  { "task", "task_newtask", KERNEL_KIND_NEWTASK, TRACE_EVENT_TASK_NEWTASK, { "pid", "?comm", "?clone_flags", "?oom_score_adj" } },
  { "task", "task_rename", KERNEL_KIND_RENAME, TRACE_EVENT_TASK_RENAME, { "pid", "?oldcomm", "newcomm", "?oom_score_adj" } },
  { "power", "cpu_frequency", KERNEL_KIND_CPU, TRACE_EVENT_CPU_FREQUENCY, { "state", "cpu_id" } },
  { "power", "cpu_idle", KERNEL_KIND_CPU, TRACE_EVENT_CPU_IDLE, { "state", "cpu_id" } },
  { "ftrace", "print", KERNEL_KIND_PRINT, TRACE_EVENT_FTRACE, { "buf" } },
  /* Android kernels' marker event of its own name */
  { NULL, "tracing_mark_write", KERNEL_KIND_PRINT, TRACE_EVENT_FTRACE, { "buf" } },
};

static const KernelEventSpec *
find_spec (struct tep_event *event)
{
  for (gsize i = 0; i < G_N_ELEMENTS (specs); i++)
    if (g_strcmp0 (specs[i].name, event->name) == 0 &&
        (specs[i].system == NULL || g_strcmp0 (specs[i].system, event->system) == 0))
      return &specs[i];
  return NULL;
}

/* Returns: whether every field @spec needs is in @event's format. */
static gboolean
find_fields (KernelEventInfo *info,
             const KernelEventSpec *spec)
{
  for (guint i = 0; i < KERNEL_MAX_FIELDS && spec->fields[i]; i++)
    {
      gboolean optional = spec->fields[i][0] == '?';

      info->f[i] = tep_find_field (info->event, spec->fields[i] + optional);
      if (info->f[i] == NULL && !optional)
        return FALSE;
    }
  return TRUE;
}

/* Whether the format has fields the kind does not read (a kernel's
 * sched_process_exit has group_dead): the text prints them and ftrace-src
 * keeps them as args, so such an event is read through its text. */
static gboolean
has_other_fields (const KernelEventInfo *info)
{
  for (struct tep_format_field *f = info->event->format.fields; f; f = f->next)
    {
      gboolean read = FALSE;

      for (guint i = 0; i < KERNEL_MAX_FIELDS && !read; i++)
        read = info->f[i] == f;
      if (!read)
        return TRUE;
    }
  return FALSE;
}

/**
 * kernel_event_info_new:
 * @event: an event's format
 *
 * Returns: (transfer full): what its records are read as; its kind is
 *   %KERNEL_KIND_GENERIC when @event is no typed kind, or a typed kind's
 *   format lacks a field it needs (then @incomplete, counted per record)
 */
KernelEventInfo *
kernel_event_info_new (struct tep_event *event)
{
  KernelEventInfo *info = g_new0 (KernelEventInfo, 1);
  const KernelEventSpec *spec = find_spec (event);

  info->event = event;
  info->kind = KERNEL_KIND_GENERIC;
  info->printed = kernel_printed_new (event, &info->n_printed);
  if (spec == NULL)
    return info;
  if (!find_fields (info, spec))
    {
      memset (info->f, 0, sizeof info->f);
      info->incomplete = TRUE;
      return info;
    }
  if (spec->kind != KERNEL_KIND_PRINT && has_other_fields (info))
    {
      memset (info->f, 0, sizeof info->f);
      return info;
    }
  info->kind = spec->kind;
  info->event_kind = spec->event_kind;
  if (spec->kind == KERNEL_KIND_SWITCH)
    info->states = kernel_state_map_new (event);
  return info;
}

void
kernel_event_info_free (KernelEventInfo *info)
{
  if (info == NULL) /* an id below one seen, not seen itself */
    return;
  for (guint i = 0; i < info->n_printed; i++)
    kernel_printed_clear (&info->printed[i]);
  g_free (info->printed);
  g_free (info->states);
  g_free (info);
}
