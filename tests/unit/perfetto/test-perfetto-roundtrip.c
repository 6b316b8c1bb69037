/* Unit tests: events written by the Perfetto writer and read back by the
 * Perfetto reader.
 *
 * The expected events are the input events changed by the mapping rules
 * docs/perfetto.md states (a complete slice comes back as a begin and an
 * end, ends lose their name, async and counter events lose their thread,
 * ...): pt_expected_events() is that document as code. */
#include "perfetto-test-util.h"
#include "trace.pb-c.h"
#include "../../test-util.h"

#include <math.h>
#include <string.h>

/* ---- tests ---- */

/* @in written (with @opts; the writer's counts in @ws, the reader's in
 * @rs, both optional) and read back. */
static TraceBatch *
write_read (TraceBatch *in,
            const PerfettoWriterOptions *opts,
            PerfettoWriterStats *ws,
            PerfettoReaderStats *rs)
{
  g_autoptr (GBytes) bytes = pt_write (&in, 1, opts, ws);
  g_autoptr (GError) error = NULL;
  TraceBatch *out = pt_read (bytes, in->pool, rs, NULL, &error);

  g_assert_no_error (error);
  return out;
}

static void
assert_round_trip (TraceBatch *in,
                   const PerfettoWriterOptions *opts,
                   PerfettoWriterStats *wstats,
                   PerfettoReaderStats *rstats)
{
  g_autoptr (TraceBatch) out = write_read (in, opts, wstats, rstats);
  g_autoptr (TraceBatch) expected = pt_expected_events (in, FALSE, NULL);
  g_autoptr (GPtrArray) want = pt_event_strings (expected, TRUE);
  g_autoptr (GPtrArray) got = pt_event_strings (out, TRUE);

  pt_assert_same_events (want, got);
}

static void
test_all_kinds (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = pt_all_kinds_batch (pool);
  PerfettoWriterStats ws;
  PerfettoReaderStats rs;
  guint seen[TRACE_EVENT_N_KINDS] = { 0 };

  /* The input has every kind there is. */
  for (guint i = 0; i < in->n_events; i++)
    seen[in->events[i].kind]++;
  for (guint k = TRACE_EVENT_SLICE_BEGIN; k < TRACE_EVENT_N_KINDS; k++)
    g_assert_cmpuint (seen[k], >, 0);

  assert_round_trip (in, NULL, &ws, &rs);
  g_assert_cmpuint (ws.events_in, ==, in->n_events);
  /* Two of the three sched events on cpu 0 continue the one before. */
  g_assert_cmpuint (ws.compact_sched, ==, 2);
  g_assert_cmpuint (ws.samples, ==, 2);
  g_assert_cmpuint (ws.dropped_unmatched_end + ws.dropped_unmatched_async_end + ws.dropped_kernel + ws.dropped_kernel_args + ws.dropped_unknown_stack_node + ws.dropped_clock_marker + ws.dropped_switches_without_prev,
                    ==, 0);
  /* the thread state, which has no Perfetto form */
  g_assert_cmpuint (ws.dropped_other, ==, 1);
  g_assert_cmpuint (rs.unknown_packets + rs.unknown_track + rs.unknown_iid + rs.unsupported_events + rs.no_incremental_state + rs.truncated_bytes + rs.other_clock,
                    ==, 0);
  g_assert_cmpuint (rs.packets, ==, ws.packets);
  g_assert_cmpuint (rs.bytes, ==, ws.bytes);
}

static void
test_all_kinds_not_interned (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = pt_all_kinds_batch (pool);
  PerfettoWriterOptions opts;
  PerfettoWriterStats interned, inline_strings;

  assert_round_trip (in, NULL, &interned, NULL);
  perfetto_writer_options_init (&opts);
  opts.intern = FALSE;
  opts.compact_sched = FALSE;
  assert_round_trip (in, &opts, &inline_strings, NULL);
  g_assert_cmpuint (inline_strings.compact_sched, ==, 0);
  g_assert_cmpuint (interned.compact_sched, ==, 2);
}

/* Each batch is a unit of its own: events split over many batches come
 * back the same. */
static void
test_many_batches (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = pt_all_kinds_batch (pool);
  g_autoptr (GPtrArray) batches = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_batch_unref);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (TraceBatch) expected = pt_expected_events (in, FALSE, NULL);
  g_autoptr (GPtrArray) want = pt_event_strings (expected, TRUE);
  g_autoptr (GPtrArray) got = NULL;
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < in->n_events; i += 3)
    {
      TraceBatch *b = trace_batch_new (pool, 0);

      for (guint k = i; k < MIN (i + 3, in->n_events); k++)
        trace_batch_append_event (b, &in->events[k], in);
      g_ptr_array_add (batches, b);
    }
  bytes = pt_write ((TraceBatch **) batches->pdata, batches->len, NULL, NULL);
  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  got = pt_event_strings (out, TRUE);
  pt_assert_same_events (want, got);
}

/* The slices and instants of thread @tid in @out, as "kind ts name", are
 * @want, in order. */
static void
assert_thread_slices (TraceBatch *out,
                      gint64 tid,
                      const char *const *want,
                      gsize n_want)
{
  g_autoptr (GPtrArray) got = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];

      if (ev->tid == tid && trace_event_is_slice_like (ev->kind))
        g_ptr_array_add (got, g_strdup_printf ("%s %" G_GINT64_FORMAT " %s", trace_event_kind_to_string (ev->kind),
                                               ev->ts, trace_batch_get_string (out, ev->name)));
    }
  g_assert_cmpuint (got->len, ==, n_want);
  for (guint i = 0; i < n_want; i++)
    g_assert_cmpstr (got->pdata[i], ==, want[i]);
}

/* The order of one thread's events: complete slices end when due, one
 * that partially overlaps its parent stays whole (on an overflow track of
 * the thread, read back as the thread's), begun slices left inside an
 * ended complete slice are cut at its end, ends without a begin are
 * dropped. */
static void
test_thread_order (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  PerfettoWriterStats ws;
  const char *want[] = {
    "slice-begin 0 a",
    "slice-begin 10 b",
    "slice-end 30 ",
    "slice-begin 40 c",
    "slice-end 50 ",
    "instant 60 d",
    "slice-begin 90 e",
    "slice-end 120 ",
    "slice-end 100 ",
    "slice-begin 200 f",
    "slice-end 210 ",
    "slice-begin 1000 p",
    "slice-begin 1010 q",
    "slice-end 1100 ",
    "slice-end 1100 ",
    "instant 1200 r",
    "slice-begin 2000 z",
    "slice-end 2050 ",
  };

  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 0, 1, 1, "a")->u.slice.dur = 100;
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 10, 1, 1, "b")->u.slice.dur = 20;
  pt_add (in, TRACE_EVENT_SLICE_BEGIN, 40, 1, 1, "c");
  pt_add (in, TRACE_EVENT_SLICE_END, 50, 1, 1, NULL);
  pt_add (in, TRACE_EVENT_INSTANT, 60, 1, 1, "d");
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 90, 1, 1, "e")->u.slice.dur = 30;
  pt_add (in, TRACE_EVENT_SLICE_BEGIN, 200, 1, 1, "f");
  pt_add (in, TRACE_EVENT_SLICE_END, 210, 1, 1, NULL);
  /* Another thread between them changes nothing. */
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 500, 1, 2, "other")->u.slice.dur = 10;
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 1000, 1, 1, "p")->u.slice.dur = 100;
  pt_add (in, TRACE_EVENT_SLICE_BEGIN, 1010, 1, 1, "q");
  pt_add (in, TRACE_EVENT_INSTANT, 1200, 1, 1, "r");
  pt_add (in, TRACE_EVENT_SLICE_END, 1300, 1, 1, NULL);
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 2000, 1, 1, "z")->u.slice.dur = 50;

  out = write_read (in, NULL, &ws, NULL);
  assert_thread_slices (out, 1, want, G_N_ELEMENTS (want));
  g_assert_cmpuint (ws.truncated_complete, ==, 0);
  g_assert_cmpuint (ws.spilled_complete, ==, 1);
  g_assert_cmpuint (ws.closed_open_slices, ==, 1);
  g_assert_cmpuint (ws.dropped_unmatched_end, ==, 1);
}

