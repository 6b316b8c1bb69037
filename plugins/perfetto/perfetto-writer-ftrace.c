/* tracepipe - Perfetto writer: kernel events as ftrace event bundles
 *
 * Kernel events are collected in one bundle per cpu and written at the end
 * of each batch (or when a bundle is full), each as its typed message so
 * that trace_processor builds CPU tracks, thread states, frequencies,
 * binder and workqueue slices exactly as from a device capture. Kernel
 * events with no typed message are GenericFtraceEvents (name and fields).
 *
 * sched_switch and sched_waking go in the compact packed form when that
 * is lossless: a compact switch has no prev_* fields (the reader takes
 * the previous switch's next_* on the cpu) and a compact waking no waker
 * (the thread running on the cpu). Readers, trace_processor included,
 * replay a bundle's events by time, ties in the order compact switches,
 * compact wakings, full events; the writer keeps to forms whose replay
 * order is the order the events came in (see bundle_can_compact()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <stdlib.h>
#include <string.h>

#define PERFETTO_MAX_CPUS 4096
#define PERFETTO_BUNDLE_MAX_EVENTS 4096

/* Room for any typed ftrace message (checked against the descriptors). */
typedef union
{
  Perfetto__Protos__SchedSwitchFtraceEvent sched_switch;
  Perfetto__Protos__SchedWakeupFtraceEvent wakeup;
  Perfetto__Protos__SchedWakingFtraceEvent waking;
  Perfetto__Protos__SchedWakeupNewFtraceEvent wakeup_new;
  Perfetto__Protos__SchedProcessExitFtraceEvent exit;
  Perfetto__Protos__SchedProcessFreeFtraceEvent free;
  Perfetto__Protos__TaskNewtaskFtraceEvent newtask;
  Perfetto__Protos__TaskRenameFtraceEvent rename;
  Perfetto__Protos__CpuFrequencyFtraceEvent frequency;
  Perfetto__Protos__CpuIdleFtraceEvent idle;
  Perfetto__Protos__PrintFtraceEvent print;
  Perfetto__Protos__GenericFtraceEvent generic;
  Perfetto__Protos__BinderTransactionFtraceEvent binder;
  guint64 raw[24];
} PerfettoTyped;

typedef struct
{
  PerfettoFtraceEvent ev;
  guint32 event_field; /* the FtraceEvent oneof member set at flush */
  guint gen_first;     /* generic fields, in the bundle's gen_fields */
  guint gen_n;
  ProtobufCMessageUnknownField opaque; /* event_field 0: its payload, at
                                        * opaque.data bytes into b->opaque */
  PerfettoTyped typed;
} PerfettoSlot;

typedef struct
{
  gboolean valid;
  gint64 next_tid;
  gint32 next_prio;
  guint32 next_comm;
  gint64 max_ts;
  /* The time of the last full switch: a compact switch needs one at or
   * after the latest cpu data start, see perfetto_ftrace_prescan() */
  gint64 full_ts;
  /* Events of this cpu came out of time order once: trace_processor
   * replays by time, which could then give a compact event another
   * previous switch than the writer saw, so no more compact events. */
  gboolean unsorted;
} PerfettoCpuSched;

/* An entry of a bundle's comm table (open addressing, linear probing).
 * A GHashTable shrinks when emptied and grew back in every bundle:
 * allocations that scaled with the input. */
typedef struct
{
  guint32 comm;
  guint32 index_plus_1; /* 0: empty */
} PerfettoCommSlot;

#define PERFETTO_COMM_SLOTS_MIN 64

struct _PfBundle
{
  gint32 cpu;              /* -1: unknown */
  PerfettoVec slots;       /* PerfettoSlot */
  PerfettoVec gen_fields;  /* GenericFtraceEvent.Field */
  GArray *ksyms;           /* guint32 ids to intern when written */
  GArray *opaque;          /* guint8: payloads of opaque events */
  gboolean written;        /* a bundle of this cpu went out */
  gboolean has_data_start; /* for the cpu's first bundle */
  guint64 data_start;
  gint64 max_ts;
  gint64 last_cs_ts; /* last compact switch */
  gint64 last_cw_ts; /* last compact waking */
  gint64 last_fs_ts; /* last full switch */
  guint n_events;
  /* compact sched */
  GArray *sw_ts, *sw_state, *sw_pid, *sw_prio, *sw_comm;
  GArray *wk_ts, *wk_pid, *wk_cpu, *wk_prio, *wk_comm, *wk_flags;
  gint64 sw_prev_ts, wk_prev_ts;
  PerfettoCommSlot *comm_slots; /* string id → index in comms */
  guint comm_mask;
  GPtrArray *comms;
};

/* The cached mapping of one FTRACE event name to a typed message. */
typedef struct
{
  const PerfettoFtraceEventMap *map; /* NULL: generic */
  guint32 key_ids[PERFETTO_FTRACE_MAX_FIELDS];
  guint32 alt_ids[PERFETTO_FTRACE_MAX_FIELDS];
} PerfettoMapCache;

/* ---- bundles ---- */

