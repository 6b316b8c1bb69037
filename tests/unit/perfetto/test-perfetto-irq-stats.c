/* Unit tests: typed interrupt events and sys_stats totals, read from a
 * trace built here with the generated protobuf-c code, and written back
 * in the form trace_processor reads as the original. */
#include "perfetto-test-util.h"

#include <string.h>

#include "trace.pb-c.h"

typedef Perfetto__Protos__FtraceEvent FtraceEvent;

/* Packs @pkts, one record each, as a Trace file. */
static GBytes *
pack_packets (Perfetto__Protos__TracePacket **pkts,
              guint n)
{
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  gsize len;
  guint8 *data;

  trace.n_packet = n;
  trace.packet = pkts;
  len = perfetto__protos__trace__get_packed_size (&trace);
  data = g_malloc (len);
  perfetto__protos__trace__pack (&trace, data);
  return g_bytes_new_take (data, len);
}

static void
kernel_event_init (FtraceEvent *ev,
                   guint64 ts,
                   Perfetto__Protos__FtraceEvent__EventCase field,
                   gpointer msg)
{
  perfetto__protos__ftrace_event__init (ev);
  ev->has_timestamp = ev->has_pid = TRUE;
  ev->timestamp = ts;
  ev->pid = 10;
  ev->event_case = field;
  /* every member of the oneof is a pointer at the same place */
  ev->irq_handler_entry = msg;
}

/* On cpu 1: an IRQ and a softirq, entry and exit; at 3000 a sys_stats
 * packet with the three totals and a count of irq 3 and of softirq 1. */
static GBytes *
irq_stats_trace (void)
{
  Perfetto__Protos__IrqHandlerEntryFtraceEvent entry = PERFETTO__PROTOS__IRQ_HANDLER_ENTRY_FTRACE_EVENT__INIT;
  Perfetto__Protos__IrqHandlerExitFtraceEvent exit = PERFETTO__PROTOS__IRQ_HANDLER_EXIT_FTRACE_EVENT__INIT;
  Perfetto__Protos__SoftirqEntryFtraceEvent sentry = PERFETTO__PROTOS__SOFTIRQ_ENTRY_FTRACE_EVENT__INIT;
  Perfetto__Protos__SoftirqExitFtraceEvent sexit = PERFETTO__PROTOS__SOFTIRQ_EXIT_FTRACE_EVENT__INIT;
  Perfetto__Protos__FtraceEventBundle bundle = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
  Perfetto__Protos__SysStats stats = PERFETTO__PROTOS__SYS_STATS__INIT;
  Perfetto__Protos__SysStats__InterruptCount irq = PERFETTO__PROTOS__SYS_STATS__INTERRUPT_COUNT__INIT;
  Perfetto__Protos__SysStats__InterruptCount softirq = PERFETTO__PROTOS__SYS_STATS__INTERRUPT_COUNT__INIT;
  Perfetto__Protos__SysStats__InterruptCount *irqs[] = { &irq }, *softirqs[] = { &softirq };
  Perfetto__Protos__TracePacket p1 = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TracePacket p2 = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TracePacket *pkts[] = { &p1, &p2 };
  FtraceEvent evs[4];
  FtraceEvent *ev_ptrs[] = { &evs[0], &evs[1], &evs[2], &evs[3] };

  entry.has_irq = TRUE, entry.irq = 3, entry.name = "timer";
  exit.has_irq = exit.has_ret = TRUE, exit.irq = 3, exit.ret = 1;
  sentry.has_vec = sexit.has_vec = TRUE, sentry.vec = sexit.vec = 1;
  kernel_event_init (&evs[0], 1000, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_ENTRY, &entry);
  kernel_event_init (&evs[1], 1500, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_EXIT, &exit);
  kernel_event_init (&evs[2], 2000, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_ENTRY, &sentry);
  kernel_event_init (&evs[3], 2500, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_EXIT, &sexit);
  bundle.has_cpu = TRUE, bundle.cpu = 1;
  bundle.n_event = 4, bundle.event = ev_ptrs;
  p1.has_trusted_packet_sequence_id = TRUE, p1.trusted_packet_sequence_id = 1;
  p1.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
  p1.ftrace_events = &bundle;
  stats.has_num_forks = stats.has_num_irq_total = stats.has_num_softirq_total = TRUE;
  stats.num_forks = 5, stats.num_irq_total = 100, stats.num_softirq_total = 7;
  irq.has_irq = irq.has_count = softirq.has_irq = softirq.has_count = TRUE;
  irq.irq = 3, irq.count = 9, softirq.irq = 1, softirq.count = 4;
  stats.n_num_irq = stats.n_num_softirq = 1;
  stats.num_irq = irqs, stats.num_softirq = softirqs;
  p2.has_trusted_packet_sequence_id = TRUE, p2.trusted_packet_sequence_id = 1;
  p2.has_timestamp = TRUE, p2.timestamp = 3000;
  p2.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_SYS_STATS;
  p2.sys_stats = &stats;
  return pack_packets (pkts, G_N_ELEMENTS (pkts));
}