/* A JSON stream's complete slice that partially overlaps an open one
 * goes whole on an overflow track as a legacy `X` (trace_processor takes
 * it there, as the track is not merged with its siblings): read back, it
 * is a complete slice of the thread again, which a second writing spills
 * again, not a begin and an end that would nest on the thread's stack. */
static void
test_spilled_complete_read_back (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  PerfettoWriterOptions opts;
  PerfettoWriterStats ws;
  const char *want[] = { "slice-complete 0 alpha", "slice-complete 5000 beta" };

  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 0, 1, 1, "alpha")->u.slice.dur = 10000;
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 5000, 1, 1, "beta")->u.slice.dur = 10000;
  perfetto_writer_options_init (&opts);
  opts.json_order = TRUE;
  out = write_read (in, &opts, &ws, NULL);
  g_assert_cmpuint (ws.spilled_complete, ==, 1);
  assert_thread_slices (out, 1, want, G_N_ELEMENTS (want));
  g_assert_cmpint (out->events[1].u.slice.dur, ==, 10000);
}

/* An end naming a begun slice below the top ends that one (it stays on
 * the stack, complete); the next event of the thread then cuts the slice
 * begun inside it at its end, as trace_processor does. */
static void
test_end_below_top (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  PerfettoWriterStats ws;
  const char *want[] = {
    "slice-begin 0 a",
    "slice-begin 10 b",
    "slice-end 20 a",
    "slice-end 20 ",
    "instant 30 c",
  };

  pt_add (in, TRACE_EVENT_SLICE_BEGIN, 0, 1, 1, "a");
  pt_add (in, TRACE_EVENT_SLICE_BEGIN, 10, 1, 1, "b");
  pt_add (in, TRACE_EVENT_SLICE_END, 20, 1, 1, "a");
  pt_add (in, TRACE_EVENT_INSTANT, 30, 1, 1, "c");
  out = write_read (in, NULL, &ws, NULL);
  /* every event read back is one of these */
  g_assert_cmpuint (out->n_events, ==, G_N_ELEMENTS (want));
  assert_thread_slices (out, 1, want, G_N_ELEMENTS (want));
  g_assert_cmpuint (ws.closed_open_slices, ==, 1);
}

/* With thread-time, a slice's thread time goes with its begin and end
 * as a value of the thread's `thread_time` counter track: the begin
 * carries tts, the end tts + tdur (trace_processor's thread_dur). */
static void
test_thread_time (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GBytes) bytes = NULL;
  Perfetto__Protos__Trace *trace;
  PerfettoWriterOptions opts;
  TraceEvent *ev;
  guint64 tt_uuid = 0;
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));

  ev = pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 1000, 1, 1, "x");
  ev->u.slice.dur = 500;
  ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
  ev->u.slice.thread_ts = 70;
  ev->u.slice.thread_dur = 30;
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 2000, 1, 1, "none")->u.slice.dur = 10;
  perfetto_writer_options_init (&opts);
  opts.thread_time = TRUE;
  bytes = pt_write (&in, 1, &opts, NULL);
  trace = pt_unpack (bytes);
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      Perfetto__Protos__TracePacket *p = trace->packet[i];

      if (p->track_descriptor && p->track_descriptor->counter &&
          p->track_descriptor->static_or_dynamic_name_case == PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME &&
          g_strcmp0 (p->track_descriptor->name, "thread_time") == 0)
        tt_uuid = p->track_descriptor->uuid;
      if (p->track_event && p->track_event->n_extra_counter_values == 1)
        {
          g_assert_cmpuint (p->track_event->extra_counter_track_uuids[0], ==, tt_uuid);
          g_array_append_val (values, p->track_event->extra_counter_values[0]);
        }
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  g_assert_cmpuint (tt_uuid, !=, 0);
  g_assert_cmpuint (values->len, ==, 2);
  g_assert_cmpint (g_array_index (values, gint64, 0), ==, 70);
  g_assert_cmpint (g_array_index (values, gint64, 1), ==, 100);
}

/* The thread time of events that are no thread slices (an async begin
 * and end, a process and a global instant, a flow) is a value of the
 * recording thread's `thread_time` counter too, as trace_processor reads
 * Chrome's: each goes to that one track, and reads back on its event
 * with that thread as its tid. */
static void
test_thread_time_off_thread (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  const TraceEventKind kinds[] = { TRACE_EVENT_ASYNC_BEGIN, TRACE_EVENT_INSTANT, TRACE_EVENT_FLOW_START,
                                   TRACE_EVENT_ASYNC_END, TRACE_EVENT_INSTANT };
  Perfetto__Protos__Trace *trace;
  PerfettoWriterOptions opts;
  guint64 tt_uuid = 0;
  guint n_values = 0, n_read = 0;

  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 900, 1, 2, "on-thread")->u.slice.dur = 1000;
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      TraceEvent *ev = pt_add (in, kinds[i], 1000 + 100 * i, 1, 2, "e");

      ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
      if (kinds[i] == TRACE_EVENT_INSTANT)
        {
          ev->flags |= i == 1 ? TRACE_EVENT_FLAG_SCOPE_PROCESS : TRACE_EVENT_FLAG_SCOPE_GLOBAL;
          ev->u.slice.thread_ts = 70 + 10 * i;
          ev->u.slice.thread_dur = -1;
        }
      else
        {
          ev->u.async.id = 7;
          ev->u.async.thread_ts = 70 + 10 * i;
        }
    }
  perfetto_writer_options_init (&opts);
  opts.thread_time = TRUE;
  bytes = pt_write (&in, 1, &opts, NULL);
  trace = pt_unpack (bytes);
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      Perfetto__Protos__TracePacket *p = trace->packet[i];

      if (p->track_descriptor && p->track_descriptor->counter && g_strcmp0 (p->track_descriptor->name, "thread_time") == 0)
        {
          g_assert_cmpuint (tt_uuid, ==, 0); /* one track, the thread's */
          tt_uuid = p->track_descriptor->uuid;
        }
      if (p->track_event && p->track_event->n_extra_counter_values == 1)
        {
          g_assert_cmpuint (p->track_event->extra_counter_track_uuids[0], ==, tt_uuid);
          n_values++;
        }
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  g_assert_cmpuint (n_values, ==, G_N_ELEMENTS (kinds));

  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];

      if (ev->ts < 1000 || ev->kind == TRACE_EVENT_SLICE_END)
        continue;
      g_assert_cmpint (ev->tid, ==, 2);
      g_assert_cmpint (trace_event_get_thread_ts (ev), ==, 70 + 10 * (ev->ts - 1000) / 100);
      n_read++;
    }
  g_assert_cmpuint (n_read, ==, G_N_ELEMENTS (kinds));
}

/* An end that closes no begun slice but carries thread time is written
 * as given (trace_processor ignores it, as it ignored the original's,
 * but makes a thread_time value of it); one without is dropped. */
