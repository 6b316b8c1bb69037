/* tracepipe - Perfetto reader: ftrace event bundles
 *
 * A bundle's events are replayed in time order, ties in the order
 * trace_processor gives them (compact switches, compact wakings, full
 * events). A compact switch's prev_* fields are the previous switch's
 * next_* on the cpu and a compact waking's waker is the thread running on
 * it, so the reader keeps, per cpu, the last switch it replayed.
 * Kernel events carry no process: the pid comes from what descriptors and
 * process_tree packets said of the thread. The kinds the event model has
 * go through the ftrace engine's mapping of typed kernel events
 * (plugins/ftrace-engine/ftrace-kernel-events.c), as records whose threads
 * the reader knows (FTRACE_THREADS_GIVEN), so that they are the events
 * ftrace-src and htrace-src make of the same kernel events.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"

#include <math.h>
#include <string.h>

typedef Perfetto__Protos__FtraceEventBundle__CompactSched PerfettoCompact;

static PerfettoRCpu *
cpu_state (PerfettoReader *r,
           gint32 cpu)
{
  if (cpu < 0 || (guint) cpu >= PERFETTO_READER_MAX_CPUS)
    return NULL;
  if ((guint) cpu >= r->cpus->len)
    g_array_set_size (r->cpus, (guint) cpu + 1);
  return &g_array_index (r->cpus, PerfettoRCpu, cpu);
}

/* A sched_switch tells who runs on the cpu next: the prev_* of its next
 * switch when that is compact. Only these fields: the bundle and time
 * marks of the cpu stay (a reset one gave a second data start). */
static void
note_running (PerfettoRCpu *state,
              gint64 tid,
              gint32 prio,
              guint32 comm)
{
  if (state == NULL)
    return;
  state->valid = TRUE;
  state->next_tid = tid;
  state->next_prio = prio;
  state->next_comm = comm;
}

/* The name of a kernel event: the name of its FtraceEvent field. */
static guint32
ftrace_name (PerfettoReader *r,
             guint32 field_number)
{
  gpointer id = g_hash_table_lookup (r->ftrace_names, GUINT_TO_POINTER (field_number));
  const ProtobufCFieldDescriptor *field;

  if (id != NULL)
    return GPOINTER_TO_UINT (id);
  field = protobuf_c_message_descriptor_get_field (&perfetto__protos__ftrace_event__descriptor,
                                                   field_number);
  id = GUINT_TO_POINTER (perfetto_reader_intern (r, field ? field->name : "unknown"));
  g_hash_table_insert (r->ftrace_names, GUINT_TO_POINTER (field_number), id);
  return GPOINTER_TO_UINT (id);
}

/* A clock marker a print event of @tid holds (no kernel event: the
 * reader's own). */
static TraceEvent *
clock_marker (PerfettoReader *r,
              gint64 ts,
              gint32 cpu,
              gint64 tid)
{
  TraceEvent *ev = perfetto_reader_emit (r, TRACE_EVENT_CLOCK_MARKER, ts);

  ev->cpu = cpu;
  ev->tid = tid;
  ev->pid = tid >= 0 ? perfetto_reader_pid_of (r, tid) : TRACE_ID_UNKNOWN;
  return ev;
}

static FtraceName
comm (PerfettoReader *r,
      const char *s)
{
  return (FtraceName){ NULL, 0, s ? perfetto_reader_intern (r, s) : 0 };
}

/* A kernel event of @tid on @cpu, for the ftrace engine: the reader knows
 * the threads. The engine adds one event for it, which the reader counts. */
static FtraceRecord
record (PerfettoReader *r,
        gint64 ts,
        gint32 cpu,
        gint64 tid,
        guint32 name)
{
  return (FtraceRecord){ .ts = ts,
                         .cpu = cpu,
                         .tid = tid,
                         .tgid = tid >= 0 ? perfetto_reader_pid_of (r, tid) : TRACE_ID_UNKNOWN,
                         .name = name,
                         .threads = FTRACE_THREADS_GIVEN };
}