static void
bundle_reset (PerfettoBundle *b)
{
  b->slots.len = b->gen_fields.len = 0;
  g_array_set_size (b->ksyms, 0);
  g_array_set_size (b->opaque, 0);
  b->max_ts = b->last_cs_ts = b->last_cw_ts = b->last_fs_ts = G_MININT64;
  b->n_events = 0;
  b->sw_prev_ts = b->wk_prev_ts = 0;
  g_array_set_size (b->sw_ts, 0);
  g_array_set_size (b->sw_state, 0);
  g_array_set_size (b->sw_pid, 0);
  g_array_set_size (b->sw_prio, 0);
  g_array_set_size (b->sw_comm, 0);
  g_array_set_size (b->wk_ts, 0);
  g_array_set_size (b->wk_pid, 0);
  g_array_set_size (b->wk_cpu, 0);
  g_array_set_size (b->wk_prio, 0);
  g_array_set_size (b->wk_comm, 0);
  g_array_set_size (b->wk_flags, 0);
  if (b->comms->len > 0)
    memset (b->comm_slots, 0, (b->comm_mask + 1) * sizeof (PerfettoCommSlot));
  g_ptr_array_set_size (b->comms, 0);
}

static PerfettoBundle *
bundle_new (gint32 cpu)
{
  PerfettoBundle *b = g_new0 (PerfettoBundle, 1);

  b->cpu = cpu;
  perfetto_vec_init (&b->slots, sizeof (PerfettoSlot));
  perfetto_vec_init (&b->gen_fields, sizeof (Perfetto__Protos__GenericFtraceEvent__Field));
  b->ksyms = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->opaque = g_array_new (FALSE, FALSE, 1);
#define NEW(type) g_array_new (FALSE, FALSE, sizeof (type))
  b->sw_ts = NEW (guint64);
  b->sw_state = NEW (gint64);
  b->sw_pid = NEW (gint32);
  b->sw_prio = NEW (gint32);
  b->sw_comm = NEW (guint32);
  b->wk_ts = NEW (guint64);
  b->wk_pid = NEW (gint32);
  b->wk_cpu = NEW (gint32);
  b->wk_prio = NEW (gint32);
  b->wk_comm = NEW (guint32);
  b->wk_flags = NEW (guint32);
#undef NEW
  b->comm_mask = PERFETTO_COMM_SLOTS_MIN - 1;
  b->comm_slots = g_new0 (PerfettoCommSlot, PERFETTO_COMM_SLOTS_MIN);
  b->comms = g_ptr_array_new ();
  bundle_reset (b);
  return b;
}

static void
bundle_free (gpointer data)
{
  PerfettoBundle *b = data;

  if (b == NULL)
    return;
  GArray *arrays[] = { b->ksyms, b->opaque, b->sw_ts, b->sw_state, b->sw_pid, b->sw_prio,
                       b->sw_comm, b->wk_ts, b->wk_pid, b->wk_cpu, b->wk_prio,
                       b->wk_comm, b->wk_flags };
  perfetto_vec_clear (&b->slots);
  perfetto_vec_clear (&b->gen_fields);
  for (guint i = 0; i < G_N_ELEMENTS (arrays); i++)
    g_array_unref (arrays[i]);
  g_free (b->comm_slots);
  g_ptr_array_unref (b->comms);
  g_free (b);
}

void
perfetto_ftrace_init (PerfettoWriter *w)
{
  w->bundles = g_ptr_array_new_with_free_func (bundle_free);
  w->cpu_sched = g_array_new (FALSE, TRUE, sizeof (PerfettoCpuSched));
  w->max_data_start = G_MININT64;
  w->ftrace_map_cache = g_hash_table_new_full (NULL, NULL, NULL, g_free);
}

void
perfetto_ftrace_free (PerfettoWriter *w)
{
  g_ptr_array_unref (w->bundles);
  g_array_unref (w->cpu_sched);
  g_hash_table_unref (w->ftrace_map_cache);
}

#define COMPACT(b, name, type) ((type *) (b)->name->data)

static void
bundle_attach_compact (PerfettoBundle *b,
                       Perfetto__Protos__FtraceEventBundle__CompactSched *cs)
{
  cs->n_intern_table = b->comms->len;
  cs->intern_table = (char **) b->comms->pdata;
  cs->n_switch_timestamp = cs->n_switch_prev_state = cs->n_switch_next_pid = b->sw_ts->len;
  cs->n_switch_next_prio = cs->n_switch_next_comm_index = b->sw_ts->len;
  cs->switch_timestamp = COMPACT (b, sw_ts, guint64);
  cs->switch_prev_state = COMPACT (b, sw_state, gint64);
  cs->switch_next_pid = COMPACT (b, sw_pid, gint32);
  cs->switch_next_prio = COMPACT (b, sw_prio, gint32);
  cs->switch_next_comm_index = COMPACT (b, sw_comm, guint32);
  cs->n_waking_timestamp = cs->n_waking_pid = cs->n_waking_target_cpu = b->wk_ts->len;
  cs->n_waking_prio = cs->n_waking_comm_index = cs->n_waking_common_flags = b->wk_ts->len;
  cs->waking_timestamp = COMPACT (b, wk_ts, guint64);
  cs->waking_pid = COMPACT (b, wk_pid, gint32);
  cs->waking_target_cpu = COMPACT (b, wk_cpu, gint32);
  cs->waking_prio = COMPACT (b, wk_prio, gint32);
  cs->waking_comm_index = COMPACT (b, wk_comm, guint32);
  cs->waking_common_flags = COMPACT (b, wk_flags, guint32);
}

