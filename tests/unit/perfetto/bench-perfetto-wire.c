/* tracepipe - the Perfetto wire writer against protobuf-c, per packet type
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   bench-perfetto-wire [--reps N]
 *
 * Builds packets of the shapes perfetto-sink writes most (TrackEvent
 * slice begin/end/counter packets; ftrace bundles of full sched_wakeup
 * events; bundles of compact sched arrays), packs them all with
 * protobuf-c (perfetto__protos__trace__pack) and with
 * perfetto_wire_append_record(), checks the bytes are the same, and
 * prints the best of N times of each: a packet kind is streamed only
 * where this shows the wire writer beats protobuf-c. Not a test (the
 * bytes are compared by test-perfetto-wire.c).
 */
#include "perfetto-wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_TRACK_EVENTS 200000
#define N_FULL_BUNDLES 40
#define FULL_BUNDLE_EVENTS 1000
#define N_COMPACT_BUNDLES 20
#define COMPACT_ENTRIES 2000
#define OUT_SIZE (64 * 1024 * 1024)

typedef struct
{
  GRand *rand;
  GPtrArray *mem;
} Gen;

static gpointer
gen_new (Gen *g,
         gsize size)
{
  gpointer p = g_malloc0 (size);

  g_ptr_array_add (g->mem, p);
  return p;
}

static PerfettoPacket *
packet_new (Gen *g,
            guint32 data_case)
{
  PerfettoPacket *p = gen_new (g, sizeof *p);

  perfetto__protos__trace_packet__init (p);
  p->has_timestamp = p->has_trusted_packet_sequence_id = p->has_sequence_flags = TRUE;
  p->timestamp = 354621087428000ull + g_rand_int (g->rand);
  p->trusted_packet_sequence_id = 1;
  p->sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
  p->data_case = data_case;
  return p;
}

/* What write_slice() and write_counter() emit: type, track, name or value. */
static PerfettoPacket *
track_event_packet (Gen *g)
{
  PerfettoPacket *p = packet_new (g, PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT);
  PerfettoTrackEvent *te = gen_new (g, sizeof *te);

  perfetto__protos__track_event__init (te);
  te->has_type = te->has_track_uuid = TRUE;
  te->type = g_rand_int_range (g->rand, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
                               PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER + 1);
  te->track_uuid = g_rand_int_range (g->rand, 1, 1000);
  if (te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER)
    {
      te->counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
      te->counter_value = g_rand_int_range (g->rand, 0, 100000);
    }
  else if (te->type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END)
    {
      te->name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
      te->name_iid = g_rand_int_range (g->rand, 1, 300);
    }
  p->track_event = te;
  return p;
}

static PerfettoPacket *
full_bundle_packet (Gen *g)
{
  PerfettoPacket *p = packet_new (g, PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS);
  Perfetto__Protos__FtraceEventBundle *b = gen_new (g, sizeof *b);

  perfetto__protos__ftrace_event_bundle__init (b);
  b->has_cpu = TRUE;
  b->cpu = g_rand_int_range (g->rand, 0, 8);
  b->n_event = FULL_BUNDLE_EVENTS;
  b->event = gen_new (g, FULL_BUNDLE_EVENTS * sizeof (gpointer));
  for (guint i = 0; i < FULL_BUNDLE_EVENTS; i++)
    {
      PerfettoFtraceEvent *f = gen_new (g, sizeof *f);
      Perfetto__Protos__SchedWakeupFtraceEvent *wk = gen_new (g, sizeof *wk);

      perfetto__protos__ftrace_event__init (f);
      perfetto__protos__sched_wakeup_ftrace_event__init (wk);
      f->has_timestamp = f->has_pid = TRUE;
      f->timestamp = 354621087428000ull + i * 1000;
      f->pid = g_rand_int_range (g->rand, 0, 20000);
      wk->comm = "binder:612_2";
      wk->has_pid = wk->has_prio = wk->has_target_cpu = wk->has_success = TRUE;
      wk->pid = g_rand_int_range (g->rand, 0, 20000);
      wk->prio = 120;
      wk->success = 1;
      wk->target_cpu = g_rand_int_range (g->rand, 0, 8);
      f->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP;
      f->sched_wakeup = wk;
      b->event[i] = f;
    }
  p->ftrace_events = b;
  return p;
}

#define FILL(g, cs, field, type, lo, hi)                                 \
  G_STMT_START                                                           \
  {                                                                      \
    (cs)->n_##field = COMPACT_ENTRIES;                                   \
    (cs)->field = gen_new ((g), COMPACT_ENTRIES * sizeof (type));        \
    for (guint i_ = 0; i_ < COMPACT_ENTRIES; i_++)                       \
      (cs)->field[i_] = (type) g_rand_int_range ((g)->rand, (lo), (hi)); \
  }                                                                      \
  G_STMT_END