/* A kernel event of a kind the event model has none for, named @name,
 * its fields the caller's to add as args. */
static TraceEvent *
generic_event (PerfettoReader *r,
               gint64 ts,
               gint32 cpu,
               gint64 tid,
               guint32 name)
{
  FtraceRecord rec = record (r, ts, cpu, tid, 0);
  TraceEvent *ev = ftrace_parser_add_generic (r->markers, r->batch, &rec, &(FtraceName){ NULL, 0, name });

  r->stats.events++;
  return ev;
}

/* ---- full events ---- */

static void
read_switch (PerfettoReader *r,
             const PerfettoFtraceEvent *fev,
             gint32 cpu,
             const Perfetto__Protos__SchedSwitchFtraceEvent *sw)
{
  FtraceRecord rec = record (r, (gint64) fev->timestamp, cpu, fev->pid,
                             ftrace_name (r, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH));
  FtraceKernelEvent e = { TRACE_EVENT_SCHED_SWITCH };
  FtraceSwitch *fields = &e.u.sched_switch;
  PerfettoRCpu *state = cpu_state (r, cpu);

  fields->prev_tid = sw->prev_pid;
  fields->prev_prio = sw->prev_prio;
  fields->prev_state = perfetto_task_state_from_raw (sw->prev_state, r->kernel_version);
  r->states_read = TRUE;
  fields->prev_comm = comm (r, sw->prev_comm);
  fields->next_tid = sw->next_pid;
  fields->next_prio = sw->next_prio;
  fields->next_comm = comm (r, sw->next_comm);
  ftrace_parser_add_kernel (r->markers, r->batch, &rec, &e);
  r->stats.events++;
  note_running (state, sw->next_pid, sw->next_prio, fields->next_comm.id);
}

static void
read_wakeup (PerfettoReader *r,
             const PerfettoFtraceEvent *fev,
             gint32 cpu,
             guint32 field,
             const Perfetto__Protos__SchedWakeupFtraceEvent *wk)
{
  TraceEventKind kind = field == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING ? TRACE_EVENT_SCHED_WAKING
                        : field == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW
                            ? TRACE_EVENT_SCHED_WAKEUP_NEW
                            : TRACE_EVENT_SCHED_WAKEUP;
  FtraceRecord rec = record (r, (gint64) fev->timestamp, cpu, fev->pid, ftrace_name (r, field));
  FtraceKernelEvent e = { kind };

  e.u.wakeup = (FtraceWakeup){
    .comm = comm (r, wk->comm), .tid = wk->pid, .prio = wk->prio, .target_cpu = wk->target_cpu, .success = wk->success
  };
  ftrace_parser_add_kernel (r->markers, r->batch, &rec, &e);
  r->stats.events++;
}

/* A rename without `oldcomm` is how the writer names a thread of no known
 * process (the kernel's always has one): it gives back that name.
 * Returns: whether @e was one */
static gboolean
read_processless_thread_name (PerfettoReader *r,
                              const PerfettoFtraceEvent *fev,
                              const Perfetto__Protos__TaskRenameFtraceEvent *e)
{
  TraceEvent *ev;

  if (e->oldcomm != NULL || e->newcomm == NULL || !e->has_pid || e->pid != (gint32) fev->pid)
    return FALSE;
  ev = perfetto_reader_emit (r, TRACE_EVENT_THREAD_NAME, (gint64) fev->timestamp);
  ev->tid = e->pid;
  ev->name = perfetto_reader_intern (r, e->newcomm);
  return TRUE;
}

/* The fields of a task event (@kind) as the engine takes them; prio
 * only for the process events, oom_score_adj when the record has it. */