/* Points each event at its typed message now that the slots stay put. */
static PerfettoFtraceEvent **
bundle_fix_slots (PerfettoBundle *b)
{
  Perfetto__Protos__GenericFtraceEvent__Field **fields;
  PerfettoFtraceEvent **events;

  fields = (gpointer) perfetto_vec_ptrs (&b->gen_fields);
  events = (gpointer) perfetto_vec_ptrs (&b->slots);
  for (guint i = 0; i < b->slots.len; i++)
    {
      PerfettoSlot *slot = perfetto_vec_at (&b->slots, PerfettoSlot, i);

      if (slot->event_field == 0)
        {
          /* the offset becomes a pointer now that b->opaque stays put */
          slot->opaque.data = (guint8 *) b->opaque->data + GPOINTER_TO_SIZE (slot->opaque.data);
          slot->ev.base.n_unknown_fields = 1;
          slot->ev.base.unknown_fields = &slot->opaque;
          events[i] = &slot->ev;
          continue;
        }
      perfetto_oneof_set (&slot->ev.base, slot->event_field, &slot->typed.generic.base);
      if (slot->event_field == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GENERIC)
        {
          slot->typed.generic.n_field = slot->gen_n;
          slot->typed.generic.field = fields + slot->gen_first;
        }
      events[i] = &slot->ev;
    }
  return events;
}

static void
bundle_write (PerfettoWriter *w,
              PerfettoBundle *b)
{
  PerfettoFtraceBundle bundle = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
  Perfetto__Protos__FtraceEventBundle__CompactSched cs =
      PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;

  if (b->n_events == 0)
    return;
  /* Readers learn the threads' processes before the events. */
  perfetto_tree_flush (w);
  perfetto_packet_begin (w);
  for (guint i = 0; i < b->ksyms->len; i++)
    perfetto_intern_ksym (w, g_array_index (b->ksyms, guint32, i));
  if (b->cpu >= 0)
    {
      bundle.has_cpu = TRUE;
      bundle.cpu = (guint32) b->cpu;
    }
  bundle.n_event = b->slots.len;
  bundle.event = bundle_fix_slots (b);
  if (b->sw_ts->len > 0 || b->wk_ts->len > 0)
    {
      bundle_attach_compact (b, &cs);
      bundle.compact_sched = &cs;
    }
  if (!b->written && b->has_data_start)
    {
      bundle.has_previous_bundle_end_timestamp = TRUE;
      bundle.previous_bundle_end_timestamp = b->data_start;
    }
  b->written = TRUE;
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
  w->pkt.ftrace_events = &bundle;
  perfetto_packet_emit (w, 0, FALSE, b->ksyms->len > 0);
  bundle_reset (b);
}

/**
 * perfetto_ftrace_flush:
 * @w: a #PerfettoWriter
 *
 * Writes the kernel events collected so far, one bundle per cpu.
 */
void
perfetto_ftrace_flush (PerfettoWriter *w)
{
  for (guint i = 0; i < w->bundles->len; i++)
    if (w->bundles->pdata[i])
      bundle_write (w, w->bundles->pdata[i]);
}

/* Returns: the bundle @ev goes to, written first when full or when @ev
 * comes earlier than its events */
static PerfettoBundle *
bundle_for (PerfettoWriter *w,
            const TraceEvent *ev)
{
  gint32 cpu = ev->cpu >= 0 && ev->cpu < PERFETTO_MAX_CPUS ? ev->cpu : -1;
  guint index = (guint) (cpu + 1);
  PerfettoBundle *b;

  if (index >= w->bundles->len)
    g_ptr_array_set_size (w->bundles, index + 1);
  b = w->bundles->pdata[index];
  if (b == NULL)
    b = w->bundles->pdata[index] = bundle_new (cpu);
  if (b->n_events >= PERFETTO_BUNDLE_MAX_EVENTS || ev->ts < b->max_ts)
    bundle_write (w, b);
  b->max_ts = MAX (b->max_ts, ev->ts);
  b->n_events++;
  return b;
}

/* Returns: the sched state of @cpu, or %NULL when compact events are
 * not possible on it */
static PerfettoCpuSched *
cpu_sched (PerfettoWriter *w,
           gint32 cpu)
{
  if (cpu < 0 || cpu >= PERFETTO_MAX_CPUS)
    return NULL;
  if ((guint) cpu >= w->cpu_sched->len)
    {
      guint old = w->cpu_sched->len;

      g_array_set_size (w->cpu_sched, (guint) cpu + 1);
      for (guint i = old; i < w->cpu_sched->len; i++)
        {
          g_array_index (w->cpu_sched, PerfettoCpuSched, i).max_ts = G_MININT64;
          g_array_index (w->cpu_sched, PerfettoCpuSched, i).full_ts = G_MININT64;
        }
    }
  return &g_array_index (w->cpu_sched, PerfettoCpuSched, cpu);
}

/* Notes @ts on @cpu. Returns: whether compact events stay possible */
static gboolean
cpu_sched_in_order (PerfettoCpuSched *cs,
                    gint64 ts)
{
  if (ts < cs->max_ts)
    cs->unsorted = TRUE;
  cs->max_ts = MAX (cs->max_ts, ts);
  return !cs->unsorted;
}

/* A full event in @b: its common fields and typed message to fill. */
static PerfettoSlot *
bundle_add_full (PerfettoWriter *w,
                 PerfettoBundle *b,
                 const TraceEvent *ev,
                 gint64 common_pid,
                 guint32 event_field,
                 const ProtobufCMessageDescriptor *desc)
{
  PerfettoSlot *slot = perfetto_vec_push (&b->slots);

  g_assert (desc->sizeof_message <= sizeof (PerfettoTyped));
  perfetto__protos__ftrace_event__init (&slot->ev);
  slot->ev.has_timestamp = slot->ev.has_pid = TRUE;
  slot->ev.timestamp = perfetto_timestamp (w, ev->ts);
  /* trace_processor rejects ftrace events without a pid: 0 (the idle
   * task) when the input did not tell. */
  slot->ev.pid = common_pid >= 0 ? (guint32) perfetto_id (w, common_pid) : 0;
  slot->event_field = event_field;
  protobuf_c_message_init (desc, &slot->typed);
  w->stats.ftrace_events++;
  return slot;
}