static const char *const irq_stats_events[] = {
  "ftrace ts=1000 pid=-1 tid=10 cpu=1 name='irq_handler_entry' cat='' flags=0x0 irq=i:3 name=s:'timer'",
  "ftrace ts=1500 pid=-1 tid=10 cpu=1 name='irq_handler_exit' cat='' flags=0x0 irq=i:3 ret=i:1",
  "ftrace ts=2000 pid=-1 tid=10 cpu=1 name='softirq_entry' cat='' flags=0x0 vec=i:1",
  "ftrace ts=2500 pid=-1 tid=10 cpu=1 name='softirq_exit' cat='' flags=0x0 vec=i:1",
  "counter ts=3000 pid=-1 tid=-1 cpu=-1 name='num_forks' cat='sys_stats' flags=0x4 value=5 id=0 unit=''",
  "counter ts=3000 pid=-1 tid=-1 cpu=-1 name='num_irq_total' cat='sys_stats' flags=0x4 value=100 id=0 unit=''",
  "counter ts=3000 pid=-1 tid=-1 cpu=-1 name='num_softirq_total' cat='sys_stats' flags=0x4 value=7 id=0 unit=''",
  /* named as trace_processor names their tracks */
  "counter ts=3000 pid=-1 tid=-1 cpu=-1 name='num_irq (id: 3)' cat='sys_stats' flags=0x4 value=9 id=0 unit=''",
  "counter ts=3000 pid=-1 tid=-1 cpu=-1 name='num_softirq (id: 1)' cat='sys_stats' flags=0x4 value=4 id=0 unit=''",
};

static void
assert_events (TraceBatch *batch,
               const char *const *want,
               guint n_want)
{
  g_autoptr (GPtrArray) got = pt_event_strings (batch, FALSE);

  for (guint i = 0; i < MIN (got->len, n_want); i++)
    g_assert_cmpstr (got->pdata[i], ==, want[i]);
  g_assert_cmpuint (got->len, ==, n_want);
}

static void
assert_same_by_time (TraceBatch *expected,
                     TraceBatch *actual)
{
  g_autoptr (GPtrArray) want = pt_event_strings (expected, TRUE);
  g_autoptr (GPtrArray) got = pt_event_strings (actual, TRUE);

  pt_assert_same_events (want, got);
}

/* Typed events become FTRACE records keyed as the kernel prints them;
 * each sys_stats total a global integer counter of category sys_stats. */
static void
test_read (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GBytes) bytes = irq_stats_trace ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) out = NULL;
  PerfettoReaderStats rs;

  out = pt_read (bytes, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  assert_events (out, irq_stats_events, G_N_ELEMENTS (irq_stats_events));
  g_assert_cmpuint (rs.unknown_packets, ==, 0);
  g_assert_cmpuint (rs.unsupported_events, ==, 0);
}

/* What the written file holds: per kernel event, its oneof case (or the
 * generic event's name); the sys_stats packets' totals. */
typedef struct
{
  GString *kernel;
  GString *stats;
  guint track_events;
} Written;

static void
written_clear (Written *wr)
{
  g_string_free (wr->kernel, TRUE);
  g_string_free (wr->stats, TRUE);
}

static void
decode_bundle (Written *wr,
               const Perfetto__Protos__FtraceEventBundle *b)
{
  for (gsize i = 0; i < b->n_event; i++)
    {
      const FtraceEvent *e = b->event[i];

      switch (e->event_case)
        {
        case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_ENTRY:
          g_string_append_printf (wr->kernel, "irq_entry(%d,%s) ", e->irq_handler_entry->irq, e->irq_handler_entry->name);
          break;
        case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_EXIT:
          g_string_append_printf (wr->kernel, "irq_exit(%d,%d) ", e->irq_handler_exit->irq, e->irq_handler_exit->ret);
          break;
        case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_ENTRY:
          g_string_append_printf (wr->kernel, "softirq_entry(%u) ", e->softirq_entry->vec);
          break;
        case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_EXIT:
          g_string_append_printf (wr->kernel, "softirq_exit(%u) ", e->softirq_exit->vec);
          break;
        case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GENERIC:
          g_string_append_printf (wr->kernel, "generic(%s) ", e->generic->event_name);
          break;
        default:
          g_string_append_printf (wr->kernel, "other(%d) ", e->event_case);
          break;
        }
    }
}