static FtraceTask
task_fields (PerfettoReader *r,
             TraceEventKind kind,
             const ProtobufCMessage *msg)
{
  if (kind == TRACE_EVENT_SCHED_PROCESS_EXIT)
    {
      const Perfetto__Protos__SchedProcessExitFtraceEvent *e = (gconstpointer) msg;

      return (FtraceTask){ .tid = e->pid, .prio = e->prio, .comm = comm (r, e->comm) };
    }
  if (kind == TRACE_EVENT_SCHED_PROCESS_FREE)
    {
      const Perfetto__Protos__SchedProcessFreeFtraceEvent *e = (gconstpointer) msg;

      return (FtraceTask){ .tid = e->pid, .prio = e->prio, .comm = comm (r, e->comm) };
    }
  if (kind == TRACE_EVENT_TASK_NEWTASK)
    {
      const Perfetto__Protos__TaskNewtaskFtraceEvent *e = (gconstpointer) msg;

      return (FtraceTask){ .tid = e->pid,
                           .comm = comm (r, e->comm),
                           .clone_flags = e->clone_flags,
                           .has_oom_score_adj = e->has_oom_score_adj,
                           .oom_score_adj = e->oom_score_adj };
    }
  {
    const Perfetto__Protos__TaskRenameFtraceEvent *e = (gconstpointer) msg;
    FtraceTask t = { .tid = e->pid, .comm = comm (r, e->newcomm) };

    t.old_comm = comm (r, e->oldcomm);
    t.has_oom_score_adj = e->has_oom_score_adj;
    t.oom_score_adj = e->oom_score_adj;
    return t;
  }
}

static void
read_task (PerfettoReader *r,
           const PerfettoFtraceEvent *fev,
           gint32 cpu,
           guint32 field,
           const ProtobufCMessage *msg)
{
  FtraceKernelEvent e;
  FtraceRecord rec;

  switch (field)
    {
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT:
      e.kind = TRACE_EVENT_SCHED_PROCESS_EXIT;
      break;
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_FREE:
      e.kind = TRACE_EVENT_SCHED_PROCESS_FREE;
      break;
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_NEWTASK:
      e.kind = TRACE_EVENT_TASK_NEWTASK;
      break;
    default:
      if (read_processless_thread_name (r, fev, (gconstpointer) msg))
        return;
      e.kind = TRACE_EVENT_TASK_RENAME;
      break;
    }
  rec = record (r, (gint64) fev->timestamp, cpu, fev->pid, ftrace_name (r, field));
  e.u.task = task_fields (r, e.kind, msg);
  ftrace_parser_add_kernel (r->markers, r->batch, &rec, &e);
  r->stats.events++;
}

/* `trace_event_clock_sync: ...` prints are clock markers (as written from
 * atrace text); anything else is a print event, as is a realtime_ts whose
 * ms do not fit in ns (as ftrace-src reads the same line).
 * Returns: whether @buf was a marker */
static gboolean
read_clock_sync (PerfettoReader *r,
                 const PerfettoFtraceEvent *fev,
                 gint32 cpu,
                 const char *buf)
{
  const char *s;
  TraceEvent *ev;
  gint64 ms = 0;

  if (buf == NULL || !g_str_has_prefix (buf, PERFETTO_CLOCK_SYNC_PREFIX))
    return FALSE;
  s = buf + strlen (PERFETTO_CLOCK_SYNC_PREFIX);
  if (!g_str_has_prefix (s, "parent_ts=") && !g_str_has_prefix (s, "realtime_ts=") && !g_str_has_prefix (s, "name="))
    return FALSE;
  if (g_str_has_prefix (s, "realtime_ts="))
    {
      ms = g_ascii_strtoll (s + 12, NULL, 10);
      if (ms < G_MININT64 / 1000000 || ms > G_MAXINT64 / 1000000)
        return FALSE;
    }
  ev = clock_marker (r, (gint64) fev->timestamp, cpu, fev->pid);
  if (g_str_has_prefix (s, "parent_ts="))
    {
      ev->u.clock.marker = TRACE_CLOCK_MARKER_PARENT_TS;
      ev->u.clock.domain = TRACE_CLOCK_MONOTONIC;
      ev->u.clock.other_ts = llround (g_ascii_strtod (s + 10, NULL) * 1e9);
    }
  else if (g_str_has_prefix (s, "realtime_ts="))
    {
      ev->u.clock.marker = TRACE_CLOCK_MARKER_REALTIME_TS;
      ev->u.clock.domain = TRACE_CLOCK_REALTIME;
      ev->u.clock.other_ts = ms * 1000000;
    }
  else
    {
      ev->u.clock.marker = TRACE_CLOCK_MARKER_SYNC_ID;
      ev->u.clock.domain = TRACE_CLOCK_UNKNOWN;
      ev->u.clock.sync_id = perfetto_reader_intern (r, s + 5);
    }
  return TRUE;
}