static PerfettoCommSlot *
comm_slot_find (PerfettoCommSlot *slots,
                guint mask,
                guint32 comm)
{
  guint32 h = comm * 2654435761u;
  guint i = (h ^ (h >> 16)) & mask;

  while (slots[i].index_plus_1 != 0 && slots[i].comm != comm)
    i = (i + 1) & mask;
  return &slots[i];
}

/* Doubles the table once it is half full. */
static void
comm_slots_grow (PerfettoBundle *b)
{
  guint old_size = b->comm_mask + 1;
  PerfettoCommSlot *old = b->comm_slots;

  b->comm_mask = old_size * 2 - 1;
  b->comm_slots = g_new0 (PerfettoCommSlot, old_size * 2);
  for (guint i = 0; i < old_size; i++)
    if (old[i].index_plus_1 != 0)
      *comm_slot_find (b->comm_slots, b->comm_mask, old[i].comm) = old[i];
  g_free (old);
}

static guint32
bundle_comm_index (PerfettoBundle *b,
                   PerfettoWriter *w,
                   guint32 comm)
{
  PerfettoCommSlot *slot = comm_slot_find (b->comm_slots, b->comm_mask, comm);

  if (slot->index_plus_1 == 0)
    {
      g_ptr_array_add (b->comms, (gpointer) perfetto_str (w, comm));
      slot->comm = comm;
      slot->index_plus_1 = b->comms->len;
      if (b->comms->len * 2 > b->comm_mask + 1)
        comm_slots_grow (b);
      return b->comms->len - 1;
    }
  return slot->index_plus_1 - 1;
}

static guint64
delta (gint64 *prev,
       gint64 ts)
{
  guint64 d = (guint64) (ts - *prev);

  *prev = ts;
  return d;
}

/* ---- sched ---- */

static void
write_sched_switch (PerfettoWriter *w,
                    PerfettoBundle *b,
                    const TraceEvent *ev)
{
  PerfettoCpuSched *cs = cpu_sched (w, b->cpu);
  Perfetto__Protos__SchedSwitchFtraceEvent *sw;
  gint32 prev_tid = ev->u.sched_switch.prev_tid;
  gint32 prev_prio = ev->u.sched_switch.prev_prio;
  guint32 prev_comm = ev->u.sched_switch.prev_comm;
  gint32 next_tid = ev->u.sched_switch.next_tid;
  gint32 next_prio = ev->u.sched_switch.next_prio;
  guint32 next_comm = ev->u.sched_switch.next_comm;
  gint64 prev_state = perfetto_task_state_to_raw (ev->u.sched_switch.prev_state, w->kernel_version);
  /* A cpu's first compact switch, whose previous task nobody knows:
   * compact again, trace_processor skips it as in the original and takes
   * the next task from it (also as the first switch after the cpu's data
   * start, which it would skip written compact anyway); a full switch
   * would make a sched slice and a thread of task -1. */
  gboolean unknown_prev = prev_tid == TRACE_ID_UNKNOWN && cs && !cs->valid;
  gboolean compact = w->opts.compact_sched && cs && cpu_sched_in_order (cs, ev->ts) && ev->n_args == 0 &&
                     ev->ts >= 0 && ev->ts != b->last_cw_ts && ev->ts != b->last_fs_ts &&
                     (unknown_prev || (cs->full_ts >= w->max_data_start && cs->valid && prev_tid == cs->next_tid &&
                                       prev_prio == cs->next_prio && prev_comm == cs->next_comm && ev->tid == prev_tid));

  if (!compact && prev_tid == TRACE_ID_UNKNOWN)
    {
      /* no full form without a previous task: the next switch names it */
      perfetto_writer_drop (w, &w->stats.dropped_switches_without_prev, 1, ev->ts,
                            "sched switch without a previous task that cannot be compact dropped");
      return;
    }
  w->states_written = TRUE;
  if (compact)
    {
      guint64 ts_delta = delta (&b->sw_prev_ts, ev->ts);
      guint32 comm = bundle_comm_index (b, w, next_comm);

      g_array_append_val (b->sw_ts, ts_delta);
      g_array_append_val (b->sw_state, prev_state);
      g_array_append_val (b->sw_pid, next_tid);
      g_array_append_val (b->sw_prio, next_prio);
      g_array_append_val (b->sw_comm, comm);
      b->last_cs_ts = ev->ts;
      w->stats.ftrace_events++;
      w->stats.compact_sched++;
    }
  else
    {
      sw = &bundle_add_full (w, b, ev, ev->tid >= 0 ? ev->tid : prev_tid,
                             PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH,
                             &perfetto__protos__sched_switch_ftrace_event__descriptor)
                ->typed.sched_switch;
      sw->prev_comm = prev_comm ? (char *) perfetto_str (w, prev_comm) : NULL;
      sw->has_prev_pid = sw->has_prev_prio = sw->has_prev_state = TRUE;
      sw->prev_pid = prev_tid;
      sw->prev_prio = prev_prio;
      sw->prev_state = prev_state;
      sw->next_comm = next_comm ? (char *) perfetto_str (w, next_comm) : NULL;
      sw->has_next_pid = sw->has_next_prio = TRUE;
      sw->next_pid = next_tid;
      sw->next_prio = next_prio;
      b->last_fs_ts = ev->ts;
      if (cs)
        cs->full_ts = ev->ts;
    }
  if (cs)
    {
      cs->valid = TRUE;
      cs->next_tid = next_tid;
      cs->next_prio = next_prio;
      cs->next_comm = next_comm;
    }
}