static void
test_thread_time_unmatched_end (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  Perfetto__Protos__Trace *trace;
  PerfettoWriterOptions opts;
  PerfettoWriterStats ws;
  TraceEvent *ev;
  guint ends = 0;

  for (guint i = 0; i < 3; i++)
    {
      ev = pt_add (in, i == 0 ? TRACE_EVENT_SLICE_BEGIN : TRACE_EVENT_SLICE_END, 100 * (i + 1), 1, 1, i < 2 ? "a" : "b");
      ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
      ev->u.slice.thread_ts = 10 * (i + 1);
      ev->u.slice.thread_dur = -1;
    }
  pt_add (in, TRACE_EVENT_SLICE_END, 400, 1, 1, "c");
  perfetto_writer_options_init (&opts);
  opts.thread_time = TRUE;
  bytes = pt_write (&in, 1, &opts, &ws);
  trace = pt_unpack (bytes);
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      Perfetto__Protos__TrackEvent *te = trace->packet[i]->track_event;

      if (te && te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END)
        ends++;
      if (te && te->n_extra_counter_values == 1)
        g_array_append_val (values, te->extra_counter_values[0]);
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  g_assert_cmpuint (ends, ==, 2);
  g_assert_cmpuint (values->len, ==, 3);
  g_assert_cmpint (g_array_index (values, gint64, 2), ==, 30);
  g_assert_cmpuint (ws.dropped_unmatched_end, ==, 1);
}

/* A JSON stream's slices come out in trace_processor's order: at one
 * time, complete slices longest first (so the longer one nests outside),
 * an end before the rest; past the window, a late event is written where
 * it comes and counted. */
static void
test_json_order (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  const char *want[] = { "slice-begin 100 long", "slice-begin 100 short", "slice-end 110 ", "slice-end 150 ",
                         "slice-begin 200 b", "slice-end 300 ", "slice-begin 300 c" };
  PerfettoWriterOptions opts;
  PerfettoWriterStats ws;

  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 100, 1, 1, "short")->u.slice.dur = 10;
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 100, 1, 1, "long")->u.slice.dur = 50;
  pt_add (in, TRACE_EVENT_SLICE_BEGIN, 200, 1, 1, "b");
  pt_add (in, TRACE_EVENT_SLICE_BEGIN, 300, 1, 1, "c");
  pt_add (in, TRACE_EVENT_SLICE_END, 300, 1, 1, NULL);
  for (guint i = 0; i < 70000; i++)
    pt_add (in, TRACE_EVENT_INSTANT, 1000 + i, 1, 2, "tick");
  pt_add (in, TRACE_EVENT_INSTANT, 500, 1, 2, "late");
  perfetto_writer_options_init (&opts);
  opts.json_order = TRUE;
  out = write_read (in, &opts, &ws, NULL);
  assert_thread_slices (out, 1, want, G_N_ELEMENTS (want));
  g_assert_cmpuint (ws.late_events, ==, 1);
}

/* Past twice the window the writer compacts its store of waiting events
 * in place, several times over this stream: every event must come out
 * with its own args and their texts, in order, whether it waited in the
 * run (in order), in the heap (a little early or late) or all along (a
 * slice at a time after every other event's, written last). */
static void
test_json_order_compaction (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  const guint n = 5 * PERFETTO_ORDER_WINDOW;
  PerfettoWriterOptions opts;
  PerfettoWriterStats ws;
  TraceEvent *ev;
  gint64 last_ts = G_MININT64;
  guint n_ticks = 0;

  ev = pt_add (in, TRACE_EVENT_SLICE_BEGIN, G_GINT64_CONSTANT (1000000000), 1, 1, "waits");
  trace_batch_add_arg_int (in, ev, "held", 42);
  test_add_arg_text (in, ev, "why", "after all");
  for (guint i = 0; i < n; i++)
    {
      /* every seventh event 3 ns early: the heap takes it */
      gint64 ts = 1000 + 10 * (gint64) i - (i % 7 == 0 ? 13 : 0);

      ev = pt_add (in, TRACE_EVENT_INSTANT, ts, 1, 2, "tick");
      trace_batch_add_arg_int (in, ev, "ts", ts);
      if (i % 5 == 0)
        {
          g_autofree char *v = g_strdup_printf ("v%" G_GINT64_FORMAT, ts);

          test_add_arg_text (in, ev, "s", v);
        }
    }
  perfetto_writer_options_init (&opts);
  opts.json_order = TRUE;
  out = write_read (in, &opts, &ws, NULL);
  g_assert_cmpuint (ws.late_events, ==, 0);
  for (guint i = 0; i < out->n_events; i++)
    {
      g_autofree char *line = NULL;
      g_autofree char *want_ts = NULL;
      g_autofree char *want_s = NULL;

      ev = &out->events[i];
      if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
        {
          line = pt_event_string (out, ev);
          g_assert_nonnull (strstr (line, "held=i:42"));
          g_assert_nonnull (strstr (line, "why=s:'after all'"));
          g_assert_cmpuint (n_ticks, ==, n);
          continue;
        }
      if (ev->kind != TRACE_EVENT_INSTANT)
        continue;
      g_assert_cmpint (ev->ts, >=, last_ts);
      last_ts = ev->ts;
      line = pt_event_string (out, ev);
      want_ts = g_strdup_printf ("ts=i:%" G_GINT64_FORMAT, ev->ts);
      g_assert_nonnull (strstr (line, want_ts));
      if (((ev->ts - 1000) % 10 == 0 ? (ev->ts - 1000) / 10 : (ev->ts - 1000 + 13) / 10) % 5 == 0)
        {
          want_s = g_strdup_printf ("s=s:'v%" G_GINT64_FORMAT "'", ev->ts);
          g_assert_nonnull (strstr (line, want_s));
        }
      n_ticks++;
    }
  g_assert_cmpuint (n_ticks, ==, n);
}

/* Events in order go to the run, a FIFO; once half of it or more has
 * been taken (the window is full), the taken part is dropped in one
 * move. Every event comes out once, in order, with its own args. */
static void
test_json_order_run (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  const guint n = 3 * PERFETTO_ORDER_WINDOW + 1000;
  PerfettoWriterOptions opts;
  PerfettoWriterStats ws;
  guint seen = 0;

  for (guint i = 0; i < n; i++)
    trace_batch_add_arg_int (in, pt_add (in, TRACE_EVENT_INSTANT, 1000 + 10 * (gint64) i, 1, 2, "tick"), "i", i);
  perfetto_writer_options_init (&opts);
  opts.json_order = TRUE;
  out = write_read (in, &opts, &ws, NULL);
  g_assert_cmpuint (ws.late_events, ==, 0);
  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];
      g_autofree char *line = NULL;
      g_autofree char *want = NULL;

      if (ev->kind != TRACE_EVENT_INSTANT)
        continue;
      g_assert_cmpint (ev->ts, ==, 1000 + 10 * (gint64) seen);
      line = pt_event_string (out, ev);
      want = g_strdup_printf ("i=i:%u", seen);
      g_assert_nonnull (strstr (line, want));
      seen++;
    }
  g_assert_cmpuint (seen, ==, n);
}

/* A JSON stream's events (json_order), written in batches of @sizes
 * (in turn) copied from @stream, each let go by the caller once
 * written: the writer keeps what it needs. */
static GBytes *
write_split (TraceBatch *stream,
             const guint *sizes,
             guint n_sizes,
             PerfettoWriterStats *ws)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (PerfettoWriter) w = NULL;
  PerfettoWriterOptions opts;
  guint i = 0;

  perfetto_writer_options_init (&opts);
  opts.json_order = TRUE;
  w = perfetto_writer_new (out, &opts);
  for (guint b = 0; i < stream->n_events; b++)
    {
      TraceBatch *batch = trace_batch_new (stream->pool, 0);

      for (guint k = 0; k < sizes[b % n_sizes] && i < stream->n_events; k++, i++)
        trace_batch_append_event (batch, &stream->events[i], stream);
      g_assert_true (perfetto_writer_write_batch (w, batch, NULL));
      trace_batch_unref (batch);
    }
  g_assert_true (perfetto_writer_finish (w, NULL));
  perfetto_writer_get_stats (w, ws);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* An event of the streams below, with an int and a text arg. */