/* A print event: a clock-sync marker, an atrace marker (read by the
 * ftrace engine as ftrace-src reads the same text, so an Android system
 * trace gives the same slices, counters and async events as its systrace
 * would), or else a print kept as it is.
 * Returns: whether @buf was read as a marker */
static gboolean
read_print (PerfettoReader *r,
            const PerfettoFtraceEvent *fev,
            gint32 cpu,
            const char *buf)
{
  FtraceRecord rec = record (r, (gint64) fev->timestamp, cpu, fev->pid, 0);
  guint before = r->batch->n_events;

  if (buf == NULL)
    return FALSE;
  if (read_clock_sync (r, fev, cpu, buf))
    return TRUE;
  if (!ftrace_parser_add_print (r->markers, r->batch, &rec, buf, strlen (buf)))
    return FALSE;
  r->stats.atrace_markers++;
  r->stats.events += r->batch->n_events - before;
  return TRUE;
}

/* Typed events the event model has no kind for: name and args, the args
 * keyed as ftrace prints them. */
static void
read_mapped (PerfettoReader *r,
             PerfettoSeq *seq,
             const PerfettoFtraceEvent *fev,
             gint32 cpu,
             const PerfettoFtraceEventMap *map,
             const ProtobufCMessage *msg)
{
  TraceEvent *ev;

  if (map->event_field == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT &&
      read_print (r, fev, cpu, ((const Perfetto__Protos__PrintFtraceEvent *) msg)->buf))
    return;
  ev = generic_event (r, (gint64) fev->timestamp, cpu, fev->pid, perfetto_reader_intern (r, map->name));
  for (guint i = 0; i < map->n_fields; i++)
    {
      guint32 key = perfetto_reader_intern (r, map->fields[i].key);
      const char *s;
      gint64 v;

      if (map->fields[i].kind == PERFETTO_FTRACE_STRING)
        {
          if ((s = perfetto_message_get_string (msg, map->field_descs[i])) != NULL)
            trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_STRING)->v.s = perfetto_reader_intern (r, s);
        }
      else if (perfetto_message_get_int (msg, map->field_descs[i], &v))
        {
          if (map->fields[i].kind == PERFETTO_FTRACE_KSYM)
            trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_STRING)->v.s =
                perfetto_reader_lookup_string (r, seq->ksyms, (guint64) v);
          else
            trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_INT)->v.i = v;
        }
    }
}

static void
read_generic (PerfettoReader *r,
              const PerfettoFtraceEvent *fev,
              gint32 cpu,
              const Perfetto__Protos__GenericFtraceEvent *g)
{
  TraceEvent *ev = generic_event (r, (gint64) fev->timestamp, cpu, fev->pid, perfetto_reader_intern (r, g->event_name));

  const PerfettoFtraceEventMap *map = perfetto_ftrace_map_by_name (g->event_name);

  /* A kind perfetto-sink writes typed or generic by the stream (typed
   * only from a Perfetto trace: interrupts) goes back generic, as read. */
  if (map != NULL && map->proto_only)
    ev->flags |= TRACE_EVENT_FLAG_GENERIC_RECORD;
  for (gsize i = 0; i < g->n_field; i++)
    {
      const Perfetto__Protos__GenericFtraceEvent__Field *f = g->field[i];
      guint32 key = perfetto_reader_intern (r, f->name);

      switch (f->value_case)
        {
        case PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE:
          trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_INT)->v.i = f->int_value;
          break;
        case PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE:
          trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_UINT)->v.u = f->uint_value;
          break;
        case PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE:
          trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_STRING)->v.s = perfetto_reader_intern (r, f->str_value);
          break;
        default:
          break;
        }
    }
}