static void
write_wakeup (PerfettoWriter *w,
              PerfettoBundle *b,
              const TraceEvent *ev)
{
  PerfettoCpuSched *cs = cpu_sched (w, b->cpu);
  Perfetto__Protos__SchedWakeupFtraceEvent *wk;
  guint32 field;
  const ProtobufCMessageDescriptor *desc;

  if (cs)
    cpu_sched_in_order (cs, ev->ts);
  if (ev->kind == TRACE_EVENT_SCHED_WAKING && w->opts.compact_sched && cs && !cs->unsorted && cs->valid && ev->n_args == 0 && ev->tid == cs->next_tid && ev->u.wakeup.success == 0 && ev->ts >= 0 && ev->ts != b->last_fs_ts)
    {
      guint64 ts_delta = delta (&b->wk_prev_ts, ev->ts);
      guint32 comm = bundle_comm_index (b, w, ev->u.wakeup.comm);
      guint32 flags = 0;

      g_array_append_val (b->wk_ts, ts_delta);
      g_array_append_val (b->wk_pid, ev->u.wakeup.tid);
      g_array_append_val (b->wk_cpu, ev->u.wakeup.target_cpu);
      g_array_append_val (b->wk_prio, ev->u.wakeup.prio);
      g_array_append_val (b->wk_comm, comm);
      g_array_append_val (b->wk_flags, flags);
      b->last_cw_ts = ev->ts;
      w->stats.ftrace_events++;
      w->stats.compact_sched++;
      return;
    }
  switch (ev->kind)
    {
    case TRACE_EVENT_SCHED_WAKING:
      field = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING;
      desc = &perfetto__protos__sched_waking_ftrace_event__descriptor;
      break;
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
      field = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW;
      desc = &perfetto__protos__sched_wakeup_new_ftrace_event__descriptor;
      break;
    default:
      field = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP;
      desc = &perfetto__protos__sched_wakeup_ftrace_event__descriptor;
      break;
    }
  /* The three messages have the same fields at the same offsets. */
  wk = &bundle_add_full (w, b, ev, ev->tid, field, desc)->typed.wakeup;
  wk->comm = ev->u.wakeup.comm ? (char *) perfetto_str (w, ev->u.wakeup.comm) : NULL;
  wk->has_pid = wk->has_prio = wk->has_target_cpu = TRUE;
  wk->pid = ev->u.wakeup.tid;
  wk->prio = ev->u.wakeup.prio;
  wk->target_cpu = ev->u.wakeup.target_cpu;
  if (ev->u.wakeup.success != 0)
    {
      wk->has_success = TRUE;
      wk->success = ev->u.wakeup.success;
    }
}

static const PerfettoMapCache *
map_cache_get (PerfettoWriter *w,
               guint32 name)
{
  PerfettoMapCache *cache = g_hash_table_lookup (w->ftrace_map_cache, GUINT_TO_POINTER (name));
  const char *str;

  if (cache != NULL)
    return cache;
  cache = g_new0 (PerfettoMapCache, 1);
  str = perfetto_str (w, name);
  /* Marker writes trace_processor did not get as TrackEvents (text the
   * source could not parse) go as print, whose text it parses itself. */
  if (g_str_equal (str, "tracing_mark_write") || g_str_equal (str, "0"))
    str = "print";
  cache->map = perfetto_ftrace_map_for_writer (str, w->opts.proto_kernel_events);
  for (guint i = 0; cache->map && i < cache->map->n_fields; i++)
    {
      const PerfettoFtraceFieldMap *f = &cache->map->fields[i];

      cache->key_ids[i] = trace_string_pool_intern (w->pool, f->key);
      cache->alt_ids[i] = f->alt_key ? trace_string_pool_intern (w->pool, f->alt_key) : 0;
    }
  g_hash_table_insert (w->ftrace_map_cache, GUINT_TO_POINTER (name), cache);
  return cache;
}

/* Returns: %FALSE when an arg has no field or does not convert (the
 * event then goes as a generic event, which keeps everything) */