static TraceEvent *
add_stream_event (TraceBatch *stream,
                  TraceEventKind kind,
                  gint64 ts,
                  guint i,
                  GRand *rand)
{
  TraceEvent *ev = pt_add (stream, kind, ts, 1, 2 + i % 3, kind == TRACE_EVENT_SLICE_COMPLETE ? "s" : "tick");
  g_autofree char *text = g_strdup_printf ("v%u-%u", i, g_rand_int (rand));

  if (kind == TRACE_EVENT_SLICE_COMPLETE)
    ev->u.slice.dur = 5 + i % 4;
  trace_batch_add_arg_int (stream, ev, "i", i);
  test_add_arg_text (stream, ev, "t", text);
  return ev;
}

/* Instants of one timestamp are written in the order they came (as
 * trace_processor's sorter keeps them): their "i" args ascend. */
static void
assert_ties_in_stream_order (GBytes *bytes)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) back = pt_read (bytes, pool, NULL, NULL, &error);
  const TraceEvent *prev = NULL;
  gint64 prev_i = -1;
  guint ties = 0;

  g_assert_no_error (error);
  for (guint e = 0; e < back->n_events; e++)
    {
      const TraceEvent *ev = &back->events[e];
      const TraceArg *args = trace_batch_get_args (back, ev);
      gint64 i = -1;

      if (ev->kind != TRACE_EVENT_INSTANT)
        continue;
      for (guint a = 0; a < ev->n_args; a++)
        if (g_str_equal (trace_batch_get_string (back, args[a].key), "i"))
          i = args[a].v.i;
      g_assert_cmpint (i, >=, 0);
      if (prev != NULL && prev->ts == ev->ts)
        {
          g_assert_cmpint (prev_i, <, i);
          ties++;
        }
      prev = ev;
      prev_i = i;
    }
  g_assert_cmpuint (ties, >, 10000);
}

/* Waiting events stay in their batch (large batches, up to
 * PERFETTO_ORDER_MAX_BATCHES of them) or are copied into the store (the
 * heap's, small batches', past that many batches): where they wait
 * changes nothing in the file. Batches of 500 events are all copied;
 * 1 100 and 300 in turn mix both, and pass the limit of batches kept.
 * Two events a timestamp, in order; from a third on, complete slices
 * among them (the sorter's slow order: the run moves to the heap); from
 * two thirds on, every 13th a little early (the first disorder: the run
 * moves to the heap again, its ties now ordered by rank). */
static void
test_json_order_batches (void)
{
  static const guint copied[] = { 500 };
  static const guint mixed[] = { 1100, 300, 1100, 1100 };
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) stream = trace_batch_new (pool, 0);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autoptr (GBytes) all_copied = NULL;
  g_autoptr (GBytes) some_kept = NULL;
  const guint n = 3 * PERFETTO_ORDER_WINDOW;
  PerfettoWriterStats ws_copied, ws_mixed;

  for (guint i = 0; i < n; i++)
    add_stream_event (stream, i > n / 3 && i % 7 == 0 ? TRACE_EVENT_SLICE_COMPLETE : TRACE_EVENT_INSTANT,
                      1000 + 10 * (gint64) (i / 2) - (i > 2 * n / 3 && i % 13 == 0 ? 25 : 0), i, rand);
  all_copied = write_split (stream, copied, G_N_ELEMENTS (copied), &ws_copied);
  some_kept = write_split (stream, mixed, G_N_ELEMENTS (mixed), &ws_mixed);
  g_assert_cmpuint (ws_copied.track_events, >=, n);
  g_assert_cmpuint (ws_mixed.track_events, ==, ws_copied.track_events);
  g_assert_cmpuint (ws_mixed.late_events, ==, 0);
  g_assert_cmpuint (g_bytes_get_size (all_copied), >, 1000000);
  g_assert_true (g_bytes_equal (all_copied, some_kept));
  assert_ties_in_stream_order (some_kept);
}

/* The run moves to the heap (the first complete slice) while its events
 * are in a kept batch; the slice, at the timestamp of that batch's last
 * instant, comes first in the slow order, from the next batch. */
static void
test_json_order_rebuild_kept (void)
{
  static const guint copied[] = { 100 };
  static const guint kept[] = { 1100 };
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) stream = trace_batch_new (pool, 0);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autoptr (GBytes) all_copied = NULL;
  g_autoptr (GBytes) with_kept = NULL;
  PerfettoWriterStats ws;

  for (guint i = 0; i < 2200; i++)
    {
      /* the 6th early: the sort starts there; the 1 101st a complete
       * slice at the 1 100th's timestamp */
      gint64 ts = 1000 + 10 * (gint64) MIN (i, 1099) - (i == 5 ? 30 : 0) + (i > 1100 ? 10 * (gint64) (i - 1100) : 0);

      add_stream_event (stream, i == 1100 ? TRACE_EVENT_SLICE_COMPLETE : TRACE_EVENT_INSTANT, ts, i, rand);
    }
  all_copied = write_split (stream, copied, G_N_ELEMENTS (copied), &ws);
  with_kept = write_split (stream, kept, G_N_ELEMENTS (kept), &ws);
  g_assert_true (g_bytes_equal (all_copied, with_kept));
}

/* An async end keeps its name on its TrackEvent: trace_processor ends
 * the innermost open slice of that name on the track (here the outer
 * one, leaving the inner one open, as it does for a JSON `e`), where an
 * end without a name would end the innermost slice. */
static void
test_async_end_keeps_its_name (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  TraceEvent *ev;

  ev = pt_add (in, TRACE_EVENT_ASYNC_BEGIN, 10, 1, 1, "outer");
  ev->u.async.id = 7;
  ev = pt_add (in, TRACE_EVENT_ASYNC_BEGIN, 20, 1, 1, "inner");
  ev->u.async.id = 7;
  ev = pt_add (in, TRACE_EVENT_ASYNC_END, 30, 1, 1, "outer");
  ev->u.async.id = 7;
  out = write_read (in, NULL, NULL, NULL);
  g_assert_cmpuint (out->n_events, ==, 3);
  g_assert_cmpint (out->events[2].kind, ==, TRACE_EVENT_ASYNC_END);
  g_assert_cmpstr (trace_batch_get_string (out, out->events[2].name), ==, "outer");
}

static void
test_async_ends_without_begin (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  PerfettoWriterStats ws;
  TraceEvent *ev;

  ev = pt_add (in, TRACE_EVENT_ASYNC_END, 10, 1, 1, "x");
  ev->u.async.id = 3;
  ev = pt_add (in, TRACE_EVENT_ASYNC_BEGIN, 20, 1, 1, "wl");
  ev->flags = TRACE_EVENT_FLAG_ASYNC_LEGACY;
  ev->u.async.id = 4;
  /* atrace S repeated while open: ignored, as Perfetto does. */
  ev = pt_add (in, TRACE_EVENT_ASYNC_BEGIN, 30, 1, 1, "wl");
  ev->flags = TRACE_EVENT_FLAG_ASYNC_LEGACY;
  ev->u.async.id = 4;
  ev = pt_add (in, TRACE_EVENT_ASYNC_END, 40, 1, 1, "wl");
  ev->flags = TRACE_EVENT_FLAG_ASYNC_LEGACY;
  ev->u.async.id = 4;
  out = write_read (in, NULL, &ws, NULL);
  g_assert_cmpuint (ws.dropped_unmatched_async_end, ==, 1);
  g_assert_cmpuint (ws.dropped_repeated_legacy_begin, ==, 1);
  g_assert_cmpuint (out->n_events, ==, 2);
  g_assert_cmpint (out->events[0].kind, ==, TRACE_EVENT_ASYNC_BEGIN);
  g_assert_cmpint (out->events[0].ts, ==, 20);
  g_assert_cmpint (out->events[1].kind, ==, TRACE_EVENT_ASYNC_END);
  g_assert_cmpint (out->events[1].ts, ==, 40);
}