/* An event of a kind tracepipe's .proto subset does not declare: its
 * payload is one unknown length-delimited field of FtraceEvent. It goes on
 * as a FTRACE event named after the field number, the field number and
 * the payload (base64) as args, so that perfetto-sink writes it back
 * byte for byte and trace_processor reads from our output what it read
 * from the original (docs/perfetto.md, "Events carried as opaque bytes"). */
static gboolean
read_opaque (PerfettoReader *r,
             const PerfettoFtraceEvent *fev,
             gint32 cpu)
{
  const ProtobufCMessageUnknownField *payload = NULL;
  g_autofree char *name = NULL;
  g_autofree char *raw = NULL;
  TraceEvent *ev;

  for (guint i = 0; i < fev->base.n_unknown_fields && payload == NULL; i++)
    if (fev->base.unknown_fields[i].wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED)
      payload = &fev->base.unknown_fields[i];
  if (payload == NULL)
    return FALSE;
  name = g_strdup_printf (PERFETTO_OPAQUE_FTRACE_PREFIX "%u", payload->tag);
  raw = g_base64_encode (payload->data, payload->len);
  ev = generic_event (r, (gint64) fev->timestamp, cpu, fev->pid, perfetto_reader_intern (r, name));
  trace_batch_add_arg (r->batch, ev, r->k_opaque_field, TRACE_ARG_UINT)->v.u = payload->tag;
  trace_batch_add_arg (r->batch, ev, r->k_opaque_bytes, TRACE_ARG_STRING)->v.s = perfetto_reader_intern (r, raw);
  return TRUE;
}

/* The first bundle of a cpu may say from when its ring buffer holds all
 * its events; trace_processor drops the cpu's events before the latest
 * such time of all cpus, so it goes on as a record of the cpu that
 * perfetto-sink writes back into that cpu's first bundle. */
static void
read_data_start (PerfettoReader *r,
                 const PerfettoFtraceBundle *bundle,
                 gint32 cpu)
{
  PerfettoRCpu *state = cpu_state (r, cpu);
  guint64 start;

  if (state == NULL || state->bundle_seen)
    return;
  state->bundle_seen = TRUE;
  if (!bundle->has_previous_bundle_end_timestamp && !bundle->has_last_read_event_timestamp)
    return;
  start = bundle->has_previous_bundle_end_timestamp ? bundle->previous_bundle_end_timestamp
                                                    : bundle->last_read_event_timestamp;
  generic_event (r, (gint64) MIN (start, (guint64) G_MAXINT64), cpu, TRACE_ID_UNKNOWN, r->k_cpu_data_start);
}

/* ---- print events in time order ---- */

/* Print events waiting past this many are read without waiting longer. */
#define PERFETTO_MAX_PENDING_PRINTS 65536u

typedef struct
{
  gint64 ts;
  guint64 order;
  gint32 cpu;
  gsize len;
  guint8 bytes[];
} PerfettoPendingPrint;

/* atrace markers pair by time: an `E|pid` closes the slice its thread
 * began last, whichever cpu each was written on. Each cpu's bundles are
 * in time order, but the bundles of the cpus come in turn (a cpu's first
 * bundle may come late in the file), so a thread that moved to another
 * cpu may have its end in a bundle that comes before its begin's.
 * trace_processor sorts all events by time first; the reader holds print
 * events back until the bundles of every cpu with events went past their
 * time (those seen so far, and those whose bundles come in the next
 * records: perfetto_reader_expect_cpus()), up to
 * %PERFETTO_MAX_PENDING_PRINTS, and reads them in time order
 * (perfetto_reader_release_prints()); so they stay among the TrackEvents
 * of their time. Clock-sync prints are read at once: clock-sync wants
 * them first. */