static PerfettoPacket *
compact_bundle_packet (Gen *g)
{
  PerfettoPacket *p = packet_new (g, PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS);
  Perfetto__Protos__FtraceEventBundle *b = gen_new (g, sizeof *b);
  Perfetto__Protos__FtraceEventBundle__CompactSched *cs = gen_new (g, sizeof *cs);
  static char *comms[] = { "Jit thread pool", "RenderThread", "binder:612_2", "kworker/u16:3" };

  perfetto__protos__ftrace_event_bundle__init (b);
  perfetto__protos__ftrace_event_bundle__compact_sched__init (cs);
  FILL (g, cs, switch_timestamp, guint64, 100, 100000);
  FILL (g, cs, switch_prev_state, gint64, 0, 3);
  FILL (g, cs, switch_next_pid, gint32, 0, 20000);
  FILL (g, cs, switch_next_prio, gint32, 100, 140);
  FILL (g, cs, switch_next_comm_index, guint32, 0, G_N_ELEMENTS (comms));
  FILL (g, cs, waking_timestamp, guint64, 100, 100000);
  FILL (g, cs, waking_pid, gint32, 0, 20000);
  FILL (g, cs, waking_target_cpu, gint32, 0, 8);
  FILL (g, cs, waking_prio, gint32, 100, 140);
  FILL (g, cs, waking_comm_index, guint32, 0, G_N_ELEMENTS (comms));
  FILL (g, cs, waking_common_flags, guint32, 0, 2);
  cs->n_intern_table = G_N_ELEMENTS (comms);
  cs->intern_table = comms;
  b->has_cpu = TRUE;
  b->compact_sched = cs;
  p->ftrace_events = b;
  return p;
}

static void
bench (const char *name,
       PerfettoPacket *(*make) (Gen *g),
       guint n,
       guint reps)
{
  Gen g = { g_rand_new_with_seed (19), g_ptr_array_new_with_free_func (g_free) };
  PerfettoPacket **packets = g_new (PerfettoPacket *, n);
  PerfettoWireBuf wire = { g_malloc (OUT_SIZE), 0, OUT_SIZE };
  guint8 *pbc = g_malloc (OUT_SIZE);
  gdouble best_pbc = G_MAXDOUBLE, best_wire = G_MAXDOUBLE;
  gsize len = 0;

  for (guint i = 0; i < n; i++)
    packets[i] = make (&g);
  for (guint r = 0; r < reps; r++)
    {
      gint64 t0 = g_get_monotonic_time (), t1, t2;

      len = 0;
      for (guint i = 0; i < n; i++)
        {
          Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;

          trace.n_packet = 1;
          trace.packet = &packets[i];
          (void) perfetto__protos__trace__get_packed_size (&trace);
          len += perfetto__protos__trace__pack (&trace, pbc + len);
        }
      t1 = g_get_monotonic_time ();
      wire.len = 0;
      for (guint i = 0; i < n; i++)
        perfetto_wire_append_record (&wire, packets[i], NULL);
      t2 = g_get_monotonic_time ();
      if (wire.len != len || memcmp (wire.data, pbc, len) != 0)
        {
          fprintf (stderr, "bench-perfetto-wire: %s: the bytes differ\n", name);
          exit (1);
        }
      best_pbc = MIN (best_pbc, (t1 - t0) / 1000.0);
      best_wire = MIN (best_wire, (t2 - t1) / 1000.0);
    }
  printf ("%-34s %7u packets %9" G_GSIZE_FORMAT " bytes: protobuf-c %8.2f ms, wire %8.2f ms (%.2f)\n", name, n, len,
          best_pbc, best_wire, best_wire / best_pbc);
  g_free (wire.data);
  g_free (pbc);
  g_free (packets);
  g_ptr_array_unref (g.mem);
  g_rand_free (g.rand);
}

int
main (int argc,
      char **argv)
{
  guint reps = 7;

  if (argc == 3 && strcmp (argv[1], "--reps") == 0)
    reps = MAX (1, atoi (argv[2]));
  if (!perfetto_wire_check_schema (NULL))
    return 1;
  bench ("TrackEvent (begin/end/counter)", track_event_packet, N_TRACK_EVENTS, reps);
  bench ("ftrace bundle, 1000 sched_wakeup", full_bundle_packet, N_FULL_BUNDLES, reps);
  bench ("ftrace bundle, compact 2000+2000", compact_bundle_packet, N_COMPACT_BUNDLES, reps);
  return 0;
}