static gboolean
write_mapped (PerfettoWriter *w,
              PerfettoBundle *b,
              TraceBatch *batch,
              const TraceEvent *ev,
              const PerfettoMapCache *cache)
{
  const PerfettoFtraceEventMap *map = cache->map;
  const TraceArg *args = trace_batch_get_args (batch, ev);
  gint64 values[PERFETTO_FTRACE_MAX_FIELDS];
  gboolean set[PERFETTO_FTRACE_MAX_FIELDS] = { FALSE };
  PerfettoSlot *slot;

  for (guint a = 0; a < ev->n_args; a++)
    {
      guint i;

      for (i = 0; i < map->n_fields; i++)
        if (args[a].key == cache->key_ids[i] || (cache->alt_ids[i] && args[a].key == cache->alt_ids[i]))
          break;
      if (i == map->n_fields || set[i])
        return FALSE;
      set[i] = TRUE;
      if (map->fields[i].kind == PERFETTO_FTRACE_NUMBER && !perfetto_karg_to_int (w, batch, &args[a], &values[i]))
        return FALSE;
      if (map->fields[i].kind == PERFETTO_FTRACE_STRING && args[a].type != TRACE_ARG_STRING &&
          args[a].type != TRACE_ARG_TEXT)
        return FALSE;
      if (map->fields[i].kind == PERFETTO_FTRACE_STRING)
        values[i] = trace_batch_intern_arg (batch, &args[a]);
      if (map->fields[i].kind == PERFETTO_FTRACE_KSYM)
        values[i] = perfetto_karg_to_symbol (w, batch, &args[a]);
    }
  slot = bundle_add_full (w, b, ev, ev->tid, map->event_field, map->descriptor);
  for (guint i = 0; i < map->n_fields; i++)
    {
      ProtobufCMessage *msg = &slot->typed.generic.base;

      if (!set[i])
        continue;
      if (map->fields[i].kind == PERFETTO_FTRACE_STRING)
        perfetto_message_set_string (msg, map->field_descs[i], perfetto_str (w, (guint32) values[i]));
      else if (map->fields[i].kind == PERFETTO_FTRACE_NUMBER)
        perfetto_message_set_int (msg, map->field_descs[i], values[i]);
      else if (values[i] != 0)
        {
          guint32 sym = (guint32) values[i];

          perfetto_message_set_int (msg, map->field_descs[i], (gint64) perfetto_iid (w, sym));
          g_array_append_val (b->ksyms, sym);
        }
    }
  return TRUE;
}

/**
 * perfetto_ftrace_prescan:
 * @w: a #PerfettoWriter
 * @batch: a batch about to be written
 *
 * trace_processor drops every cpu's switches before the latest cpu data
 * start (perfetto-src's records of previous_bundle_end_timestamp), and
 * then skips a compact switch whose previous switch it dropped. So the
 * first switch of each cpu at or after that time must be a full one: the
 * latest data start is learnt here, before the batch's switches are
 * written (the first bundles of all cpus, which carry them, come first
 * in a trace), and write_sched_switch() writes a switch compact only
 * after a full one at or after it.
 */
void
perfetto_ftrace_prescan (PerfettoWriter *w,
                         TraceBatch *batch)
{
  guint32 name = w->data_start_name;

  /* looked up, not interned: interning would shift the ids (and so the
   * bytes) of every output; until a source interns it, no event has it */
  if (name == 0 || name == G_MAXUINT32)
    name = w->data_start_name =
        trace_string_pool_lookup (w->pool, PERFETTO_CPU_DATA_START, strlen (PERFETTO_CPU_DATA_START));
  if (name == G_MAXUINT32)
    return;
  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];

      if (ev->kind == TRACE_EVENT_FTRACE && ev->name == name && ev->n_args == 0 && ev->ts > w->max_data_start)
        w->max_data_start = ev->ts;
    }
}

/* perfetto-src's record of when a cpu's ring buffer holds all its events
 * goes back into the cpu's first bundle (trace_processor drops the cpu's
 * events before it). Returns: whether @ev was that record. */
static gboolean
is_cpu_data_start (PerfettoWriter *w,
                   PerfettoBundle *b,
                   const TraceEvent *ev)
{
  if (ev->n_args != 0 || b->cpu < 0 || g_strcmp0 (perfetto_str (w, ev->name), PERFETTO_CPU_DATA_START) != 0)
    return FALSE;
  if (b->written)
    perfetto_writer_drop (w, &w->stats.dropped_kernel, 1, ev->ts,
                          "cpu data start after the cpu's first bundle dropped");
  else
    {
      b->has_data_start = TRUE;
      b->data_start = perfetto_timestamp (w, ev->ts);
    }
  return TRUE;
}

/* An event perfetto-src carried as opaque bytes goes back as it came:
 * its payload under its own FtraceEvent field number. */
static gboolean
write_opaque (PerfettoWriter *w,
              PerfettoBundle *b,
              TraceBatch *batch,
              const TraceEvent *ev)
{
  gsize offset = b->opaque->len;
  guint32 field;
  PerfettoSlot *slot;

  if (!perfetto_opaque_ftrace_payload (w, batch, ev, &field, b->opaque))
    return FALSE;
  slot = bundle_add_full (w, b, ev, ev->tid, 0, &perfetto__protos__generic_ftrace_event__descriptor);
  slot->opaque.tag = field;
  slot->opaque.wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
  slot->opaque.len = b->opaque->len - offset;
  slot->opaque.data = GSIZE_TO_POINTER (offset);
  return TRUE;
}

static void
write_generic (PerfettoWriter *w,
               PerfettoBundle *b,
               TraceBatch *batch,
               const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);
  PerfettoSlot *slot = bundle_add_full (w, b, ev, ev->tid, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GENERIC,
                                        &perfetto__protos__generic_ftrace_event__descriptor);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  slot->typed.generic.event_name = (char *) perfetto_str (w, ev->name);
  slot->gen_first = b->gen_fields.len;
  slot->gen_n = ev->n_args;
  for (guint a = 0; a < ev->n_args; a++)
    {
      Perfetto__Protos__GenericFtraceEvent__Field *f = perfetto_vec_push (&b->gen_fields);

      perfetto__protos__generic_ftrace_event__field__init (f);
      f->name = (char *) perfetto_str (w, args[a].key);
      switch ((TraceArgType) args[a].type)
        {
        case TRACE_ARG_INT:
        case TRACE_ARG_BOOL:
          f->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE;
          f->int_value = args[a].type == TRACE_ARG_BOOL ? args[a].v.b != 0 : args[a].v.i;
          break;
        case TRACE_ARG_UINT:
        case TRACE_ARG_POINTER:
          f->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE;
          f->uint_value = args[a].v.u;
          break;
        case TRACE_ARG_DOUBLE:
          /* No double field: the text, kept in the pool until written. */
          g_ascii_dtostr (buf, sizeof buf, args[a].v.d);
          f->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE;
          f->str_value = (char *) perfetto_str (w, trace_string_pool_intern (w->pool, buf));
          break;
        case TRACE_ARG_TEXT:
          /* interned: the bundle is packed after its batches are gone */
          f->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE;
          f->str_value = (char *) perfetto_str (w, trace_batch_intern_arg (batch, &args[a]));
          break;
        case TRACE_ARG_STRING:
        default:
          f->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE;
          f->str_value = (char *) perfetto_str (w, args[a].v.s);
          break;
        }
    }
}