/* Three async events on id 1, binding flows as a TrackEvent does: the
 * begin sends 21 and 22, the instant passes 21 on, the end ends 22. */
static TraceBatch *
async_flows_batch (TraceStringPool *pool)
{
  TraceBatch *in = trace_batch_new (pool, 0);
  TraceEvent *ev;

  ev = pt_add (in, TRACE_EVENT_ASYNC_BEGIN, 10, 1, 1, "req");
  ev->u.async.id = 1;
  trace_batch_add_slice_flow (in, ev, 0, 21);
  trace_batch_add_slice_flow (in, ev, 0, 22);
  ev = pt_add (in, TRACE_EVENT_ASYNC_INSTANT, 20, 1, 1, "mark");
  ev->u.async.id = 1;
  trace_batch_add_slice_flow (in, ev, 21, 21);
  ev = pt_add (in, TRACE_EVENT_ASYNC_END, 30, 1, 1, "req");
  ev->u.async.id = 1;
  trace_batch_add_slice_flow (in, ev, 22, 0);
  return in;
}

/* The TrackEvents of @trace that bind flows, in order. */
static GPtrArray *
flow_track_events (Perfetto__Protos__Trace *trace)
{
  GPtrArray *tes = g_ptr_array_new ();

  for (gsize i = 0; i < trace->n_packet; i++)
    {
      const Perfetto__Protos__TrackEvent *te = trace->packet[i]->track_event;

      if (trace->packet[i]->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT &&
          (te->n_flow_ids || te->n_terminating_flow_ids || (te->legacy_event && te->legacy_event->has_bind_id)))
        g_ptr_array_add (tes, (gpointer) te);
    }
  return tes;
}

/* The flows read back on @out's event @i: its args only. */
static void
assert_read_flows (TraceBatch *out,
                   guint i,
                   TraceEventKind kind,
                   const guint64 *want,
                   guint n_want)
{
  const TraceEvent *ev = &out->events[i];
  guint64 in, fout;
  guint iter = 0, n = 0;

  g_assert_cmpint (ev->kind, ==, kind);
  while (trace_batch_next_slice_flow (out, ev, &iter, &in, &fout))
    {
      g_assert_cmpuint (n + 2, <=, n_want);
      g_assert_cmpuint (in, ==, want[n]);
      g_assert_cmpuint (fout, ==, want[n + 1]);
      n += 2;
    }
  g_assert_cmpuint (n, ==, n_want);
  /* and no other arg: the writer wrote none of them as an annotation */
  for (guint a = 0; a < ev->n_args; a++)
    g_assert_true (trace_batch_arg_is_slice_flow (out, ev, &trace_batch_get_args (out, ev)[a]));
}

/* Flows of async events go as the async TrackEvents' flow_ids and
 * terminating_flow_ids, which trace_processor binds to the async slice,
 * and are read back onto the async events. */
static void
test_async_flows (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = async_flows_batch (pool);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GBytes) bytes = pt_write (&in, 1, NULL, NULL);
  g_autoptr (GPtrArray) tes = NULL;
  g_autoptr (GError) error = NULL;
  Perfetto__Protos__Trace *trace;
  const Perfetto__Protos__TrackEvent *te;
  PerfettoReaderStats rs;
  const guint64 begin_flows[] = { 0, 21, 0, 22 }, mark_flows[] = { 21, 21 }, end_flows[] = { 22, 0 };

  trace = pt_unpack (bytes);
  tes = flow_track_events (trace);
  g_assert_cmpuint (tes->len, ==, 3);
  te = tes->pdata[0];
  g_assert_cmpint (te->type, ==, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN);
  g_assert_cmpuint (te->n_flow_ids, ==, 2);
  g_assert_cmpuint (te->flow_ids[0], ==, 21);
  g_assert_cmpuint (te->flow_ids[1], ==, 22);
  g_assert_cmpuint (te->n_debug_annotations, ==, 0);
  te = tes->pdata[1];
  g_assert_cmpint (te->type, ==, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT);
  g_assert_cmpuint (te->n_flow_ids, ==, 1);
  g_assert_cmpuint (te->flow_ids[0], ==, 21);
  g_assert_cmpuint (te->n_terminating_flow_ids, ==, 0);
  te = tes->pdata[2];
  g_assert_cmpint (te->type, ==, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END);
  g_assert_cmpuint (te->n_flow_ids, ==, 0);
  g_assert_cmpuint (te->n_terminating_flow_ids, ==, 1);
  g_assert_cmpuint (te->terminating_flow_ids[0], ==, 22);
  perfetto__protos__trace__free_unpacked (trace, NULL);

  out = pt_read (bytes, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (out->n_events, ==, 3);
  g_assert_cmpuint (rs.extra_flows, ==, 0);
  assert_read_flows (out, 0, TRACE_EVENT_ASYNC_BEGIN, begin_flows, G_N_ELEMENTS (begin_flows));
  assert_read_flows (out, 1, TRACE_EVENT_ASYNC_INSTANT, mark_flows, G_N_ELEMENTS (mark_flows));
  assert_read_flows (out, 2, TRACE_EVENT_ASYNC_END, end_flows, G_N_ELEMENTS (end_flows));
}

/* Async events perfetto-src read from legacy phases go back as legacy
 * events of the same letters on their recording thread, where
 * trace_processor's track compressor places them as in the original
 * (an `F` of the S family is an instant to it, an `e` an end), and read
 * back with the same flags. */
static void
test_legacy_phases_go_back (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GString) phases = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  const TraceEventFlags s = TRACE_EVENT_FLAG_LEGACY_PHASE | TRACE_EVENT_FLAG_PHASE_S;
  const struct
  {
    TraceEventKind kind;
    TraceEventFlags flags;
  } events[] = {
    { TRACE_EVENT_ASYNC_BEGIN, s },
    { TRACE_EVENT_ASYNC_STEP, s },
    { TRACE_EVENT_ASYNC_STEP, s | TRACE_EVENT_FLAG_STEP_PAST },
    { TRACE_EVENT_ASYNC_END, s },
    { TRACE_EVENT_ASYNC_BEGIN, TRACE_EVENT_FLAG_LEGACY_PHASE },
    { TRACE_EVENT_ASYNC_INSTANT, TRACE_EVENT_FLAG_LEGACY_PHASE },
    { TRACE_EVENT_ASYNC_END, TRACE_EVENT_FLAG_LEGACY_PHASE },
  };
  PerfettoWriterOptions opts;
  Perfetto__Protos__Trace *trace;

  perfetto_writer_options_init (&opts);
  opts.perfetto_order = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      TraceEvent *ev = pt_add (in, events[i].kind, 10 * (i + 1), 1, 2, "Pipeline");

      ev->flags = events[i].flags;
      ev->u.async.id = 7;
    }
  bytes = pt_write (&in, 1, &opts, NULL);
  trace = pt_unpack (bytes);
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      const Perfetto__Protos__TrackEvent *te = trace->packet[i]->track_event;

      if (trace->packet[i]->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT && te->legacy_event)
        {
          g_assert_true (te->legacy_event->has_local_id);
          g_string_append_c (phases, (char) te->legacy_event->phase);
        }
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  g_assert_cmpstr (phases->str, ==, "STpFbne");

  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (out->n_events, ==, G_N_ELEMENTS (events));
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      g_assert_cmpint (out->events[i].kind, ==, events[i].kind);
      g_assert_cmpint (out->events[i].tid, ==, 2);
      g_assert_cmphex (out->events[i].flags & (s | TRACE_EVENT_FLAG_STEP_PAST), ==, events[i].flags);
    }
}