static void
decode (GBytes *bytes,
        Written *wr)
{
  Perfetto__Protos__Trace *trace = pt_unpack (bytes);

  wr->kernel = g_string_new (NULL);
  wr->stats = g_string_new (NULL);
  wr->track_events = 0;
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      const Perfetto__Protos__TracePacket *p = trace->packet[i];
      const Perfetto__Protos__SysStats *s = p->sys_stats;

      if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS)
        decode_bundle (wr, p->ftrace_events);
      else if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
        wr->track_events++;
      else if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_SYS_STATS)
        {
          g_string_append_printf (wr->stats, "%" G_GUINT64_FORMAT ":", p->timestamp);
          if (s->has_num_forks)
            g_string_append_printf (wr->stats, " forks=%" G_GUINT64_FORMAT, s->num_forks);
          if (s->has_num_irq_total)
            g_string_append_printf (wr->stats, " irq=%" G_GUINT64_FORMAT, s->num_irq_total);
          if (s->has_num_softirq_total)
            g_string_append_printf (wr->stats, " softirq=%" G_GUINT64_FORMAT, s->num_softirq_total);
          for (gsize k = 0; k < s->n_num_irq; k++)
            g_string_append_printf (wr->stats, " irq%d=%" G_GUINT64_FORMAT, s->num_irq[k]->irq, s->num_irq[k]->count);
          for (gsize k = 0; k < s->n_num_softirq; k++)
            g_string_append_printf (wr->stats, " softirq%d=%" G_GUINT64_FORMAT, s->num_softirq[k]->irq, s->num_softirq[k]->count);
          g_string_append (wr->stats, "; ");
        }
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
}

/* From a Perfetto stream the interrupts go back typed (trace_processor
 * makes IRQ slices of those only) and the totals as sys_stats packets;
 * read again, the same events. */
static void
test_write_from_perfetto (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GBytes) bytes = irq_stats_trace ();
  g_autoptr (TraceBatch) in = pt_read (bytes, pool, NULL, NULL, NULL);
  g_autoptr (GBytes) written = NULL;
  g_autoptr (TraceBatch) back = NULL;
  PerfettoWriterOptions opts;
  Written wr;

  perfetto_writer_options_init (&opts);
  opts.proto_kernel_events = TRUE;
  written = pt_write (&in, 1, &opts, NULL);
  decode (written, &wr);
  g_assert_cmpstr (wr.kernel->str, ==, "irq_entry(3,timer) irq_exit(3,1) softirq_entry(1) softirq_exit(1) ");
  g_assert_cmpstr (wr.stats->str, ==, "3000: forks=5; 3000: irq=100; 3000: softirq=7; 3000: irq3=9; 3000: softirq1=4; ");
  g_assert_cmpuint (wr.track_events, ==, 0);
  written_clear (&wr);
  /* the kernel bundle goes at the end of the batch: compare by time */
  back = pt_read (written, pool, NULL, NULL, NULL);
  assert_same_by_time (in, back);
}

/* Clears TRACE_EVENT_FLAG_GENERIC_RECORD of every event of @batch. */
static void
clear_generic_record (TraceBatch *batch)
{
  for (guint i = 0; i < batch->n_events; i++)
    batch->events[i].flags &= ~TRACE_EVENT_FLAG_GENERIC_RECORD;
}

/* From any other stream (ftrace text, whose interrupt lines
 * trace_processor ignores) they go as generic events, read back alike
 * but flagged as read from generic records. */
