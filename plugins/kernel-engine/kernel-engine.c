/* tracepipe - kernel record engine: one libtraceevent record as events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each record goes to the ftrace text engine as a LEARN record: its
 * thread is common_pid, its name the saved cmdline libtraceevent keeps
 * for that pid (`<...>` when none, `<idle>` for 0: what the kernel's text
 * prints), so the parser's thread table, markers and problems behave as
 * for the kernel's text of the same buffer. The record's time is the
 * ring buffer's, in nanoseconds where the text rounds to microseconds.
 */
#include <string.h>
#include <trace-seq.h>

#include "kernel-engine-private.h"

struct _KernelEngine
{
  struct tep_handle *tep;
  FtraceParser *parser;
  /* event id -> KernelEventInfo, filled at each id's first record
   * (common_type is 16 bits: the array stays small) */
  GPtrArray *infos;
  struct trace_seq seq; /* a generic event's text, reused */
  KernelEngineStats stats;
};

/**
 * kernel_engine_new:
 * @tep: the event formats the records are of (the caller's; it outlives
 *   the engine)
 * @parser: the parser the events go through (the caller's)
 *
 * Returns: (transfer full): an engine
 */
KernelEngine *
kernel_engine_new (struct tep_handle *tep,
                   FtraceParser *parser)
{
  KernelEngine *ke = g_new0 (KernelEngine, 1);

  ke->tep = tep;
  ke->parser = parser;
  ke->infos = g_ptr_array_new_with_free_func ((GDestroyNotify) kernel_event_info_free);
  trace_seq_init (&ke->seq);
  return ke;
}

void
kernel_engine_free (KernelEngine *ke)
{
  g_ptr_array_unref (ke->infos);
  trace_seq_destroy (&ke->seq);
  g_free (ke);
}

struct tep_handle *
kernel_engine_get_tep (KernelEngine *ke)
{
  return ke->tep;
}

FtraceParser *
kernel_engine_get_parser (KernelEngine *ke)
{
  return ke->parser;
}

const KernelEngineStats *
kernel_engine_get_stats (KernelEngine *ke)
{
  return &ke->stats;
}

/* The info of @id, looked up at its first record; NULL when the formats
 * have no such event. */
static KernelEventInfo *
lookup_info (KernelEngine *ke,
             gint id)
{
  struct tep_event *event;

  if (id < 0 || id > G_MAXUINT16)
    return NULL;
  if ((guint) id < ke->infos->len && ke->infos->pdata[id])
    return ke->infos->pdata[id];
  event = tep_find_event (ke->tep, id);
  if (event == NULL)
    return NULL;
  if ((guint) id >= ke->infos->len)
    g_ptr_array_set_size (ke->infos, id + 1);
  ke->infos->pdata[id] = kernel_event_info_new (event);
  return ke->infos->pdata[id];
}

static FtraceName
string_or_empty (const KernelData *d,
                 const struct tep_format_field *f)
{
  FtraceName n;

  return kernel_field_string (d, f, &n, NULL) ? n : (FtraceName){ "", 0, 0 };
}

static void
read_switch (const KernelEventInfo *info,
             const KernelData *d,
             FtraceKernelEvent *e)
{
  gint64 raw;

  e->u.sched_switch = (FtraceSwitch){ .prev_comm = string_or_empty (d, info->f[0]),
                                      .prev_tid = kernel_field_int_or (d, info->f[1], -1),
                                      .prev_prio = kernel_field_int_or (d, info->f[2], -1),
                                      .prev_state = kernel_field_int (d, info->f[3], &raw) ? kernel_state_map_read (info->states, raw) : -1,
                                      .next_comm = string_or_empty (d, info->f[4]),
                                      .next_tid = kernel_field_int_or (d, info->f[5], -1),
                                      .next_prio = kernel_field_int_or (d, info->f[6], -1) };
}

/* The fields of a typed kind, read as ftrace-kernel.c reads them from
 * text: a field the format lacks is -1 (a name "", none). */
static void
read_typed (const KernelEventInfo *info,
            const KernelData *d,
            FtraceKernelEvent *e)
{
  e->kind = info->event_kind;
  switch (info->kind)
    {
    case KERNEL_KIND_SWITCH:
      read_switch (info, d, e);
      break;
    case KERNEL_KIND_WAKEUP:
      e->u.wakeup = (FtraceWakeup){ .comm = string_or_empty (d, info->f[0]),
                                    .tid = kernel_field_int_or (d, info->f[1], -1),
                                    .prio = kernel_field_int_or (d, info->f[2], -1),
                                    .target_cpu = kernel_field_int_or (d, info->f[3], -1),
                                    .success = kernel_field_int_or (d, info->f[4], -1) };
      break;
    case KERNEL_KIND_PROCESS:
      e->u.task = (FtraceTask){ .comm = string_or_empty (d, info->f[0]),
                                .tid = kernel_field_int_or (d, info->f[1], -1),
                                .prio = kernel_field_int_or (d, info->f[2], -1) };
      break;
    case KERNEL_KIND_NEWTASK:
    case KERNEL_KIND_RENAME:
      e->u.task = (FtraceTask){ .tid = kernel_field_int_or (d, info->f[0], -1),
                                .prio = -1,
                                .has_oom_score_adj = info->f[3] != NULL,
                                .oom_score_adj = kernel_field_int_or (d, info->f[3], -1) };
      if (info->kind == KERNEL_KIND_NEWTASK)
        {
          e->u.task.comm = string_or_empty (d, info->f[1]);
          e->u.task.clone_flags = kernel_field_int_or (d, info->f[2], 0);
        }
      else
        {
          e->u.task.old_comm = info->f[1] ? string_or_empty (d, info->f[1]) : (FtraceName){ 0 };
          e->u.task.comm = string_or_empty (d, info->f[2]);
        }
      break;
    case KERNEL_KIND_CPU:
      e->u.cpu = (FtraceCpu){ .state = kernel_field_int_or (d, info->f[0], -1),
                              .cpu_id = kernel_field_int_or (d, info->f[1], -1) };
      break;
    default:
      g_assert_not_reached ();
    }
}