/* ---- task and cpu events ---- */

/* Args of typed kernel events: only oom_score_adj has a field to go to. */
static void
typed_args (PerfettoWriter *w,
            TraceBatch *batch,
            const TraceEvent *ev,
            ProtobufCMessage *msg)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);
  const ProtobufCFieldDescriptor *oom =
      protobuf_c_message_descriptor_get_field_by_name (msg->descriptor, "oom_score_adj");

  for (guint a = 0; a < ev->n_args; a++)
    {
      gint64 v;

      if (oom && g_str_equal (perfetto_str (w, args[a].key), "oom_score_adj") && perfetto_karg_to_int (w, batch, &args[a], &v))
        perfetto_message_set_int (msg, oom, v);
      else
        perfetto_writer_drop (w, &w->stats.dropped_kernel_args, 1, ev->ts, "kernel event arg with no field to go to dropped");
    }
}

static char *
comm_or_null (PerfettoWriter *w,
              guint32 id)
{
  return id ? (char *) perfetto_str (w, id) : NULL;
}

static void
write_task (PerfettoWriter *w,
            PerfettoBundle *b,
            TraceBatch *batch,
            const TraceEvent *ev)
{
  PerfettoSlot *slot;
  PerfettoTyped *t;

#define ADD(field, type)                                                                     \
  (slot = bundle_add_full (w, b, ev, ev->tid, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_##field, \
                           &perfetto__protos__##type##_ftrace_event__descriptor),            \
   t = &slot->typed)
  switch (ev->kind)
    {
    case TRACE_EVENT_SCHED_PROCESS_EXIT:
      ADD (SCHED_PROCESS_EXIT, sched_process_exit);
      t->exit.comm = comm_or_null (w, ev->u.task.comm);
      t->exit.has_pid = t->exit.has_prio = TRUE;
      t->exit.pid = ev->u.task.tid;
      t->exit.prio = ev->u.task.prio;
      if (ev->pid != TRACE_ID_UNKNOWN && ev->u.task.tid == ev->tid)
        {
          t->exit.has_tgid = TRUE;
          t->exit.tgid = perfetto_id (w, ev->pid);
        }
      break;
    case TRACE_EVENT_SCHED_PROCESS_FREE:
      ADD (SCHED_PROCESS_FREE, sched_process_free);
      t->free.comm = comm_or_null (w, ev->u.task.comm);
      t->free.has_pid = t->free.has_prio = TRUE;
      t->free.pid = ev->u.task.tid;
      t->free.prio = ev->u.task.prio;
      break;
    case TRACE_EVENT_TASK_NEWTASK:
      ADD (TASK_NEWTASK, task_newtask);
      t->newtask.comm = comm_or_null (w, ev->u.task.comm);
      t->newtask.has_pid = t->newtask.has_clone_flags = TRUE;
      t->newtask.pid = ev->u.task.tid;
      t->newtask.clone_flags = ev->u.task.clone_flags;
      break;
    default: /* TASK_RENAME */
      ADD (TASK_RENAME, task_rename);
      t->rename.has_pid = TRUE;
      t->rename.pid = ev->u.task.tid;
      t->rename.oldcomm = comm_or_null (w, ev->u.task.old_comm);
      t->rename.newcomm = comm_or_null (w, ev->u.task.comm);
      break;
    }
#undef ADD
  typed_args (w, batch, ev, &t->generic.base);
}

static void
write_cpu (PerfettoWriter *w,
           PerfettoBundle *b,
           TraceBatch *batch,
           const TraceEvent *ev)
{
  PerfettoSlot *slot;

  /* CpuFrequency and CpuIdle have the same fields at the same offsets. */
  if (ev->kind == TRACE_EVENT_CPU_FREQUENCY)
    slot = bundle_add_full (w, b, ev, ev->tid, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY,
                            &perfetto__protos__cpu_frequency_ftrace_event__descriptor);
  else
    slot = bundle_add_full (w, b, ev, ev->tid, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_IDLE,
                            &perfetto__protos__cpu_idle_ftrace_event__descriptor);
  slot->typed.frequency.has_state = slot->typed.frequency.has_cpu_id = TRUE;
  slot->typed.frequency.state = (guint32) ev->u.cpu.state;
  slot->typed.frequency.cpu_id = (guint32) ev->u.cpu.cpu_id;
  typed_args (w, batch, ev, &slot->typed.generic.base);
}

/**
 * perfetto_write_kernel_event:
 * @w: a #PerfettoWriter
 * @batch: the batch of @ev
 * @ev: a sched, task, cpu or other ftrace event
 */
void
perfetto_write_kernel_event (PerfettoWriter *w,
                             TraceBatch *batch,
                             const TraceEvent *ev)
{
  PerfettoBundle *b;

  if (!w->opts.emit_ftrace)
    {
      perfetto_writer_drop (w, &w->stats.dropped_kernel, 1, ev->ts, "kernel event dropped (ftrace=false)");
      return;
    }
  /* Kernel events carry no tgid: readers learn it from process_tree. */
  if (ev->tid >= 0 && ev->pid != TRACE_ID_UNKNOWN)
    perfetto_assoc_thread (w, ev->tid, ev->pid, 0, ev->ts, FALSE);
  b = bundle_for (w, ev);
  switch (ev->kind)
    {
    case TRACE_EVENT_SCHED_SWITCH:
      write_sched_switch (w, b, ev);
      if (ev->n_args > 0)
        perfetto_writer_drop (w, &w->stats.dropped_kernel_args, ev->n_args, ev->ts, "sched_switch args dropped");
      break;
    case TRACE_EVENT_SCHED_WAKEUP:
    case TRACE_EVENT_SCHED_WAKING:
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
      write_wakeup (w, b, ev);
      if (ev->n_args > 0)
        perfetto_writer_drop (w, &w->stats.dropped_kernel_args, ev->n_args, ev->ts, "wakeup args dropped");
      break;
    case TRACE_EVENT_CPU_FREQUENCY:
    case TRACE_EVENT_CPU_IDLE:
      write_cpu (w, b, batch, ev);
      break;
    case TRACE_EVENT_FTRACE:
      {
        const PerfettoMapCache *cache;

        if (is_cpu_data_start (w, b, ev))
          break;
        /* an event read from a generic record goes back as one: typed,
         * trace_processor would read it differently (an interrupt entry
         * as a slice) */
        if (ev->flags & TRACE_EVENT_FLAG_GENERIC_RECORD)
          {
            write_generic (w, b, batch, ev);
            break;
          }
        cache = map_cache_get (w, ev->name);

        if (cache->map != NULL && write_mapped (w, b, batch, ev, cache))
          break;
        if (!write_opaque (w, b, batch, ev))
          write_generic (w, b, batch, ev);
      }
      break;
    default:
      write_task (w, b, batch, ev);
      break;
    }
}

/* ---- thread names and clock-sync markers as kernel records ---- */

/**
 * perfetto_write_processless_thread_name:
 * @w: a #PerfettoWriter
 * @ev: a THREAD_NAME of a thread whose process is not known
 *
 * Every Perfetto record that names a thread also gives its process
 * (process_tree's tgid defaults to 0, a thread descriptor needs a pid),
 * but for the kernel's `task_rename`: trace_processor renames the thread
 * from it and leaves its process unknown, as it does for a text line's
 * task name. It goes without an `oldcomm`, which a kernel's rename always
 * has, so that our reader gives back a thread name. Without a cpu, cpu 0.
 */
void
perfetto_write_processless_thread_name (PerfettoWriter *w,
                                        const TraceEvent *ev)
{
  TraceEvent at_cpu = *ev;
  PerfettoSlot *slot;

  if (!w->opts.emit_ftrace || ev->tid <= 0 || ev->name == 0)
    {
      perfetto_writer_drop (w, &w->stats.dropped_other, 1, ev->ts, "processless thread name dropped (no ftrace, tid or name)");
      return;
    }
  if (at_cpu.cpu < 0 || at_cpu.cpu >= PERFETTO_MAX_CPUS)
    at_cpu.cpu = 0;
  slot = bundle_add_full (w, bundle_for (w, &at_cpu), &at_cpu, ev->tid,
                          PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME,
                          &perfetto__protos__task_rename_ftrace_event__descriptor);
  slot->typed.rename.has_pid = TRUE;
  slot->typed.rename.pid = perfetto_id (w, ev->tid);
  slot->typed.rename.newcomm = (char *) perfetto_str (w, ev->name);
}

/**
 * perfetto_write_clock_sync_print:
 * @w: a #PerfettoWriter
 * @ev: a clock marker other than an exact pair
 * @text: (nullable): its atrace clock-sync text, %NULL for none
 *
 * atrace's clock-sync markers go back as the ftrace print they came
 * from: trace_processor ignores them, as it does in text, and a reader
 * gets them back.
 */
void
perfetto_write_clock_sync_print (PerfettoWriter *w,
                                 const TraceEvent *ev,
                                 const char *text)
{
  PerfettoBundle *b;
  PerfettoSlot *slot;

  /* A marker without a cpu comes from an input with no kernel data (a
   * JSON clock_sync event): trace_processor rejects a bundle without a
   * cpu (ftrace_bundle_tokenizer_errors), and the original's importer
   * ignores the marker too, so no kernel packet is written for it. */
  if (ev->cpu < 0 || ev->cpu >= PERFETTO_MAX_CPUS)
    {
      perfetto_writer_drop (w, &w->stats.dropped_clock_marker, 1, ev->ts, "clock marker without a cpu dropped");
      return;
    }
  if (text == NULL || !w->opts.emit_ftrace)
    {
      perfetto_writer_drop (w, &w->stats.dropped_clock_marker, 1, ev->ts, "clock marker with nothing to map to dropped");
      return;
    }
  b = bundle_for (w, ev);
  slot = bundle_add_full (w, b, ev, ev->tid, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT,
                          &perfetto__protos__print_ftrace_event__descriptor);
  /* The pool keeps the text until the bundle is written. */
  slot->typed.print.buf = (char *) perfetto_str (w, trace_string_pool_intern (w->pool, text));
}