/* Whether @trace names process @pid in a process_tree packet, and by
 * which process_name its descriptors name it (the last, or NULL). */
static gboolean
process_named_in_tree (Perfetto__Protos__Trace *trace,
                       gint64 pid,
                       const char **described)
{
  gboolean in_tree = FALSE;

  *described = NULL;
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      const Perfetto__Protos__TracePacket *pkt = trace->packet[i];

      if (pkt->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE)
        for (gsize j = 0; j < pkt->process_tree->n_processes; j++)
          in_tree |= pkt->process_tree->processes[j]->pid == pid;
      if (pkt->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR &&
          pkt->track_descriptor->process && pkt->track_descriptor->process->pid == pid &&
          pkt->track_descriptor->process->process_name)
        *described = pkt->track_descriptor->process->process_name;
    }
  return in_tree;
}

/* A process name an app gave its own descriptor goes back in a
 * descriptor only: a process_tree entry would outrank a name the system
 * gives (trace_processor's priorities) and add a cmdline and a parent.
 * A name the system gives goes in process_tree only (the descriptor's
 * would be outranked anyway); the system giving an app's name again
 * makes it the system's. */
static void
test_app_process_name (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  Perfetto__Protos__Trace *trace;
  const char *described;
  TraceEvent *ev;

  ev = pt_add (in, TRACE_EVENT_PROCESS_NAME, 10, 5, TRACE_ID_UNKNOWN, "./app");
  ev->flags = TRACE_EVENT_FLAG_APP_NAME;
  pt_add (in, TRACE_EVENT_PROCESS_NAME, 10, 6, TRACE_ID_UNKNOWN, "system_server");
  ev = pt_add (in, TRACE_EVENT_PROCESS_NAME, 10, 7, TRACE_ID_UNKNOWN, "Browser");
  ev->flags = TRACE_EVENT_FLAG_APP_NAME;
  pt_add (in, TRACE_EVENT_PROCESS_NAME, 20, 7, TRACE_ID_UNKNOWN, "Browser");
  bytes = pt_write (&in, 1, NULL, NULL);
  trace = pt_unpack (bytes);
  g_assert_false (process_named_in_tree (trace, 5, &described));
  g_assert_cmpstr (described, ==, "./app");
  g_assert_true (process_named_in_tree (trace, 6, &described));
  g_assert_null (described);
  g_assert_true (process_named_in_tree (trace, 7, &described));
  perfetto__protos__trace__free_unpacked (trace, NULL);

  /* read back with the same flags, process 7 by its descriptor first */
  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (out->n_events, ==, 4);
  g_assert_cmpint (out->events[0].pid, ==, 5);
  g_assert_cmphex (out->events[0].flags, ==, TRACE_EVENT_FLAG_APP_NAME);
  g_assert_cmpint (out->events[1].pid, ==, 7);
  g_assert_cmphex (out->events[1].flags, ==, TRACE_EVENT_FLAG_APP_NAME);
  g_assert_cmpint (out->events[2].pid, ==, 6);
  g_assert_cmphex (out->events[2].flags, ==, 0);
  g_assert_cmpint (out->events[3].pid, ==, 7);
  g_assert_cmphex (out->events[3].flags, ==, 0);
}

/* In JSON order (a Chrome JSON stream) a nestable async event goes as a
 * legacy `b`/`n`/`e`, and its flow as the legacy bind_id with its
 * direction, which trace_processor reads as the JSON importer reads a
 * v2 flow of that phase; read back, it is the same flow. */
static void
test_async_flows_json_order (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = async_flows_batch (pool);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GPtrArray) tes = NULL;
  g_autoptr (GError) error = NULL;
  Perfetto__Protos__Trace *trace;
  const Perfetto__Protos__TrackEvent__LegacyEvent *legacy;
  const Perfetto__Protos__TrackEvent *te;
  PerfettoWriterOptions opts;
  const guint64 mark_flows[] = { 21, 21 };

  perfetto_writer_options_init (&opts);
  opts.json_order = TRUE;
  bytes = pt_write (&in, 1, &opts, NULL);
  trace = pt_unpack (bytes);
  tes = flow_track_events (trace);
  /* the begin's second flow goes as flow_ids beside its bind_id */
  g_assert_cmpuint (tes->len, ==, 3);
  te = tes->pdata[0];
  g_assert_cmpint (te->legacy_event->phase, ==, 'b');
  g_assert_cmpuint (te->legacy_event->bind_id, ==, 21);
  g_assert_cmpint (te->legacy_event->flow_direction, ==, PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__FLOW_DIRECTION__FLOW_OUT);
  g_assert_cmpuint (te->n_flow_ids, ==, 1);
  g_assert_cmpuint (te->flow_ids[0], ==, 22);
  legacy = ((const Perfetto__Protos__TrackEvent *) tes->pdata[1])->legacy_event;
  g_assert_cmpint (legacy->phase, ==, 'n');
  g_assert_cmpuint (legacy->bind_id, ==, 21);
  g_assert_cmpint (legacy->flow_direction, ==, PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__FLOW_DIRECTION__FLOW_INOUT);
  perfetto__protos__trace__free_unpacked (trace, NULL);

  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (out->n_events, ==, 3);
  assert_read_flows (out, 1, TRACE_EVENT_ASYNC_INSTANT, mark_flows, G_N_ELEMENTS (mark_flows));
}

/* A small interning budget clears the state often; names survive. */
static void
test_interning_reset (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  PerfettoWriterOptions opts;
  PerfettoWriterStats ws;

  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *name = g_strdup_printf ("slice %u", i);
      TraceEvent *ev = pt_add (in, TRACE_EVENT_SLICE_COMPLETE, i * 10, 7, 8 + i % 3, name);

      ev->u.slice.dur = 5;
      trace_batch_add_arg_string (in, ev, i % 2 ? "odd" : "even", name);
    }
  perfetto_writer_options_init (&opts);
  opts.max_interned = 50;
  assert_round_trip (in, &opts, &ws, NULL);
  /* 300 names, 300 string values and the 2 arg names sent again in each
   * generation: a bit over 602 strings, in generations of 50 to 52. */
  g_assert_cmpuint (ws.state_resets, >=, 10);
  g_assert_cmpuint (ws.state_resets, <=, 13);
}

static void
test_monotonic_stream (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = pt_all_kinds_batch (pool);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GError) error = NULL;
  PerfettoWriterOptions opts;
  PerfettoReaderStats rs;
  TraceClockDomain clock = TRACE_CLOCK_UNKNOWN;

  /* The pair's other clock must differ from the stream's. */
  for (guint i = 0; i < in->n_events; i++)
    if (in->events[i].kind == TRACE_EVENT_CLOCK_MARKER && in->events[i].u.clock.marker == TRACE_CLOCK_MARKER_PAIR)
      in->events[i].u.clock.domain = TRACE_CLOCK_BOOTTIME;
  perfetto_writer_options_init (&opts);
  opts.clock = TRACE_CLOCK_MONOTONIC;
  bytes = pt_write (&in, 1, &opts, NULL);
  out = pt_read (bytes, pool, &rs, &clock, &error);
  g_assert_no_error (error);
  g_assert_cmpint (clock, ==, TRACE_CLOCK_MONOTONIC);
  g_assert_cmpuint (rs.other_clock, ==, 0);
  {
    g_autoptr (TraceBatch) expected = pt_expected_events (in, FALSE, NULL);
    g_autoptr (GPtrArray) want = pt_event_strings (expected, TRUE);
    g_autoptr (GPtrArray) got = pt_event_strings (out, TRUE);

    pt_assert_same_events (want, got);
  }
}