static void
test_write_from_text (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GBytes) bytes = irq_stats_trace ();
  g_autoptr (TraceBatch) in = pt_read (bytes, pool, NULL, NULL, NULL);
  g_autoptr (GBytes) written = pt_write (&in, 1, NULL, NULL);
  g_autoptr (TraceBatch) back = NULL;
  guint flagged = 0;
  Written wr;

  decode (written, &wr);
  g_assert_cmpstr (wr.kernel->str, ==,
                   "generic(irq_handler_entry) generic(irq_handler_exit) generic(softirq_entry) generic(softirq_exit) ");
  written_clear (&wr);
  /* the kernel bundle goes at the end of the batch: compare by time */
  back = pt_read (written, pool, NULL, NULL, NULL);
  for (guint i = 0; i < back->n_events; i++)
    if (back->events[i].flags & TRACE_EVENT_FLAG_GENERIC_RECORD)
      flagged++;
  g_assert_cmpuint (flagged, ==, 4);
  clear_generic_record (back);
  assert_same_by_time (in, back);
}

/* Our output of a text stream converted again (perfetto-src, a stream of
 * typed kernel events): the interrupts read from generic records go back
 * generic, not typed (trace_processor would make IRQ slices of them that
 * the first output does not have). */
static void
test_write_again (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GBytes) bytes = irq_stats_trace ();
  g_autoptr (TraceBatch) in = pt_read (bytes, pool, NULL, NULL, NULL);
  g_autoptr (GBytes) first = pt_write (&in, 1, NULL, NULL);
  g_autoptr (TraceBatch) read = pt_read (first, pool, NULL, NULL, NULL);
  g_autoptr (GBytes) again = NULL;
  g_autoptr (TraceBatch) back = NULL;
  PerfettoWriterOptions opts;
  Written wr;

  perfetto_writer_options_init (&opts);
  opts.proto_kernel_events = TRUE;
  again = pt_write (&read, 1, &opts, NULL);
  decode (again, &wr);
  g_assert_cmpstr (wr.kernel->str, ==,
                   "generic(irq_handler_entry) generic(irq_handler_exit) generic(softirq_entry) generic(softirq_exit) ");
  g_assert_cmpstr (wr.stats->str, ==, "3000: forks=5; 3000: irq=100; 3000: softirq=7; 3000: irq3=9; 3000: softirq1=4; ");
  written_clear (&wr);
  back = pt_read (again, pool, NULL, NULL, NULL);
  assert_same_by_time (read, back);
}

/* Only a global whole counter of category sys_stats named as a total is
 * a sys_stats packet; any other counter stays a TrackEvent counter. */
static void
test_other_counters (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) b = trace_batch_new (pool, 0);
  g_autoptr (GBytes) written = NULL;
  TraceEvent *ev;
  Written wr;

  ev = pt_add (b, TRACE_EVENT_COUNTER, 100, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "num_forks");
  ev->u.counter.value = 1; /* no category */
  ev = pt_add (b, TRACE_EVENT_COUNTER, 200, 42, TRACE_ID_UNKNOWN, "num_forks");
  ev->category = pt_str (b, "sys_stats"), ev->u.counter.value = 2; /* of a process */
  ev = pt_add (b, TRACE_EVENT_COUNTER, 300, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "num_forks");
  ev->category = pt_str (b, "sys_stats"), ev->u.counter.value = 2.5; /* not whole */
  ev = pt_add (b, TRACE_EVENT_COUNTER, 400, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "num_threads");
  ev->category = pt_str (b, "sys_stats"), ev->u.counter.value = 3; /* no such total */
  ev = pt_add (b, TRACE_EVENT_COUNTER, 500, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "num_irq_total");
  ev->category = pt_str (b, "sys_stats"), ev->u.counter.value = 4;
  ev = pt_add (b, TRACE_EVENT_COUNTER, 600, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "num_irq (id: 3x)");
  ev->category = pt_str (b, "sys_stats"), ev->u.counter.value = 5; /* not a count's name */
  ev = pt_add (b, TRACE_EVENT_COUNTER, 700, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "num_softirq (id: 4294967295)");
  ev->category = pt_str (b, "sys_stats"), ev->u.counter.value = 6; /* irq -1, printed unsigned */
  written = pt_write (&b, 1, NULL, NULL);
  decode (written, &wr);
  g_assert_cmpstr (wr.stats->str, ==, "500: irq=4; 700: softirq-1=6; ");
  g_assert_cmpuint (wr.track_events, ==, 5);
  written_clear (&wr);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/irq-stats/read", test_read);
  g_test_add_func ("/perfetto/irq-stats/write-from-perfetto", test_write_from_perfetto);
  g_test_add_func ("/perfetto/irq-stats/write-from-text", test_write_from_text);
  g_test_add_func ("/perfetto/irq-stats/write-again", test_write_again);
  g_test_add_func ("/perfetto/irq-stats/other-counters", test_other_counters);
  return g_test_run ();
}