static void
defer_print (PerfettoReader *r,
             gint32 cpu,
             const PerfettoFtraceEvent *fev)
{
  gsize len = protobuf_c_message_get_packed_size (&fev->base);
  PerfettoPendingPrint *p = g_malloc (sizeof *p + len);

  p->ts = (gint64) fev->timestamp;
  p->order = r->prints_seen++;
  p->cpu = cpu;
  p->len = protobuf_c_message_pack (&fev->base, p->bytes);
  g_ptr_array_add (r->prints, p);
}

static gint
compare_prints (gconstpointer a,
                gconstpointer b)
{
  const PerfettoPendingPrint *x = *(PerfettoPendingPrint *const *) a;
  const PerfettoPendingPrint *y = *(PerfettoPendingPrint *const *) b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static gboolean
is_clock_sync_print (const ProtobufCMessage *msg)
{
  const char *buf = msg ? ((const Perfetto__Protos__PrintFtraceEvent *) msg)->buf : NULL;

  return buf != NULL && g_str_has_prefix (buf, PERFETTO_CLOCK_SYNC_PREFIX);
}

static void read_full (PerfettoReader *r,
                       PerfettoSeq *seq,
                       gint32 cpu,
                       const PerfettoFtraceEvent *fev);

static void
note_bundle_end (PerfettoReader *r,
                 gint32 cpu,
                 gint64 last)
{
  PerfettoRCpu *state = cpu_state (r, cpu);

  if (state != NULL)
    state->last_ts = MAX (state->last_ts, MAX (last, 1));
}

/* The time up to which the bundles of every cpu that has events were
 * read: those seen, and those expected (G_MININT64 until their first). */
static gint64
prints_watermark (PerfettoReader *r)
{
  gint64 mark = G_MAXINT64;

  for (guint i = 0; i < r->cpus->len; i++)
    {
      const PerfettoRCpu *c = &g_array_index (r->cpus, PerfettoRCpu, i);

      if (c->last_ts > 0)
        mark = MIN (mark, c->last_ts);
      else if (c->expected)
        mark = G_MININT64;
    }
  return mark;
}

/**
 * perfetto_reader_release_prints:
 * @r: a #PerfettoReader
 * @upto: read the print events held back up to this time (%G_MAXINT64:
 *   all, at the end of the input)
 *
 * Reads the print events held back, in time order, up to @upto and, past
 * %PERFETTO_MAX_PENDING_PRINTS waiting, the earliest others.
 */
void
perfetto_reader_release_prints (PerfettoReader *r,
                                gint64 upto)
{
  guint n = 0;

  if (r->prints->len == 0)
    return;
  g_ptr_array_sort (r->prints, compare_prints);
  r->releasing_prints = TRUE;
  for (; n < r->prints->len; n++)
    {
      const PerfettoPendingPrint *p = g_ptr_array_index (r->prints, n);
      PerfettoFtraceEvent *fev;

      if (p->ts > upto && r->prints->len - n <= PERFETTO_MAX_PENDING_PRINTS)
        break;
      fev = perfetto__protos__ftrace_event__unpack (&r->allocator, p->len, p->bytes);
      if (fev != NULL)
        read_full (r, NULL, p->cpu, fev);
    }
  r->releasing_prints = FALSE;
  g_ptr_array_remove_range (r->prints, 0, n);
}

static void
read_full (PerfettoReader *r,
           PerfettoSeq *seq,
           gint32 cpu,
           const PerfettoFtraceEvent *fev)
{
  guint32 field;
  const ProtobufCMessage *msg = perfetto_oneof_get (&fev->base, &field);
  const PerfettoFtraceEventMap *map;

  if (field == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT && !r->releasing_prints && !is_clock_sync_print (msg))
    {
      defer_print (r, cpu, fev);
      return;
    }
  if (msg != NULL && msg->n_unknown_fields > 0)
    perfetto_reader_unread_fields (r, PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS, msg->n_unknown_fields);
  switch (field)
    {
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH:
      read_switch (r, fev, cpu, (gconstpointer) msg);
      break;
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP:
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING:
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW:
      /* The three messages share one layout. */
      read_wakeup (r, fev, cpu, field, (gconstpointer) msg);
      break;
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT:
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_FREE:
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_NEWTASK:
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME:
      read_task (r, fev, cpu, field, msg);
      break;
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY:
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_IDLE:
      {
        /* the two messages share one layout */
        const Perfetto__Protos__CpuFrequencyFtraceEvent *f = (gconstpointer) msg;
        FtraceRecord rec = record (r, (gint64) fev->timestamp, cpu, fev->pid, ftrace_name (r, field));
        FtraceKernelEvent e = { field == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_IDLE ? TRACE_EVENT_CPU_IDLE
                                                                                        : TRACE_EVENT_CPU_FREQUENCY,
                                .u.cpu = { f->state, (gint32) f->cpu_id } };

        ftrace_parser_add_kernel (r->markers, r->batch, &rec, &e);
        r->stats.events++;
      }
      break;
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GENERIC:
      read_generic (r, fev, cpu, (gconstpointer) msg);
      break;
    default:
      map = msg ? perfetto_ftrace_map_by_field (field) : NULL;
      if (map)
        read_mapped (r, seq, fev, cpu, map, msg);
      else if (msg == NULL && read_opaque (r, fev, cpu))
        perfetto_reader_skip (r, &r->stats.opaque_ftrace, 1, "ftrace event of a kind the schema does not declare (carried as opaque bytes)");
      else
        perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "ftrace event of a kind the reader does not map");
      break;
    }
}