/* Without ftrace bundles kernel records are dropped and counted. */
static void
test_no_ftrace (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = pt_all_kinds_batch (pool);
  g_autoptr (TraceBatch) out = NULL;
  PerfettoWriterOptions opts;
  PerfettoWriterStats ws;
  guint kernel = 0, print_markers = 0;

  for (guint i = 0; i < in->n_events; i++)
    {
      TraceEventGroup group = trace_event_kind_get_group (in->events[i].kind);

      /* a thread state is no kernel record (and has no Perfetto form) */
      kernel += (group & (TRACE_EVENT_GROUP_SCHED | TRACE_EVENT_GROUP_CPU | TRACE_EVENT_GROUP_FTRACE)) != 0 &&
                in->events[i].kind != TRACE_EVENT_THREAD_STATE;
      print_markers += in->events[i].kind == TRACE_EVENT_CLOCK_MARKER && in->events[i].u.clock.marker != TRACE_CLOCK_MARKER_PAIR;
    }
  perfetto_writer_options_init (&opts);
  opts.emit_ftrace = FALSE;
  out = write_read (in, &opts, &ws, NULL);
  g_assert_cmpuint (ws.dropped_kernel, ==, kernel);
  g_assert_cmpuint (ws.dropped_clock_marker, ==, print_markers);
  g_assert_cmpuint (ws.ftrace_events, ==, 0);
  for (guint i = 0; i < out->n_events; i++)
    g_assert_false (trace_event_kind_get_group (out->events[i].kind) & (TRACE_EVENT_GROUP_SCHED | TRACE_EVENT_GROUP_CPU | TRACE_EVENT_GROUP_FTRACE));
}

/* Returns: the pids (@processes) and (pid, tid) pairs (@threads) of the
 * process and thread descriptors in @bytes */
static void
described_ids (GBytes *bytes,
               GArray *processes,
               GArray *threads)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  Perfetto__Protos__Trace *trace = perfetto__protos__trace__unpack (NULL, len, data);

  g_assert_nonnull (trace);
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      const Perfetto__Protos__TrackDescriptor *d =
          trace->packet[i]->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR
              ? trace->packet[i]->track_descriptor
              : NULL;

      if (d && d->process)
        g_array_append_val (processes, d->process->pid);
      if (d && d->thread)
        {
          g_array_append_val (threads, d->thread->pid);
          g_array_append_val (threads, d->thread->tid);
        }
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
}

/* Perfetto's pids and tids are 32 bits: a process and a thread of ids
 * above (4294967297 was pid 1 once cut) are written as ids of their own
 * from 2147483647 down, counted; pid 1 and its thread stay as they are,
 * apart from them. */
static void
test_ids_past_32_bits (void)
{
  const gint64 big = G_GINT64_CONSTANT (4294967297);
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GArray) processes = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr (GArray) threads = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr (GPtrArray) got = NULL;
  g_autoptr (GError) error = NULL;
  PerfettoWriterStats ws;
  const char *want[] = {
    "process-name ts=0 pid=1 tid=-1 cpu=-1 name='one' cat='' flags=0x0",
    "process-name ts=0 pid=2147483647 tid=-1 cpu=-1 name='big' cat='' flags=0x0",
    "slice-begin ts=10 pid=1 tid=1 cpu=-1 name='a' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
    "slice-end ts=11 pid=1 tid=1 cpu=-1 name='' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
    "slice-begin ts=20 pid=2147483647 tid=2147483646 cpu=-1 name='b' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
    "slice-end ts=21 pid=2147483647 tid=2147483646 cpu=-1 name='' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
  };

  pt_add (in, TRACE_EVENT_PROCESS_NAME, 0, 1, TRACE_ID_UNKNOWN, "one");
  pt_add (in, TRACE_EVENT_PROCESS_NAME, 0, big, TRACE_ID_UNKNOWN, "big");
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 10, 1, 1, "a")->u.slice.dur = 1;
  pt_add (in, TRACE_EVENT_SLICE_COMPLETE, 20, big, big + 1, "b")->u.slice.dur = 1;
  bytes = pt_write (&in, 1, NULL, &ws);
  g_assert_cmpuint (ws.mapped_ids, ==, 2);
  g_assert_cmpint (ws.first_mapped_id, ==, big);
  g_assert_cmpint (ws.first_mapped_as, ==, G_MAXINT32);
  described_ids (bytes, processes, threads);
  g_assert_cmpuint (processes->len, ==, 2);
  g_assert_cmpint (g_array_index (processes, gint32, 0), ==, 1);
  g_assert_cmpint (g_array_index (processes, gint32, 1), ==, G_MAXINT32);
  g_assert_cmpuint (threads->len, ==, 4);
  g_assert_cmpint (g_array_index (threads, gint32, 0), ==, 1);
  g_assert_cmpint (g_array_index (threads, gint32, 1), ==, 1);
  g_assert_cmpint (g_array_index (threads, gint32, 2), ==, G_MAXINT32);
  g_assert_cmpint (g_array_index (threads, gint32, 3), ==, G_MAXINT32 - 1);
  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  got = pt_event_strings (out, TRUE);
  for (guint i = 0; i < got->len; i++)
    g_test_message ("%s", (char *) got->pdata[i]);
  g_assert_cmpuint (got->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_true (g_ptr_array_find_with_equal_func (got, want[i], g_str_equal, NULL));
}

/* An id that fits but is the one a larger id was given is moved on too
 * (and so on): no two ids of the input meet in the file. */
static void
test_ids_taken_by_a_mapped_one (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GArray) processes = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr (GArray) threads = g_array_new (FALSE, FALSE, sizeof (gint32));
  PerfettoWriterStats ws;

  pt_add (in, TRACE_EVENT_PROCESS_NAME, 0, G_GINT64_CONSTANT (1) << 40, TRACE_ID_UNKNOWN, "big");
  pt_add (in, TRACE_EVENT_PROCESS_NAME, 0, G_MAXINT32, TRACE_ID_UNKNOWN, "max");
  pt_add (in, TRACE_EVENT_PROCESS_NAME, 0, G_MAXINT32 - 1, TRACE_ID_UNKNOWN, "max-1");
  bytes = pt_write (&in, 1, NULL, &ws);
  /* 2147483647 was taken by 2^40, then 2147483646 by 2147483647 */
  g_assert_cmpuint (ws.mapped_ids, ==, 3);
  described_ids (bytes, processes, threads);
  g_assert_cmpuint (processes->len, ==, 3);
  g_assert_cmpint (g_array_index (processes, gint32, 0), ==, G_MAXINT32);
  g_assert_cmpint (g_array_index (processes, gint32, 1), ==, G_MAXINT32 - 1);
  g_assert_cmpint (g_array_index (processes, gint32, 2), ==, G_MAXINT32 - 2);
}

static void
add_switch (TraceBatch *b,
            gint64 ts,
            gint32 prev,
            gint32 next)
{
  TraceEvent *ev = pt_add (b, TRACE_EVENT_SCHED_SWITCH, ts, 1, prev, NULL);

  ev->cpu = 0;
  ev->u.sched_switch.prev_tid = prev;
  ev->u.sched_switch.next_tid = next;
  ev->u.sched_switch.prev_comm = pt_str (b, prev == 10 ? "ten" : "other");
  ev->u.sched_switch.next_comm = pt_str (b, next == 10 ? "ten" : "other");
}

/* Once a cpu's sched events come out of time order, no more of them go
 * compact (trace_processor replays by time); all come back. */