/* An event the model has no kind for: the fields its text prints, under
 * the text's keys (kernel-engine-printed.c), or its text as the kernel
 * prints it (libtraceevent runs the event's print format), read as
 * ftrace-src reads that text: either way its args are the text's; an event whose format
 * libtraceevent could not parse, or a damaged record (a field past its
 * end, which libtraceevent would read), gets its fields as typed args. */
static void
add_generic (KernelEngine *ke,
             const KernelEventInfo *info,
             const KernelData *d,
             struct tep_record *record,
             const FtraceRecord *rec,
             TraceBatch *batch)
{
  const char *name = info->event->name ? info->event->name : "";
  TraceEvent *ev;

  if (info->printed && kernel_record_is_sound (d, info->event))
    {
      ev = ftrace_parser_add_generic (ke->parser, batch, rec, &(FtraceName){ name, strlen (name), 0 });
      kernel_printed_add (&ke->stats, ke->parser, batch, ev, d, info->printed, info->n_printed);
      return;
    }
  if (!(info->event->flags & TEP_EVENT_FL_FAILED) && kernel_record_is_sound (d, info->event))
    {
      trace_seq_reset (&ke->seq);
      tep_print_event (ke->tep, &ke->seq, record, "%s", TEP_PRINT_INFO);
      if (ke->seq.state == TRACE_SEQ__GOOD)
        {
          ftrace_parser_add_kernel_text (ke->parser, batch, rec, name, strlen (name), ke->seq.buffer, ke->seq.len);
          return;
        }
    }
  ev = ftrace_parser_add_generic (ke->parser, batch, rec, &(FtraceName){ name, strlen (name), 0 });
  kernel_add_fields (&ke->stats, ke->parser, batch, ev, d, info->event);
}

/**
 * kernel_engine_add_record:
 * @ke: an engine
 * @record: a record of the engine's formats
 * @cpu: the cpu whose buffer held it
 * @batch: where its events go
 *
 * Adds the events of one record (none for an event id the formats do
 * not describe: counted).
 */
void
kernel_engine_add_record (KernelEngine *ke,
                          struct tep_record *record,
                          gint32 cpu,
                          TraceBatch *batch)
{
  KernelData d = { ke->tep, record->data, record->size > 0 ? (gsize) record->size : 0 };
  KernelEventInfo *info;
  FtraceRecord rec;
  gint pid;

  ke->stats.records++;
  info = lookup_info (ke, tep_data_type (ke->tep, record));
  if (info == NULL)
    {
      ke->stats.unknown_events++;
      return;
    }
  pid = tep_data_pid (ke->tep, record);
  rec = (FtraceRecord){ .ts = (gint64) record->ts, .cpu = cpu, .tid = pid, .tgid = TRACE_ID_UNKNOWN, .threads = FTRACE_THREADS_LEARN };
  rec.comm = tep_data_comm_from_pid (ke->tep, pid);
  rec.comm_len = rec.comm ? strlen (rec.comm) : 0;
  if (info->kind == KERNEL_KIND_PRINT)
    {
      FtraceName buf = string_or_empty (&d, info->f[0]);

      ftrace_parser_add_print (ke->parser, batch, &rec, buf.str, buf.len);
    }
  else if (info->kind != KERNEL_KIND_GENERIC)
    {
      FtraceKernelEvent e = { 0 };

      read_typed (info, &d, &e);
      ftrace_parser_add_kernel (ke->parser, batch, &rec, &e);
    }
  else
    {
      ke->stats.incomplete_events += info->incomplete;
      add_generic (ke, info, &d, record, &rec, batch);
    }
}

/**
 * kernel_engine_stats_to_summary:
 * @stats: an engine's counters
 *
 * Returns: (transfer full) (nullable): what the engine could not use, one
 *   line (`3 records of unknown events, ...`), %NULL when all was used
 */
char *
kernel_engine_stats_to_summary (const KernelEngineStats *stats)
{
  GString *s = g_string_new (NULL);

  if (stats->unknown_events)
    g_string_append_printf (s, "%" G_GUINT64_FORMAT " records of event ids without a format (dropped)",
                            stats->unknown_events);
  if (stats->incomplete_events)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT " scheduler/task events lacking a field (kept as generic)",
                            s->len ? ", " : "", stats->incomplete_events);
  if (stats->unread_fields)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT " fields not read (arrays, or past the record's end)",
                            s->len ? ", " : "", stats->unread_fields);
  if (stats->cut_strings)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT " strings cut at the record's end", s->len ? ", " : "",
                            stats->cut_strings);
  return s->len ? g_string_free (s, FALSE) : (g_string_free (s, TRUE), NULL);
}