/* ---- compact events ---- */

static void
read_compact_switch (PerfettoReader *r,
                     const PerfettoCompact *cs,
                     gsize i,
                     gint64 ts,
                     gint32 cpu)
{
  PerfettoRCpu *state = cpu_state (r, cpu);
  guint32 index = cs->switch_next_comm_index[i];
  gboolean known = state && state->valid;
  FtraceRecord rec = record (r, ts, cpu, known ? state->next_tid : TRACE_ID_UNKNOWN,
                             ftrace_name (r, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH));
  FtraceKernelEvent e = { TRACE_EVENT_SCHED_SWITCH };
  FtraceSwitch *fields = &e.u.sched_switch;

  fields->prev_tid = known ? state->next_tid : TRACE_ID_UNKNOWN;
  fields->prev_prio = known ? state->next_prio : 0;
  fields->prev_comm.id = known ? state->next_comm : 0;
  fields->prev_state = perfetto_task_state_from_raw (cs->switch_prev_state[i], r->kernel_version);
  r->states_read = TRUE;
  fields->next_tid = cs->switch_next_pid[i];
  fields->next_prio = cs->switch_next_prio[i];
  if (index < r->comm_ids->len)
    fields->next_comm.id = g_array_index (r->comm_ids, guint32, index);
  else
    perfetto_reader_skip (r, &r->stats.unknown_iid, 1, "compact sched_switch comm past the intern table");
  ftrace_parser_add_kernel (r->markers, r->batch, &rec, &e);
  r->stats.events++;
  note_running (state, (gint32) fields->next_tid, fields->next_prio, fields->next_comm.id);
}

static void
read_compact_waking (PerfettoReader *r,
                     const PerfettoCompact *cs,
                     gsize i,
                     gint64 ts,
                     gint32 cpu)
{
  PerfettoRCpu *state = cpu_state (r, cpu);
  guint32 index = cs->waking_comm_index[i];
  gint64 waker = state && state->valid ? state->next_tid : TRACE_ID_UNKNOWN;
  FtraceRecord rec = record (r, ts, cpu, waker, ftrace_name (r, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING));
  FtraceKernelEvent e = { TRACE_EVENT_SCHED_WAKING };

  e.u.wakeup.tid = cs->waking_pid[i];
  e.u.wakeup.target_cpu = cs->waking_target_cpu[i];
  e.u.wakeup.prio = cs->waking_prio[i];
  if (index < r->comm_ids->len)
    e.u.wakeup.comm.id = g_array_index (r->comm_ids, guint32, index);
  else
    perfetto_reader_skip (r, &r->stats.unknown_iid, 1, "compact sched_waking comm past the intern table");
  ftrace_parser_add_kernel (r->markers, r->batch, &rec, &e);
  r->stats.events++;
}