static void
test_unsorted_sched (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  PerfettoWriterStats ws;

  add_switch (in, 100, 10, 11);
  add_switch (in, 200, 11, 10); /* continues: compact */
  add_switch (in, 150, 10, 11); /* earlier: full, the cpu is unsorted */
  add_switch (in, 300, 11, 10); /* would continue, stays full */
  assert_round_trip (in, NULL, &ws, NULL);
  g_assert_cmpuint (ws.compact_sched, ==, 1);
  g_assert_cmpuint (ws.ftrace_events, ==, 4);
}

/* The bytes depend on the events alone, not on the ids the string pool
 * gave their strings: which id a string gets depends on which thread
 * interned it first (a source, a queue's other side, the writer thread),
 * so a pool that holds other strings first must give the same file. */
static void
test_same_bytes_whatever_the_pool_ids (void)
{
  g_autoptr (TraceStringPool) plain = trace_string_pool_new ();
  g_autoptr (TraceStringPool) shifted = trace_string_pool_new ();
  g_autoptr (TraceBatch) a = NULL;
  g_autoptr (TraceBatch) b = NULL;
  g_autoptr (GBytes) bytes_a = NULL;
  g_autoptr (GBytes) bytes_b = NULL;

  /* strings the events use, interned in another order, and others */
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *junk = g_strdup_printf ("interned elsewhere %u", i);

      trace_string_pool_intern (shifted, junk);
    }
  trace_string_pool_intern (shifted, "main");
  trace_string_pool_intern (shifted, "url");
  a = pt_all_kinds_batch (plain);
  b = pt_all_kinds_batch (shifted);
  bytes_a = pt_write (&a, 1, NULL, NULL);
  bytes_b = pt_write (&b, 1, NULL, NULL);
  g_assert_cmpuint (g_bytes_get_size (bytes_a), >, 1000);
  g_assert_true (g_bytes_equal (bytes_a, bytes_b));
}

/* No raw control byte: JSON allows none inside a string. */
static void
assert_no_raw_controls (const char *text)
{
  for (const char *p = text; *p; p++)
    if ((guchar) *p < 0x20)
      g_error ("raw control byte 0x%02x in %s", *p, text);
}

/* Metadata members written as JSON text (objects, arrays) escape every
 * control character: trace_processor refuses the whole of a trace whose
 * JSON metadata holds a raw U+001F. Strings are protobuf strings and
 * keep their bytes. The reader gives the object back as strict JSON. */
static void
test_metadata_controls (void)
{
  g_autoptr (GString) ctl = g_string_new (NULL);
  g_autoptr (GString) raw = g_string_new (NULL);
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (PerfettoWriter) w = perfetto_writer_new (out, NULL);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (PerfettoReader) r = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *metadata = NULL, *back = NULL, *s = NULL;
  Perfetto__Protos__Trace *trace;
  TraceBatch *b = NULL;
  guint json_values = 0;

  /* escaped as json-glib escapes them, so the text comes back equal */
  for (int i = 1; i < 32; i++)
    {
      const char *shorter = strchr ("\b\t\n\f\r", i);

      if (shorter != NULL)
        g_string_append_printf (ctl, "\\%c", "btnfr"[shorter - "\b\t\n\f\r"]);
      else
        g_string_append_printf (ctl, "\\u%04x", i);
      g_string_append_c (raw, (char) i);
    }
  metadata = g_strdup_printf ("{\"s\":\"%s\",\"a\":[\"%s\"],\"o\":{\"k%s\":\"%s\"}}", ctl->str, ctl->str, ctl->str, ctl->str);
  perfetto_writer_set_metadata (w, metadata);
  g_assert_true (perfetto_writer_finish (w, &error));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  trace = pt_unpack (bytes);
  for (gsize i = 0; i < trace->n_packet; i++)
    if (trace->packet[i]->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_EVENTS)
      for (gsize j = 0; j < trace->packet[i]->chrome_events->n_metadata; j++)
        {
          const Perfetto__Protos__ChromeMetadata *m = trace->packet[i]->chrome_events->metadata[j];

          if (m->value_case == PERFETTO__PROTOS__CHROME_METADATA__VALUE_STRING_VALUE)
            s = g_strdup (m->string_value);
          if (m->value_case != PERFETTO__PROTOS__CHROME_METADATA__VALUE_JSON_VALUE)
            continue;
          assert_no_raw_controls (m->json_value);
          json_values++;
        }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  g_assert_cmpuint (json_values, ==, 2);
  g_assert_cmpstr (s, ==, raw->str);

  in = g_memory_input_stream_new_from_bytes (bytes);
  r = perfetto_reader_new (in, "metadata.pftrace", pool);
  while (perfetto_reader_read_batch (r, &b, &error) && b != NULL)
    trace_batch_unref (b);
  g_assert_no_error (error);
  back = perfetto_reader_get_metadata (r);
  assert_no_raw_controls (back);
  g_assert_cmpstr (back, ==, metadata);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/roundtrip/all-kinds", test_all_kinds);
  g_test_add_func ("/perfetto/roundtrip/same-bytes-whatever-the-pool-ids", test_same_bytes_whatever_the_pool_ids);
  g_test_add_func ("/perfetto/roundtrip/thread-time", test_thread_time);
  g_test_add_func ("/perfetto/roundtrip/thread-time-off-thread", test_thread_time_off_thread);
  g_test_add_func ("/perfetto/roundtrip/thread-time-unmatched-end", test_thread_time_unmatched_end);
  g_test_add_func ("/perfetto/roundtrip/legacy-phases-go-back", test_legacy_phases_go_back);
  g_test_add_func ("/perfetto/roundtrip/app-process-name", test_app_process_name);
  g_test_add_func ("/perfetto/roundtrip/json-order", test_json_order);
  g_test_add_func ("/perfetto/roundtrip/json-order-compaction", test_json_order_compaction);
  g_test_add_func ("/perfetto/roundtrip/json-order-batches", test_json_order_batches);
  g_test_add_func ("/perfetto/roundtrip/json-order-rebuild-kept", test_json_order_rebuild_kept);
  g_test_add_func ("/perfetto/roundtrip/json-order-run", test_json_order_run);
  g_test_add_func ("/perfetto/roundtrip/not-interned", test_all_kinds_not_interned);
  g_test_add_func ("/perfetto/roundtrip/many-batches", test_many_batches);
  g_test_add_func ("/perfetto/roundtrip/metadata-controls", test_metadata_controls);
  g_test_add_func ("/perfetto/roundtrip/thread-order", test_thread_order);
  g_test_add_func ("/perfetto/roundtrip/end-below-top", test_end_below_top);
  g_test_add_func ("/perfetto/roundtrip/spilled-complete-read-back", test_spilled_complete_read_back);
  g_test_add_func ("/perfetto/roundtrip/async-unmatched", test_async_ends_without_begin);
  g_test_add_func ("/perfetto/roundtrip/async-end-keeps-its-name", test_async_end_keeps_its_name);
  g_test_add_func ("/perfetto/roundtrip/async-flows", test_async_flows);
  g_test_add_func ("/perfetto/roundtrip/async-flows-json-order", test_async_flows_json_order);
  g_test_add_func ("/perfetto/roundtrip/interning-reset", test_interning_reset);
  g_test_add_func ("/perfetto/roundtrip/monotonic", test_monotonic_stream);
  g_test_add_func ("/perfetto/roundtrip/no-ftrace", test_no_ftrace);
  g_test_add_func ("/perfetto/roundtrip/unsorted-sched", test_unsorted_sched);
  g_test_add_func ("/perfetto/roundtrip/ids-past-32-bits", test_ids_past_32_bits);
  g_test_add_func ("/perfetto/roundtrip/ids-taken-by-a-mapped-one", test_ids_taken_by_a_mapped_one);
  return g_test_run ();
}