static gsize
compact_switch_count (const PerfettoCompact *cs)
{
  gsize n = cs->n_switch_timestamp;

  n = MIN (n, cs->n_switch_prev_state);
  n = MIN (n, cs->n_switch_next_pid);
  n = MIN (n, cs->n_switch_next_prio);
  return MIN (n, cs->n_switch_next_comm_index);
}

static gsize
compact_waking_count (const PerfettoCompact *cs)
{
  gsize n = cs->n_waking_timestamp;

  n = MIN (n, cs->n_waking_pid);
  n = MIN (n, cs->n_waking_target_cpu);
  n = MIN (n, cs->n_waking_prio);
  return MIN (n, cs->n_waking_comm_index);
}

/**
 * perfetto_reader_ftrace_bundle:
 * @r: a #PerfettoReader
 * @seq: the packet's sequence (for kernel symbols)
 * @bundle: an ftrace event bundle
 */
void
perfetto_reader_ftrace_bundle (PerfettoReader *r,
                               PerfettoSeq *seq,
                               PerfettoFtraceBundle *bundle)
{
  static const PerfettoCompact no_compact = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;
  const PerfettoCompact *cs = bundle->compact_sched ? bundle->compact_sched : &no_compact;
  gint32 cpu = bundle->has_cpu ? (gint32) bundle->cpu : TRACE_ID_UNKNOWN;
  gsize n_sw = compact_switch_count (cs), n_wk = compact_waking_count (cs);
  gsize si = 0, wi = 0, fi = 0;
  gint64 sw_ts = 0, wk_ts = 0;

  /* trace_processor drops a bundle that names no cpu, whole: its events
   * would be ours alone (and its markers slices only we show). */
  if (!bundle->has_cpu)
    {
      perfetto_reader_skip (r, &r->stats.no_cpu_events, bundle->n_event + n_sw + n_wk, "ftrace bundle without a cpu");
      return;
    }
  if (!r->cpus_expected)
    {
      r->cpus_expected = TRUE;
      perfetto_reader_expect_cpus (r);
    }
  if (n_sw != cs->n_switch_timestamp || n_wk != cs->n_waking_timestamp)
    perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "compact sched with arrays of unequal lengths");
  read_data_start (r, bundle, cpu);
  g_array_set_size (r->comm_ids, 0);
  for (gsize i = 0; i < cs->n_intern_table; i++)
    {
      guint32 id = perfetto_reader_intern (r, cs->intern_table[i]);

      g_array_append_val (r->comm_ids, id);
    }
  while (si < n_sw || wi < n_wk || fi < bundle->n_event)
    {
      /* Time of the next event of each list (deltas accumulate). */
      gint64 next_sw = si < n_sw ? sw_ts + (gint64) cs->switch_timestamp[si] : G_MAXINT64;
      gint64 next_wk = wi < n_wk ? wk_ts + (gint64) cs->waking_timestamp[wi] : G_MAXINT64;
      gint64 next_full = fi < bundle->n_event ? (gint64) bundle->event[fi]->timestamp : G_MAXINT64;

      if (si < n_sw && next_sw <= next_wk && next_sw <= next_full)
        {
          read_compact_switch (r, cs, si++, next_sw, cpu);
          sw_ts = next_sw;
        }
      else if (wi < n_wk && next_wk <= next_full)
        {
          read_compact_waking (r, cs, wi++, next_wk, cpu);
          wk_ts = next_wk;
        }
      else
        read_full (r, seq, cpu, bundle->event[fi++]);
    }
  if (n_sw + n_wk + bundle->n_event > 0)
    note_bundle_end (r, cpu, MAX (MAX (sw_ts, wk_ts), bundle->n_event ? (gint64) bundle->event[bundle->n_event - 1]->timestamp : 0));
  perfetto_reader_release_prints (r, prints_watermark (r));
}
