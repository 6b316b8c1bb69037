/* tracepipe - json plugin tests: the writer's output, read by json-glib
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "json-test-util.h"
#include "../../test-util.h"

static gint64
ns_of (JsonObject *event,
       const char *member)
{
  return llround (json_object_get_double_member (event, member) * 1000.0);
}

static JsonObject *
args_of (JsonObject *event)
{
  return json_object_get_object_member (event, "args");
}

static TraceEvent *
add (TestOut *o,
     TraceEventKind kind,
     gint64 ts,
     const char *name)
{
  return test_add (o->batch, kind, ts, 10, 11, name);
}

/* ------------------------------------------------------------------ */

/* A begin waits for its end and becomes one X with both events' args. */
static void
test_complete_slices (void)
{
  TestOut o;
  JsonObject *x;
  TraceEvent *ev;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_SLICE_BEGIN, 1234567, "outer");
  ev->category = trace_string_pool_intern (o.pool, "cat");
  trace_batch_add_arg_int (o.batch, ev, "a", 1);
  trace_batch_add_arg_string (o.batch, ev, "s", "x");
  add (&o, TRACE_EVENT_SLICE_BEGIN, 2000000, "inner");
  ev = add (&o, TRACE_EVENT_SLICE_END, 3000001, NULL);
  trace_batch_add_arg_int (o.batch, ev, "b", 2);
  ev = add (&o, TRACE_EVENT_SLICE_END, 5500000, NULL);
  trace_batch_add_arg_int (o.batch, ev, "a", 9);
  test_out_write (&o, NULL);

  g_assert_cmpuint (json_array_get_length (o.events), ==, 2);
  x = test_json_event (o.events, "X", "inner", 0);
  g_assert_cmpint (ns_of (x, "ts"), ==, 2000000);
  g_assert_cmpint (ns_of (x, "dur"), ==, 1000001);
  g_assert_cmpint (json_object_get_int_member (args_of (x), "b"), ==, 2);
  x = test_json_event (o.events, "X", "outer", 0);
  g_assert_cmpint (ns_of (x, "ts"), ==, 1234567);
  g_assert_cmpint (ns_of (x, "dur"), ==, 4265433);
  g_assert_cmpint (json_object_get_int_member (x, "pid"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (x, "tid"), ==, 11);
  g_assert_cmpstr (json_object_get_string_member (x, "cat"), ==, "cat");
  g_assert_cmpint (json_object_get_int_member (args_of (x), "a"), ==, 9);
  g_assert_cmpstr (json_object_get_string_member (args_of (x), "s"), ==, "x");
  /* exact text: µs with the ns as a fraction, integers as integers */
  g_assert_nonnull (strstr (o.text, "\"ts\":1234.567,"));
  g_assert_nonnull (strstr (o.text, "\"dur\":4265.433"));
  g_assert_cmpuint (json_node_get_value_type (json_object_get_member (args_of (x), "a")), ==, G_TYPE_INT64);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (o.root), "displayTimeUnit"), ==, "ns");
  test_out_clear (&o);
}

/* What is open at the end is written as B; an end without begin as E. */
static void
test_open_and_unmatched (void)
{
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr (ChromeWriter) w = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GError) error = NULL;
  JsonArray *events;
  TestOut o;

  test_out_init (&o);
  add (&o, TRACE_EVENT_SLICE_END, 500, "stray");
  add (&o, TRACE_EVENT_SLICE_BEGIN, 1000, "open");
  test_add (o.batch, TRACE_EVENT_SLICE_BEGIN, 5000, 10, 12, "late");
  test_add (o.batch, TRACE_EVENT_SLICE_END, 4000, 10, 12, "late");
  w = chrome_writer_new (mem, NULL);
  g_assert_true (chrome_writer_write_batch (w, o.batch, &error));
  g_assert_true (chrome_writer_finish (w, &error));
  g_assert_no_error (error);
  root = test_parse_json (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)),
                          g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)));
  events = test_trace_events (root);
  g_assert_nonnull (test_json_event (events, "E", "stray", 0));
  g_assert_nonnull (test_json_event (events, "B", "open", 0));
  /* an end before its begin (unsorted input) keeps both times */
  g_assert_cmpint (ns_of (test_json_event (events, "B", "late", 0), "ts"), ==, 5000);
  g_assert_cmpint (ns_of (test_json_event (events, "E", "late", 0), "ts"), ==, 4000);
  g_assert_cmpuint (chrome_writer_get_stats (w)->open_slices, ==, 1);
  g_assert_cmpuint (chrome_writer_get_stats (w)->unmatched_ends, ==, 1);
  test_out_clear (&o);
}

/* Slice ends with a name pair as trace_processor pairs them: with the
 * innermost open slice of that name; one naming none is ignored; the
 * slices open above an ended one end with it at the next event of the
 * thread, or stay open without one. */
static void
test_named_ends (void)
{
  const char *const begins[] = { "s1", "s2", "s3", "s4" };
  const char *const names[] = { "s4", "s3", "s2", "s1", "a" };
  const gint64 durs[] = { 87, 89, 90, 93, 8 };
  TestOut o;

  test_out_init (&o);
  for (guint i = 0; i < G_N_ELEMENTS (begins); i++)
    add (&o, TRACE_EVENT_SLICE_BEGIN, 10000 + 1000 * i, begins[i]);
  add (&o, TRACE_EVENT_SLICE_END, 100000, "s4");
  add (&o, TRACE_EVENT_SLICE_END, 101000, "s2");
  add (&o, TRACE_EVENT_SLICE_END, 102000, "s2");
  add (&o, TRACE_EVENT_SLICE_END, 103000, "s1");
  test_add (o.batch, TRACE_EVENT_SLICE_BEGIN, 6000, 10, 20, "a");
  test_add (o.batch, TRACE_EVENT_SLICE_BEGIN, 9000, 10, 20, "b");
  test_add (o.batch, TRACE_EVENT_SLICE_END, 13000, 10, 20, "zzz");
  test_add (o.batch, TRACE_EVENT_SLICE_END, 14000, 10, 20, "a");
  test_out_write (&o, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpint (ns_of (test_json_event (o.events, "X", names[i], 0), "dur"), ==, durs[i] * 1000);
  g_assert_nonnull (test_json_event (o.events, "B", "b", 0));
  g_assert_null (test_json_event (o.events, "X", "b", 0));
  test_out_clear (&o);
}

/* Memory stays bounded: past max_open_slices the held begins are
 * written as B and their ends as E. */
static void
test_max_open_slices (void)
{
  ChromeWriterOptions opts = { .max_open_slices = 2 };
  TestOut o;

  test_out_init (&o);
  add (&o, TRACE_EVENT_SLICE_BEGIN, 1000, "b1");
  add (&o, TRACE_EVENT_SLICE_BEGIN, 2000, "b2");
  add (&o, TRACE_EVENT_SLICE_BEGIN, 3000, "b3");
  add (&o, TRACE_EVENT_SLICE_END, 4000, NULL);
  add (&o, TRACE_EVENT_SLICE_BEGIN, 4500, "b4");
  add (&o, TRACE_EVENT_SLICE_END, 4600, NULL);
  add (&o, TRACE_EVENT_SLICE_END, 5000, NULL);
  add (&o, TRACE_EVENT_SLICE_END, 6000, NULL);
  test_out_write (&o, &opts);
  g_assert_cmpuint (test_count_ph (o.events, "B"), ==, 3);
  g_assert_cmpuint (test_count_ph (o.events, "E"), ==, 3);
  g_assert_cmpint (ns_of (test_json_event (o.events, "X", "b4", 0), "dur"), ==, 100);
  test_out_clear (&o);
}

static void
test_begin_end_style (void)
{
  ChromeWriterOptions opts = { .slices = CHROME_SLICES_BEGIN_END };
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  add (&o, TRACE_EVENT_SLICE_BEGIN, 1000, "s");
  ev = add (&o, TRACE_EVENT_SLICE_END, 2000, "s");
  trace_batch_add_arg_bool (o.batch, ev, "done", TRUE);
  ev = add (&o, TRACE_EVENT_SLICE_COMPLETE, 3000, "x");
  ev->u.slice.dur = 1;
  test_out_write (&o, &opts);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (o.events, 0), "ph"), ==, "B");
  e = json_array_get_object_element (o.events, 1);
  g_assert_cmpstr (json_object_get_string_member (e, "ph"), ==, "E");
  g_assert_true (json_object_get_boolean_member (args_of (e), "done"));
  g_assert_cmpint (ns_of (test_json_event (o.events, "X", "x", 0), "dur"), ==, 1);
  test_out_clear (&o);
}

/* Thread time: an X keeps tts and tdur, a B/E pair written as X gets the
 * end's thread time less the begin's as tdur, an instant keeps tts. */
static void
test_thread_time (void)
{
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_SLICE_COMPLETE, 1000, "x");
  ev->u.slice.dur = 500;
  ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
  ev->u.slice.thread_ts = 700;
  ev->u.slice.thread_dur = 300;
  ev = add (&o, TRACE_EVENT_SLICE_BEGIN, 2000, "pair");
  ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
  ev->u.slice.thread_ts = 1500;
  ev = add (&o, TRACE_EVENT_SLICE_END, 2600, NULL);
  ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
  ev->u.slice.thread_ts = 1900;
  ev = add (&o, TRACE_EVENT_INSTANT, 3000, "i");
  ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
  ev->u.slice.thread_ts = 2000;
  add (&o, TRACE_EVENT_SLICE_COMPLETE, 4000, "none")->u.slice.dur = 1;
  test_out_write (&o, NULL);
  g_assert_cmpint (ns_of (test_json_event (o.events, "X", "x", 0), "tts"), ==, 700);
  g_assert_cmpint (ns_of (test_json_event (o.events, "X", "x", 0), "tdur"), ==, 300);
  g_assert_cmpint (ns_of (test_json_event (o.events, "X", "pair", 0), "tts"), ==, 1500);
  g_assert_cmpint (ns_of (test_json_event (o.events, "X", "pair", 0), "tdur"), ==, 400);
  g_assert_cmpint (ns_of (test_json_event (o.events, "i", "i", 0), "tts"), ==, 2000);
  g_assert_false (json_object_has_member (test_json_event (o.events, "X", "none", 0), "tts"));
  test_out_clear (&o);
}

static void
test_instants_and_counters (void)
{
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  add (&o, TRACE_EVENT_INSTANT, 1, "t");
  add (&o, TRACE_EVENT_INSTANT, 2, "p")->flags = TRACE_EVENT_FLAG_SCOPE_PROCESS;
  add (&o, TRACE_EVENT_INSTANT, 3, "g")->flags = TRACE_EVENT_FLAG_SCOPE_GLOBAL;
  ev = add (&o, TRACE_EVENT_COUNTER, 4, "mem rss");
  ev->u.counter.value = 1024;
  ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
  ev = add (&o, TRACE_EVENT_COUNTER, 5, "VSYNC-sf");
  ev->u.counter.value = 1.5;
  ev = add (&o, TRACE_EVENT_COUNTER, 6, "whole");
  ev->u.counter.value = 2;
  test_out_write (&o, NULL);
  g_assert_cmpstr (json_object_get_string_member (test_json_event (o.events, "i", "t", 0), "s"), ==, "t");
  g_assert_cmpstr (json_object_get_string_member (test_json_event (o.events, "i", "p", 0), "s"), ==, "p");
  g_assert_cmpstr (json_object_get_string_member (test_json_event (o.events, "i", "g", 0), "s"), ==, "g");
  /* "mem rss" is the counter "rss" of C event "mem", as perfetto names it */
  e = test_json_event (o.events, "C", "mem", 0);
  g_assert_cmpuint (json_node_get_value_type (json_object_get_member (args_of (e), "rss")), ==, G_TYPE_INT64);
  g_assert_cmpint (json_object_get_int_member (args_of (e), "rss"), ==, 1024);
  e = test_json_event (o.events, "C", "VSYNC-sf", 0);
  g_assert_cmpfloat (json_object_get_double_member (args_of (e), "value"), ==, 1.5);
  /* a double stays a double even when whole */
  e = test_json_event (o.events, "C", "whole", 0);
  g_assert_cmpuint (json_node_get_value_type (json_object_get_member (args_of (e), "value")), ==, G_TYPE_DOUBLE);
  test_out_clear (&o);
}

static void
test_async (void)
{
  ChromeWriterOptions nestable = { .nestable_legacy_async = TRUE };
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_ASYNC_BEGIN, 1, "local");
  ev->u.async.id = 0x2a;
  ev = add (&o, TRACE_EVENT_ASYNC_END, 2, "global");
  ev->u.async.id = G_MAXUINT64;
  ev->flags = TRACE_EVENT_FLAG_ID_GLOBAL;
  ev->u.async.scope = trace_string_pool_intern (o.pool, "sc");
  ev = add (&o, TRACE_EVENT_ASYNC_BEGIN, 3, "legacy");
  ev->u.async.id = 7;
  ev->flags = TRACE_EVENT_FLAG_ASYNC_LEGACY | TRACE_EVENT_FLAG_ID_GLOBAL;
  ev = add (&o, TRACE_EVENT_ASYNC_STEP, 4, "legacy");
  ev->u.async.id = 7;
  ev->u.async.step = trace_string_pool_intern (o.pool, "phase2");
  ev->flags = TRACE_EVENT_FLAG_ASYNC_LEGACY | TRACE_EVENT_FLAG_ID_GLOBAL;
  ev = add (&o, TRACE_EVENT_ASYNC_INSTANT, 5, "mark");
  ev->u.async.id = 8;
  test_out_write (&o, NULL);
  e = test_json_event (o.events, "b", "local", 0);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (e, "id2"), "local"), ==, "0x2a");
  e = test_json_event (o.events, "e", "global", 0);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (e, "id2"), "global"), ==,
                   "0xffffffffffffffff");
  g_assert_cmpstr (json_object_get_string_member (e, "scope"), ==, "sc");
  e = test_json_event (o.events, "S", "legacy", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "id"), ==, "0x7");
  e = test_json_event (o.events, "T", "legacy", 0);
  g_assert_cmpstr (json_object_get_string_member (args_of (e), "step"), ==, "phase2");
  g_assert_nonnull (test_json_event (o.events, "n", "mark", 0));
  g_free (o.text);
  json_node_unref (o.root);
  test_out_write (&o, &nestable);
  g_assert_nonnull (test_json_event (o.events, "b", "legacy", 0));
  g_assert_nonnull (test_json_event (o.events, "n", "legacy", 0));
  test_out_clear (&o);
}

/* A Chrome `p` step stays `p` (trace_processor ignores it, and rejects a
 * `T` without a duration as a thread state). A nestable async slice of
 * no process (a Perfetto global track) goes with pid 0, which
 * trace_processor needs, and its nameless end takes its begin's name and
 * category, by which trace_processor finds the slice; from a Chrome JSON
 * stream both stay as they came. */
static void
test_async_step_past_and_global (void)
{
  ChromeWriterOptions chrome = { .chrome_json = TRUE };
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_ASYNC_STEP, 1, "legacy");
  ev->u.async.id = 7;
  ev->flags = TRACE_EVENT_FLAG_ASYNC_LEGACY | TRACE_EVENT_FLAG_STEP_PAST;
  ev = test_add (o.batch, TRACE_EVENT_ASYNC_BEGIN, 2, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "outer");
  ev->category = trace_string_pool_intern (o.pool, "c");
  ev->flags = TRACE_EVENT_FLAG_ID_GLOBAL;
  ev->u.async.id = 9;
  ev = test_add (o.batch, TRACE_EVENT_ASYNC_BEGIN, 3, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "inner");
  ev->flags = TRACE_EVENT_FLAG_ID_GLOBAL;
  ev->u.async.id = 9;
  for (gint64 ts = 4; ts <= 5; ts++)
    {
      ev = test_add (o.batch, TRACE_EVENT_ASYNC_END, ts, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, NULL);
      ev->flags = TRACE_EVENT_FLAG_ID_GLOBAL;
      ev->u.async.id = 9;
    }
  test_out_write (&o, NULL);
  g_assert_nonnull (test_json_event (o.events, "p", "legacy", 0));
  e = json_array_get_object_element (o.events, 3);
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "inner");
  g_assert_false (json_object_has_member (e, "cat"));
  e = json_array_get_object_element (o.events, 4);
  g_assert_cmpstr (json_object_get_string_member (e, "ph"), ==, "e");
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "outer");
  g_assert_cmpstr (json_object_get_string_member (e, "cat"), ==, "c");
  g_assert_cmpint (json_object_get_int_member (e, "pid"), ==, 0);
  g_free (o.text);
  json_node_unref (o.root);
  test_out_write (&o, &chrome);
  e = json_array_get_object_element (o.events, 4);
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "");
  g_assert_false (json_object_has_member (e, "pid"));
  test_out_clear (&o);
}

/* Flow ids as a TrackEvent binds them, in v1 events trace_processor
 * reads alike: an id flowing again after its flow ended gets a name of
 * its own (trace_processor never closes a JSON flow); flow ids on a
 * slice's end bind to the slice; an instant of a process with a flow
 * goes on a thread (flow events bind to thread slices), its flow events
 * after it. */
static void
test_flows_of_track_events (void)
{
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_SLICE_COMPLETE, 1000, "end");
  ev->u.slice.dur = 1000;
  ev->u.slice.flow_in = 5;
  ev = add (&o, TRACE_EVENT_SLICE_COMPLETE, 3000, "again");
  ev->u.slice.dur = 1000;
  ev->u.slice.flow_out = 5;
  add (&o, TRACE_EVENT_SLICE_BEGIN, 5000, "step-on-end");
  ev = add (&o, TRACE_EVENT_SLICE_END, 6000, NULL);
  ev->u.slice.flow_in = ev->u.slice.flow_out = 5;
  ev = test_add (o.batch, TRACE_EVENT_INSTANT, 7000, 3, TRACE_ID_UNKNOWN, "process-mark");
  ev->flags = TRACE_EVENT_FLAG_SCOPE_PROCESS;
  ev->u.slice.flow_in = 5;
  test_out_write (&o, NULL);
  g_assert_nonnull (test_json_event (o.events, "f", "flow", 0));
  e = test_json_event (o.events, "s", "flow#1", 0);
  g_assert_cmpint (ns_of (e, "ts"), ==, 3000);
  e = test_json_event (o.events, "t", "flow#1", 0);
  g_assert_cmpint (ns_of (e, "ts"), ==, 5000);
  e = test_json_event (o.events, "i", "process-mark", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "s"), ==, "t");
  g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, 3);
  e = json_array_get_object_element (o.events, json_array_get_length (o.events) - 1);
  g_assert_cmpstr (json_object_get_string_member (e, "ph"), ==, "f");
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "flow#1");
  g_assert_cmpint (json_object_get_int_member (e, "pid"), ==, 3);
  test_out_clear (&o);
}

/* A slice that binds several flows (a TrackEvent's flow_ids): every one
 * is a v1 event beside it, the flows past the first pair too, and none
 * of them is written as an arg; on a begin held to its end and on an
 * end, too. */
static void
test_several_flows_of_a_slice (void)
{
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_SLICE_COMPLETE, 1000, "sends two");
  ev->u.slice.dur = 1000;
  trace_batch_add_arg_int (o.batch, ev, "user", 1);
  trace_batch_add_slice_flow (o.batch, ev, 0, 11);
  trace_batch_add_slice_flow (o.batch, ev, 0, 12);
  ev = add (&o, TRACE_EVENT_SLICE_BEGIN, 3000, "steps 11, ends 12");
  trace_batch_add_slice_flow (o.batch, ev, 11, 11);
  trace_batch_add_slice_flow (o.batch, ev, 12, 0);
  ev = add (&o, TRACE_EVENT_SLICE_END, 4000, NULL);
  trace_batch_add_slice_flow (o.batch, ev, 0, 13);
  trace_batch_add_slice_flow (o.batch, ev, 0, 14);
  test_out_write (&o, NULL);
  g_assert_nonnull (test_json_event (o.events, "s", "flow", 0));
  e = test_json_event (o.events, "s", "flow", 1);
  g_assert_cmpint (json_object_get_int_member (e, "ts"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (e, "id"), ==, "0xc");
  e = test_json_event (o.events, "X", "sends two", 0);
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (e, "args")), ==, 1);
  e = test_json_event (o.events, "t", "flow", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "id"), ==, "0xb");
  e = test_json_event (o.events, "f", "flow", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "id"), ==, "0xc");
  g_assert_cmpint (json_object_get_int_member (e, "ts"), ==, 3);
  e = test_json_event (o.events, "s", "flow", 3);
  g_assert_cmpstr (json_object_get_string_member (e, "id"), ==, "0xe");
  g_assert_cmpint (json_object_get_int_member (e, "ts"), ==, 3);
  e = test_json_event (o.events, "X", "steps 11, ends 12", 0);
  g_assert_false (json_object_has_member (e, "args"));
  test_out_clear (&o);
}

/* The flows of async events (all in their args): the first of a `b` or
 * an `n` is its v2 bind_id, as trace_processor binds it to the async
 * slice, whatever the flows option; the others, and those of an `e`,
 * are counted, and none is an arg or a v1 event. */
static void
test_flows_of_async_events (void)
{
  ChromeWriterOptions opts = { 0 };
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  opts.flows = CHROME_FLOWS_V1;
  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_ASYNC_BEGIN, 1000, "request");
  ev->u.async.id = 1;
  trace_batch_add_arg_int (o.batch, ev, "user", 1);
  trace_batch_add_slice_flow (o.batch, ev, 0, 11);
  trace_batch_add_slice_flow (o.batch, ev, 0, 12);
  ev = add (&o, TRACE_EVENT_ASYNC_INSTANT, 2000, "mark");
  ev->u.async.id = 1;
  trace_batch_add_slice_flow (o.batch, ev, 11, 11);
  ev = add (&o, TRACE_EVENT_ASYNC_END, 3000, "request");
  ev->u.async.id = 1;
  trace_batch_add_slice_flow (o.batch, ev, 12, 0);
  test_out_write (&o, &opts);
  e = test_json_event (o.events, "b", "request", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "bind_id"), ==, "0xb");
  g_assert_true (json_object_get_boolean_member (e, "flow_out"));
  g_assert_false (json_object_has_member (e, "flow_in"));
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (e, "args")), ==, 1);
  e = test_json_event (o.events, "n", "mark", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "bind_id"), ==, "0xb");
  g_assert_true (json_object_get_boolean_member (e, "flow_in"));
  g_assert_true (json_object_get_boolean_member (e, "flow_out"));
  g_assert_false (json_object_has_member (e, "args"));
  e = test_json_event (o.events, "e", "request", 0);
  g_assert_false (json_object_has_member (e, "bind_id"));
  g_assert_false (json_object_has_member (e, "args"));
  g_assert_cmpuint (test_count_ph (o.events, "s") + test_count_ph (o.events, "t") + test_count_ph (o.events, "f"), ==, 0);
  g_assert_cmpuint (o.stats.dropped_flows, ==, 2);
  test_out_clear (&o);
}

/* A thread state goes back as the `T` it was read from: the state as its
 * name, its duration and args, no id (which would make it an async
 * step). */
static void
test_thread_state (void)
{
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_THREAD_STATE, 1000, "D");
  ev->u.thread_state.dur = 2500;
  trace_batch_add_arg_int (o.batch, ev, "io_wait", 1);
  trace_batch_add_arg_string (o.batch, ev, "blocked_function", "wait_on_page_locked");
  test_out_write (&o, NULL);
  e = test_json_event (o.events, "T", "D", 0);
  g_assert_nonnull (e);
  g_assert_cmpint (ns_of (e, "ts"), ==, 1000);
  g_assert_cmpint (ns_of (e, "dur"), ==, 2500);
  g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, 11);
  g_assert_false (json_object_has_member (e, "id"));
  g_assert_cmpint (json_object_get_int_member (args_of (e), "io_wait"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (args_of (e), "blocked_function"), ==, "wait_on_page_locked");
  test_out_clear (&o);
}

/* A Chrome event of another phase goes back as it came: its phase, id
 * (here id2.local) and scope, thread time, args. A `C` or `M` read from
 * a TrackEvent is dropped, counted: JSON would read counters or names
 * from it. */
static void
test_chrome_phase (void)
{
  JsonObject *e, *id2;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_CHROME_PHASE, 1000, "FrameBlameContext");
  ev->u.chrome_phase.phase = '(';
  ev->u.chrome_phase.id_kind = TRACE_CHROME_ID_LOCAL;
  ev->u.chrome_phase.id = 0x2a;
  ev->u.chrome_phase.scope = trace_string_pool_intern (o.batch->pool, "FrameBlameContext");
  ev->u.chrome_phase.thread_ts = 3000;
  ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
  trace_batch_add_arg_string (o.batch, ev, "snapshot.url", "https://example.org/");
  ev = add (&o, TRACE_EVENT_CHROME_PHASE, 2000, "num_cpus");
  ev->u.chrome_phase.phase = 'M';
  test_out_write (&o, NULL);
  e = test_json_event (o.events, "(", "FrameBlameContext", 0);
  g_assert_nonnull (e);
  g_assert_cmpint (ns_of (e, "ts"), ==, 1000);
  g_assert_cmpint (ns_of (e, "tts"), ==, 3000);
  g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, 11);
  g_assert_false (json_object_has_member (e, "id"));
  id2 = json_object_get_object_member (e, "id2");
  g_assert_cmpstr (json_object_get_string_member (id2, "local"), ==, "0x2a");
  g_assert_cmpstr (json_object_get_string_member (e, "scope"), ==, "FrameBlameContext");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (args_of (e), "snapshot"), "url"), ==,
                   "https://example.org/");
  g_assert_cmpuint (test_count_ph (o.events, "M"), ==, 0);
  g_assert_cmpuint (o.stats.dropped_other, ==, 1);
  test_out_clear (&o);
}

/* The name of process @pid written in the last `M process_name` of
 * @events, or NULL. */
static const char *
last_process_name (JsonArray *events,
                   gint64 pid)
{
  const char *name = NULL;

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (e, "ph", ""), "M") == 0 &&
          g_strcmp0 (json_object_get_string_member_with_default (e, "name", ""), "process_name") == 0 &&
          json_object_get_int_member_with_default (e, "pid", -1) == pid)
        name = json_object_get_string_member (args_of (e), "name");
    }
  return name;
}

/* Of a Perfetto trace's kernel, trace_processor names a process after a
 * fork's comm and its main thread's renames, above the name its own
 * descriptor gives; of JSON, after `M process_name` only. So a fork and a
 * main-thread rename each write one, and a descriptor's name (APP_NAME)
 * of a process so named is left out. A rename of another thread names no
 * process, and a stream whose kernel is not a Perfetto trace's (text,
 * which trace_processor names no process from) gets none. */
static void
test_process_names_from_kernel (void)
{
  ChromeWriterOptions perfetto = { .perfetto_kernel_events = TRUE };
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = test_add (o.batch, TRACE_EVENT_TASK_NEWTASK, 1000, 5, 5, "task_newtask");
  ev->u.task.tid = 20;
  ev->u.task.comm = trace_string_pool_intern (o.pool, "sh");
  ev->u.task.clone_flags = 0x1200011;
  ev = test_add (o.batch, TRACE_EVENT_TASK_NEWTASK, 1500, 20, 20, "task_newtask");
  ev->u.task.tid = 21;
  ev->u.task.comm = trace_string_pool_intern (o.pool, "worker");
  ev->u.task.clone_flags = 0x3d0f00; /* CLONE_THREAD among them */
  ev = test_add (o.batch, TRACE_EVENT_TASK_RENAME, 2000, TRACE_ID_UNKNOWN, 20, "task_rename");
  ev->u.task.tid = 20;
  ev->u.task.comm = trace_string_pool_intern (o.pool, "TraceLogApiTest");
  ev = test_add (o.batch, TRACE_EVENT_TASK_RENAME, 2500, TRACE_ID_UNKNOWN, 21, "task_rename");
  ev->u.task.tid = 21;
  ev->u.task.comm = trace_string_pool_intern (o.pool, "renamed-worker");
  ev = test_add (o.batch, TRACE_EVENT_PROCESS_NAME, 3000, 20, TRACE_ID_UNKNOWN, "./TraceLogApiTests");
  ev->flags |= TRACE_EVENT_FLAG_APP_NAME;
  ev = test_add (o.batch, TRACE_EVENT_PROCESS_NAME, 3000, 30, TRACE_ID_UNKNOWN, "app-only");
  ev->flags |= TRACE_EVENT_FLAG_APP_NAME;
  test_out_write (&o, &perfetto);
  g_assert_cmpstr (last_process_name (o.events, 20), ==, "TraceLogApiTest");
  g_assert_null (last_process_name (o.events, 21));
  g_assert_cmpstr (last_process_name (o.events, 30), ==, "app-only");
  g_assert_cmpuint (o.stats.process_names_from_kernel, ==, 2);
  g_assert_cmpuint (o.stats.app_process_names_outranked, ==, 1);
  json_node_unref (o.root);
  g_free (o.text);

  test_out_write (&o, NULL);
  g_assert_cmpstr (last_process_name (o.events, 20), ==, "./TraceLogApiTests");
  g_assert_cmpuint (o.stats.process_names_from_kernel, ==, 0);
  test_out_clear (&o);
}

static void
test_flows (void)
{
  ChromeWriterOptions v2 = { .flows = CHROME_FLOWS_V2 };
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_FLOW_START, 1, "ipc");
  ev->u.async.id = 0x402;
  ev = add (&o, TRACE_EVENT_FLOW_STEP, 2, "ipc");
  ev->u.async.id = 0x402;
  ev = add (&o, TRACE_EVENT_FLOW_END, 3, "ipc");
  ev->u.async.id = 0x402;
  ev = add (&o, TRACE_EVENT_FLOW_END, 4, "next");
  ev->u.async.id = 0x403;
  ev->flags = TRACE_EVENT_FLAG_FLOW_NEXT_SLICE;
  ev = add (&o, TRACE_EVENT_SLICE_COMPLETE, 5, "sender");
  ev->u.slice.dur = 1000;
  ev->u.slice.flow_out = 0x99;
  ev = add (&o, TRACE_EVENT_SLICE_COMPLETE, 7, "both");
  ev->u.slice.dur = 1000;
  ev->u.slice.flow_out = 0x98;
  ev->u.slice.flow_in = 0x97;
  test_out_write (&o, NULL);
  e = test_json_event (o.events, "s", "ipc", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "id"), ==, "0x402");
  g_assert_cmpstr (json_object_get_string_member (e, "bp"), ==, "e");
  g_assert_nonnull (test_json_event (o.events, "t", "ipc", 0));
  g_assert_cmpstr (json_object_get_string_member (test_json_event (o.events, "f", "ipc", 0), "bp"), ==, "e");
  g_assert_false (json_object_has_member (test_json_event (o.events, "f", "next", 0), "bp"));
  /* flow ids bound to slices: v1 events named "flow" at the slice */
  e = test_json_event (o.events, "s", "flow", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "id"), ==, "0x99");
  g_assert_cmpint (ns_of (e, "ts"), ==, 5);
  g_assert_cmpstr (json_object_get_string_member (test_json_event (o.events, "f", "flow", 0), "id"), ==, "0x97");
  g_assert_cmpstr (json_object_get_string_member (test_json_event (o.events, "s", "flow", 1), "id"), ==, "0x98");
  g_free (o.text);
  json_node_unref (o.root);

  /* v2: on the slice itself; one bind_id only, the outgoing flow wins */
  {
    g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
    g_autoptr (ChromeWriter) w = chrome_writer_new (mem, &v2);

    g_assert_true (chrome_writer_write_batch (w, o.batch, NULL));
    g_assert_true (chrome_writer_finish (w, NULL));
    o.root = test_parse_json (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)),
                              g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)));
    o.text = NULL;
    o.events = test_trace_events (o.root);
    g_assert_cmpuint (chrome_writer_get_stats (w)->dropped_flows, ==, 1);
  }
  e = test_json_event (o.events, "X", "sender", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "bind_id"), ==, "0x99");
  g_assert_true (json_object_get_boolean_member (e, "flow_out"));
  g_assert_false (json_object_has_member (e, "flow_in"));
  e = test_json_event (o.events, "X", "both", 0);
  g_assert_cmpstr (json_object_get_string_member (e, "bind_id"), ==, "0x98");
  g_assert_null (test_json_event (o.events, "s", "flow", 0));
  test_out_clear (&o);
}

static void
add_typed_args (TraceBatch *batch,
                TraceEvent *ev)
{
  trace_batch_add_arg_string (batch, ev, "data.frame", "0x1");
  trace_batch_add_arg_int (batch, ev, "data.line", -5);
  trace_batch_add_arg_int (batch, ev, "nodes[0].id", 1);
  trace_batch_add_arg_int (batch, ev, "nodes[1].id", 2);
  trace_batch_add_arg_double (batch, ev, "f", 0.1);
  trace_batch_add_arg_double (batch, ev, "whole", 5.0);
  trace_batch_add_arg_bool (batch, ev, "b", TRUE);
  trace_batch_add_arg (batch, ev, trace_string_pool_intern (batch->pool, "u"), TRACE_ARG_UINT)->v.u = G_MAXUINT64;
  trace_batch_add_arg (batch, ev, trace_string_pool_intern (batch->pool, "ptr"), TRACE_ARG_POINTER)->v.u = 0x1f;
  trace_batch_add_arg_int (batch, ev, "odd..key", 3);
}

/* Dotted keys are nested again, unless flat_args. */
static void
test_args (void)
{
  ChromeWriterOptions flat = { .flat_args = TRUE };
  JsonObject *args, *data;
  JsonArray *nodes;
  TestOut o;

  test_out_init (&o);
  add_typed_args (o.batch, add (&o, TRACE_EVENT_INSTANT, 1, "i"));
  test_out_write (&o, NULL);
  args = args_of (test_json_event (o.events, "i", "i", 0));
  data = json_object_get_object_member (args, "data");
  g_assert_cmpstr (json_object_get_string_member (data, "frame"), ==, "0x1");
  g_assert_cmpint (json_object_get_int_member (data, "line"), ==, -5);
  nodes = json_object_get_array_member (args, "nodes");
  g_assert_cmpuint (json_array_get_length (nodes), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (nodes, 1), "id"), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (args, "f"), ==, 0.1);
  g_assert_cmpuint (json_node_get_value_type (json_object_get_member (args, "whole")), ==, G_TYPE_DOUBLE);
  g_assert_true (json_object_get_boolean_member (args, "b"));
  g_assert_cmpstr (json_object_get_string_member (args, "ptr"), ==, "0x1f");
  g_assert_cmpint (json_object_get_int_member (args, "odd..key"), ==, 3);
  /* json-glib has no uint64: check the text */
  g_assert_nonnull (strstr (o.text, "\"u\":18446744073709551615"));
  g_free (o.text);
  json_node_unref (o.root);
  test_out_write (&o, &flat);
  args = args_of (test_json_event (o.events, "i", "i", 0));
  g_assert_cmpstr (json_object_get_string_member (args, "data.frame"), ==, "0x1");
  g_assert_cmpint (json_object_get_int_member (args, "nodes[1].id"), ==, 2);
  test_out_clear (&o);
}

/* Names and strings: control characters, quotes, backslashes escaped;
 * invalid UTF-8 replaced, never written raw. */
static void
test_escaping (void)
{
  static const char name[] = "q\"b\\s/\n\t\x01 é\xff\xfe end";
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_INSTANT, 1, name);
  trace_batch_add_arg_string (o.batch, ev, "k\"ey\n", "v\x80");
  test_out_write (&o, NULL);
  g_assert_true (g_utf8_validate (o.text, o.len, NULL));
  e = json_array_get_object_element (o.events, 0);
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==,
                   "q\"b\\s/\n\t\x01 é\xEF\xBF\xBD\xEF\xBF\xBD end");
  g_assert_cmpstr (json_object_get_string_member (args_of (e), "k\"ey\n"), ==, "v\xEF\xBF\xBD");
  test_out_clear (&o);
}

static void
test_metadata_events (void)
{
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  add (&o, TRACE_EVENT_PROCESS_NAME, 0, "proc");
  add (&o, TRACE_EVENT_THREAD_NAME, 0, "main");
  add (&o, TRACE_EVENT_PROCESS_SORT_INDEX, 0, NULL)->u.meta.value = -2;
  add (&o, TRACE_EVENT_THREAD_SORT_INDEX, 0, NULL)->u.meta.value = 3;
  add (&o, TRACE_EVENT_PROCESS_LABEL, 0, "label");
  ev = add (&o, TRACE_EVENT_CLOCK_MARKER, 5000, NULL);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_SYNC_ID;
  ev->u.clock.sync_id = trace_string_pool_intern (o.pool, "sync-1");
  ev->u.clock.issue_ts = 4500;
  test_out_write (&o, NULL);
  e = test_json_event (o.events, "M", "process_name", 0);
  g_assert_cmpstr (json_object_get_string_member (args_of (e), "name"), ==, "proc");
  g_assert_cmpint (json_object_get_int_member (e, "pid"), ==, 10);
  e = test_json_event (o.events, "M", "thread_name", 0);
  g_assert_cmpstr (json_object_get_string_member (args_of (e), "name"), ==, "main");
  g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, 11);
  e = test_json_event (o.events, "M", "process_sort_index", 0);
  g_assert_cmpint (json_object_get_int_member (args_of (e), "sort_index"), ==, -2);
  e = test_json_event (o.events, "M", "thread_sort_index", 0);
  g_assert_cmpint (json_object_get_int_member (args_of (e), "sort_index"), ==, 3);
  e = test_json_event (o.events, "M", "process_labels", 0);
  g_assert_cmpstr (json_object_get_string_member (args_of (e), "labels"), ==, "label");
  e = test_json_event (o.events, "c", "clock_sync", 0);
  g_assert_cmpstr (json_object_get_string_member (args_of (e), "sync_id"), ==, "sync-1");
  g_assert_cmpint (ns_of (args_of (e), "issue_ts"), ==, 4500);
  test_out_clear (&o);
}

/* Kernel records go to systemTraceEvents as ftrace text lines; atrace
 * markers are never written a second time. */
static void
test_kernel_text (void)
{
  const char *expected =
      "# tracer: nop\n"
      "surfaceflinger-643 (  643) [001] .... 12.000001: sched_switch: prev_comm=surfaceflinger prev_pid=643 "
      "prev_prio=120 prev_state=R+ ==> next_comm=<...> next_pid=0 next_prio=120\n"
      "<...>-0 (-----) [002] .... 12.000002500: sched_waking: comm=RenderThread pid=651 prio=110 target_cpu=002\n"
      "<...>-0 (-----) [000] .... 13.000000: cpu_frequency: state=1800000 cpu_id=3\n"
      "RenderThread-651 (  643) [002] .... 13.500000: clock_set_rate: video_clk state=5 rate=1.5\n";
  g_autoptr (JsonNode) root = NULL;
  const char *sys;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  test_add (o.batch, TRACE_EVENT_THREAD_NAME, 0, 643, 643, "surfaceflinger");
  ev = test_add (o.batch, TRACE_EVENT_SCHED_SWITCH, 12000001000, 643, 643, NULL);
  ev->cpu = 1;
  ev->u.sched_switch.prev_tid = 643;
  ev->u.sched_switch.prev_prio = 120;
  ev->u.sched_switch.prev_state = 0x800;
  ev->u.sched_switch.next_tid = 0;
  ev->u.sched_switch.next_prio = 120;
  ev = test_add (o.batch, TRACE_EVENT_SCHED_WAKING, 12000002500, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, NULL);
  ev->cpu = 2;
  ev->u.wakeup.tid = 651;
  ev->u.wakeup.comm = trace_string_pool_intern (o.pool, "RenderThread");
  ev->u.wakeup.prio = 110;
  ev->u.wakeup.target_cpu = 2;
  ev->u.wakeup.success = -1;
  ev = test_add (o.batch, TRACE_EVENT_CPU_FREQUENCY, 13000000000, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, NULL);
  ev->u.cpu.cpu_id = 3;
  ev->u.cpu.state = 1800000;
  ev = test_add (o.batch, TRACE_EVENT_FTRACE, 13200000000, 643, 651, "tracing_mark_write");
  test_add_arg_text (o.batch, ev, "buf", "B|643|draw");
  ev = test_add (o.batch, TRACE_EVENT_FTRACE, 13500000000, 643, 651, "clock_set_rate");
  ev->cpu = 2;
  trace_batch_add_arg_int (o.batch, ev, "state", 5);
  test_add_arg_text (o.batch, ev, "name", "video_clk");
  trace_batch_add_arg_double (o.batch, ev, "rate", 1.5);
  test_out_write (&o, NULL);
  sys = json_object_get_string_member (json_node_get_object (o.root), "systemTraceEvents");
  g_assert_cmpstr (sys, ==, expected);
  /* the kernel records are not also JSON events */
  g_assert_cmpuint (json_array_get_length (o.events), ==, 1);
  test_out_clear (&o);

  /* the array form has no place for them */
  {
    ChromeWriterOptions array = { .form = CHROME_FORM_ARRAY };

    test_out_init (&o);
    test_add (o.batch, TRACE_EVENT_CPU_IDLE, 1, 0, 0, NULL);
    test_out_write (&o, &array);
    g_assert_true (JSON_NODE_HOLDS_ARRAY (o.root));
    g_assert_cmpuint (json_array_get_length (o.events), ==, 0);
    test_out_clear (&o);
  }
}

/* The interrupts of a Perfetto stream: slices on a pseudo thread per cpu
 * and kind (trace_processor makes slices of typed ones, none of their
 * text lines); an unmatched exit is an E that ends nothing, a softirq
 * vector without a name no slice. Of another stream they stay lines. */
static void
add_irq_events (TestOut *o)
{
  TraceEvent *ev;

  ev = test_add (o->batch, TRACE_EVENT_FTRACE, 500, TRACE_ID_UNKNOWN, 10, "irq_handler_exit");
  ev->cpu = 1;
  trace_batch_add_arg_int (o->batch, ev, "irq", 3);
  ev = test_add (o->batch, TRACE_EVENT_FTRACE, 1000, TRACE_ID_UNKNOWN, 10, "irq_handler_entry");
  ev->cpu = 1;
  trace_batch_add_arg_int (o->batch, ev, "irq", 3);
  test_add_arg_text (o->batch, ev, "name", "timer");
  ev = test_add (o->batch, TRACE_EVENT_FTRACE, 1200, TRACE_ID_UNKNOWN, 10, "softirq_entry");
  ev->cpu = 1;
  trace_batch_add_arg_int (o->batch, ev, "vec", 1);
  ev = test_add (o->batch, TRACE_EVENT_FTRACE, 1300, TRACE_ID_UNKNOWN, 10, "softirq_entry");
  ev->cpu = 1;
  trace_batch_add_arg_int (o->batch, ev, "vec", 12);
  ev = test_add (o->batch, TRACE_EVENT_FTRACE, 1400, TRACE_ID_UNKNOWN, 10, "softirq_exit");
  ev->cpu = 1;
  trace_batch_add_arg_int (o->batch, ev, "vec", 1);
  ev = test_add (o->batch, TRACE_EVENT_FTRACE, 1500, TRACE_ID_UNKNOWN, 10, "irq_handler_exit");
  ev->cpu = 1;
  trace_batch_add_arg_int (o->batch, ev, "irq", 3);
}

static void
test_kernel_irq_slices (void)
{
  ChromeWriterOptions perfetto = { .perfetto_kernel_events = TRUE };
  const char *names[] = { "", "TIMER", "IRQ (timer)" };
  const char *phases[] = { "E", "X", "X" };
  const gint64 tids[] = { 0xFFFF0003, 0xFFFF0004, 0xFFFF0003 };
  const gint64 ts[] = { 500, 1200, 1000 }, dur[] = { 0, 200, 500 };
  TestOut o;

  test_out_init (&o);
  add_irq_events (&o);
  test_out_write (&o, &perfetto);
  g_assert_false (json_object_has_member (json_node_get_object (o.root), "systemTraceEvents"));
  g_assert_cmpuint (json_array_get_length (o.events), ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      JsonObject *e = json_array_get_object_element (o.events, i);

      g_assert_cmpstr (json_object_get_string_member (e, "ph"), ==, phases[i]);
      g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, names[i]);
      g_assert_cmpint (json_object_get_int_member (e, "pid"), ==, 0xFFFF0000);
      g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, tids[i]);
      g_assert_cmpint (ns_of (e, "ts"), ==, ts[i]);
      if (dur[i] > 0)
        g_assert_cmpint (ns_of (e, "dur"), ==, dur[i]);
    }
  test_out_clear (&o);

  test_out_init (&o);
  add_irq_events (&o);
  test_out_write (&o, NULL);
  g_assert_nonnull (strstr (json_object_get_string_member (json_node_get_object (o.root), "systemTraceEvents"),
                            "irq_handler_entry: timer irq=3"));
  g_assert_cmpuint (json_array_get_length (o.events), ==, 0);
  test_out_clear (&o);
}

/* Vendor trace points of a Perfetto stream in atrace's form go as the
 * atrace lines trace_processor's systrace parser reads (it reads the
 * typed events as those); a phase it rejects stays a generic line. */
static TraceEvent *
add_vendor_point (TestOut *o,
                  const char *event,
                  const char *name_key,
                  const char *type_key,
                  gint64 type,
                  const char *name)
{
  TraceEvent *ev = test_add (o->batch, TRACE_EVENT_FTRACE, 1000, TRACE_ID_UNKNOWN, 40, event);

  ev->cpu = 2;
  trace_batch_add_arg_int (o->batch, ev, "pid", 237);
  test_add_arg_text (o->batch, ev, name_key, name);
  trace_batch_add_arg_int (o->batch, ev, type_key, type);
  trace_batch_add_arg_int (o->batch, ev, "value", 3);
  return ev;
}

static void
test_kernel_vendor_atrace (void)
{
  ChromeWriterOptions perfetto = { .perfetto_kernel_events = TRUE };
  const char *prefix = "<...>-40 (-----) [002] .... 0.000001: ";
  const char *lines[] = { "tracing_mark_write: C|237|g2d_frame|3", "tracing_mark_write: B|0|dpu_work",
                          "tracing_mark_write: B|237|sde_kick", "mali_tracing_mark_write: mali_x pid=237 type=88 value=3" };
  g_autoptr (GString) expected = g_string_new ("# tracer: nop\n");
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  add_vendor_point (&o, "g2d_tracing_mark_write", "name", "type", 'C', "g2d_frame");
  add_vendor_point (&o, "dpu_tracing_mark_write", "name", "type", 'B', "dpu_work");
  ev = add_vendor_point (&o, "sde_tracing_mark_write", "trace_name", "trace_type", 0, "sde_kick");
  trace_batch_add_arg_int (o.batch, ev, "trace_begin", 1);
  add_vendor_point (&o, "mali_tracing_mark_write", "name", "type", 'X', "mali_x");
  test_out_write (&o, &perfetto);
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    g_string_append_printf (expected, "%s%s\n", prefix, lines[i]);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (o.root), "systemTraceEvents"), ==,
                   expected->str);
  test_out_clear (&o);
}

/* A GPU frequency of a Perfetto stream: a counter per GPU, as
 * trace_processor reads the typed event (of its text line nothing). */
static void
test_kernel_gpu_frequency (void)
{
  ChromeWriterOptions perfetto = { .perfetto_kernel_events = TRUE };
  JsonObject *e;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = test_add (o.batch, TRACE_EVENT_FTRACE, 2000, TRACE_ID_UNKNOWN, 527, "gpu_frequency");
  ev->cpu = 0;
  trace_batch_add_arg_int (o.batch, ev, "gpu_id", 1);
  trace_batch_add_arg_int (o.batch, ev, "state", 400000);
  test_out_write (&o, &perfetto);
  g_assert_false (json_object_has_member (json_node_get_object (o.root), "systemTraceEvents"));
  e = test_json_event (o.events, "C", "gpufreq", 0);
  g_assert_cmpint (json_object_get_int_member (args_of (e), "gpu1"), ==, 400000);
  g_assert_false (json_object_has_member (e, "pid"));
  test_out_clear (&o);
}

/* Wakeup sources of a Perfetto stream: a slice per name while one is
 * held (activations nest), as trace_processor reads the typed events. */
static void
test_kernel_wakelocks (void)
{
  ChromeWriterOptions perfetto = { .perfetto_kernel_events = TRUE };
  const char *const kinds[] = { "wakeup_source_activate", "wakeup_source_activate", "wakeup_source_deactivate",
                                "wakeup_source_deactivate" };
  JsonObject *b, *e;
  TestOut o;

  test_out_init (&o);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      TraceEvent *ev = test_add (o.batch, TRACE_EVENT_FTRACE, 1000 * (i + 1), TRACE_ID_UNKNOWN, 5, kinds[i]);

      ev->cpu = 0;
      test_add_arg_text (o.batch, ev, "name", "keys");
    }
  test_out_write (&o, &perfetto);
  g_assert_cmpuint (json_array_get_length (o.events), ==, 2);
  b = test_json_event (o.events, "b", "Wakelock(keys)", 0);
  e = test_json_event (o.events, "e", "Wakelock(keys)", 0);
  g_assert_cmpint (ns_of (b, "ts"), ==, 1000);
  g_assert_cmpint (ns_of (e, "ts"), ==, 4000);
  g_assert_cmpint (json_object_get_int_member (e, "pid"), ==, 0);
  test_out_clear (&o);
}

/* Suspend/resume steps of a Perfetto stream: a slice per action and
 * value; a thaw_processes ending inside freeze_processes inside
 * suspend_enter (a failed suspend) also ends suspend_enter, as in
 * trace_processor. */
static void
test_kernel_suspend_resume (void)
{
  ChromeWriterOptions perfetto = { .perfetto_kernel_events = TRUE };
  const char *const actions[] = { "suspend_enter", "freeze_processes", "thaw_processes", "thaw_processes" };
  const gint64 starts[] = { 1, 1, 1, 0 };
  JsonObject *e;
  TestOut o;

  test_out_init (&o);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      TraceEvent *ev = test_add (o.batch, TRACE_EVENT_FTRACE, 1000 * (i + 1), TRACE_ID_UNKNOWN, 0, "suspend_resume");

      ev->cpu = 0;
      test_add_arg_text (o.batch, ev, "action", actions[i]);
      trace_batch_add_arg_int (o.batch, ev, "val", 3);
      trace_batch_add_arg_int (o.batch, ev, "start", starts[i]);
    }
  test_out_write (&o, &perfetto);
  g_assert_nonnull (test_json_event (o.events, "b", "freeze_processes(3)", 0));
  g_assert_nonnull (test_json_event (o.events, "e", "thaw_processes(3)", 0));
  e = test_json_event (o.events, "e", "suspend_enter(3)", 0);
  g_assert_cmpint (ns_of (e, "ts"), ==, 4000);
  g_assert_null (test_json_event (o.events, "e", "freeze_processes(3)", 0));
  test_out_clear (&o);
}

/* function_graph calls of a Perfetto stream: a slice per call on the
 * thread; the idle task's on a pseudo thread per cpu. */
static void
test_kernel_funcgraph (void)
{
  ChromeWriterOptions perfetto = { .perfetto_kernel_events = TRUE };
  const gint64 tids[] = { 7, 0 };
  JsonObject *e;
  TestOut o;

  test_out_init (&o);
  for (guint i = 0; i < G_N_ELEMENTS (tids); i++)
    {
      TraceEvent *ev = test_add (o.batch, TRACE_EVENT_FTRACE, 1000, TRACE_ID_UNKNOWN, tids[i], "funcgraph_entry");

      ev->cpu = 2;
      test_add_arg_text (o.batch, ev, "func", "do_fault");
      ev = test_add (o.batch, TRACE_EVENT_FTRACE, 3000, TRACE_ID_UNKNOWN, tids[i], "funcgraph_exit");
      ev->cpu = 2;
      test_add_arg_text (o.batch, ev, "func", "do_fault");
    }
  test_out_write (&o, &perfetto);
  e = test_json_event (o.events, "X", "do_fault", 0);
  g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, 7);
  g_assert_cmpint (ns_of (e, "dur"), ==, 2000);
  e = test_json_event (o.events, "X", "do_fault", 1);
  g_assert_cmpint (json_object_get_int_member (e, "pid"), ==, 0xFFFE0000);
  g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, 0xFFFE0003);
  g_assert_false (json_object_has_member (json_node_get_object (o.root), "systemTraceEvents"));
  test_out_clear (&o);
}

/* A begin's text args outlive its batch: the slice is written (as X)
 * when its end comes, in another batch. */
static void
test_text_args_across_batches (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (ChromeWriter) writer = chrome_writer_new (out, NULL);
  g_autoptr (JsonNode) root = NULL;
  TraceBatch *first = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) second = trace_batch_new (pool, 0);
  JsonObject *slice;
  TraceEvent *ev;

  ev = test_add (first, TRACE_EVENT_SLICE_BEGIN, 1000, 1, 2, "draw");
  test_add_arg_text (first, ev, "frame", "F6917E5E");
  ev = test_add (first, TRACE_EVENT_SLICE_COMPLETE, 1500, 1, 3, "swap");
  ev->u.slice.dur = 100;
  test_add_arg_text (first, ev, "url", "https://example.com/?q=1");
  g_assert_true (chrome_writer_write_batch (writer, first, NULL));
  memset (first->text, '#', first->text_len);
  trace_batch_unref (first);
  ev = test_add (second, TRACE_EVENT_SLICE_END, 2000, 1, 2, NULL);
  test_add_arg_text (second, ev, "result", "ok");
  g_assert_true (chrome_writer_write_batch (writer, second, NULL));
  g_assert_true (chrome_writer_finish (writer, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  root = test_parse_json (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                          g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
  slice = test_json_event (test_trace_events (root), "X", "draw", 0);
  g_assert_cmpstr (json_object_get_string_member (args_of (slice), "frame"), ==, "F6917E5E");
  g_assert_cmpstr (json_object_get_string_member (args_of (slice), "result"), ==, "ok");
  slice = test_json_event (test_trace_events (root), "X", "swap", 0);
  g_assert_cmpstr (json_object_get_string_member (args_of (slice), "url"), ==, "https://example.com/?q=1");
}

static void
test_object_members (void)
{
  g_autoptr (JsonObject) extra = json_object_new ();
  ChromeWriterOptions opts = {
    .clock_domain = TRACE_CLOCK_MONOTONIC,
    .display_time_unit = "",
    .metadata = extra,
  };
  JsonObject *meta, *marker;
  TraceEvent *ev;
  TestOut o;

  json_object_set_string_member (extra, "source", "test");
  json_object_set_string_member (extra, "clock-domain", "SYSTRACE");
  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_CLOCK_MARKER, 5000, NULL);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_PARENT_TS;
  ev->u.clock.other_ts = 7000;
  ev->u.clock.domain = TRACE_CLOCK_MONOTONIC;
  test_out_write (&o, &opts);
  g_assert_false (json_object_has_member (json_node_get_object (o.root), "displayTimeUnit"));
  meta = json_object_get_object_member (json_node_get_object (o.root), "metadata");
  g_assert_cmpstr (json_object_get_string_member (meta, "source"), ==, "test");
  g_assert_cmpstr (json_object_get_string_member (meta, "clock-domain"), ==, "LINUX_CLOCK_MONOTONIC");
  marker = json_array_get_object_element (json_object_get_array_member (meta, "tracepipe-clock-markers"), 0);
  g_assert_cmpstr (json_object_get_string_member (marker, "marker"), ==, "parent_ts");
  g_assert_cmpint (json_object_get_int_member (marker, "ts_ns"), ==, 5000);
  g_assert_cmpint (json_object_get_int_member (marker, "other_ts_ns"), ==, 7000);
  g_assert_cmpstr (json_object_get_string_member (marker, "domain"), ==, "monotonic");
  test_out_clear (&o);
}

/* Stopped early (Ctrl-C): the suffix makes what was written valid JSON,
 * with the open slices as B. */
static void
test_suffix (void)
{
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr (ChromeWriter) w = chrome_writer_new (mem, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *events;
  TestOut o;

  test_out_init (&o);
  add (&o, TRACE_EVENT_SLICE_BEGIN, 1000, "running");
  add (&o, TRACE_EVENT_INSTANT, 2000, "tick");
  g_assert_true (chrome_writer_write_batch (w, o.batch, &error));
  g_assert_true (chrome_writer_write_suffix (w, &error));
  g_assert_true (chrome_writer_write_suffix (w, &error));
  g_assert_no_error (error);
  root = test_parse_json (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)),
                          g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)));
  events = test_trace_events (root);
  g_assert_nonnull (test_json_event (events, "B", "running", 0));
  g_assert_nonnull (test_json_event (events, "i", "tick", 0));
  g_assert_false (chrome_writer_write_batch (w, o.batch, &error));
  g_assert_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "the JSON trace is already finished");
  test_out_clear (&o);
}

/* Nothing written at all is still a valid, empty trace. */
static void
test_empty (void)
{
  static const ChromeForm forms[] = { CHROME_FORM_OBJECT, CHROME_FORM_ARRAY };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      ChromeWriterOptions opts = { .form = forms[i] };
      g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
      g_autoptr (ChromeWriter) w = chrome_writer_new (mem, &opts);
      g_autoptr (JsonNode) root = NULL;

      g_assert_true (chrome_writer_finish (w, NULL));
      root = test_parse_json (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)),
                              g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)));
      g_assert_cmpuint (json_array_get_length (test_trace_events (root)), ==, 0);
    }
}

/* Samples become a Profile event and ProfileChunks that define, root
 * first, the nodes the samples use. */
static void
test_samples (void)
{
  JsonObject *profile, *chunk, *data, *cpu, *node;
  JsonArray *nodes, *samples, *deltas;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  ev = add (&o, TRACE_EVENT_STACK_NODE, 0, "main");
  ev->u.stack_node.id = 100;
  ev = add (&o, TRACE_EVENT_STACK_NODE, 0, "work");
  ev->u.stack_node.id = 200;
  ev->u.stack_node.parent_id = 100;
  trace_batch_add_arg_string (o.batch, ev, "url", "app.js");
  trace_batch_add_arg_int (o.batch, ev, "line", 4);
  add (&o, TRACE_EVENT_SAMPLE, 1000500, NULL)->u.sample.node_id = 200;
  add (&o, TRACE_EVENT_SAMPLE, 1001000, NULL)->u.sample.node_id = 100;
  add (&o, TRACE_EVENT_SAMPLE, 1003250, NULL)->u.sample.node_id = 200;
  test_out_write (&o, NULL);
  profile = test_json_event (o.events, "P", "Profile", 0);
  g_assert_cmpint (ns_of (json_object_get_object_member (args_of (profile), "data"), "startTime"), ==, 1000500);
  chunk = test_json_event (o.events, "P", "ProfileChunk", 0);
  g_assert_cmpstr (json_object_get_string_member (chunk, "id"), ==,
                   json_object_get_string_member (profile, "id"));
  data = json_object_get_object_member (args_of (chunk), "data");
  cpu = json_object_get_object_member (data, "cpuProfile");
  nodes = json_object_get_array_member (cpu, "nodes");
  g_assert_cmpuint (json_array_get_length (nodes), ==, 2);
  node = json_array_get_object_element (nodes, 0);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (node, "callFrame"), "functionName"),
                   ==, "main");
  g_assert_false (json_object_has_member (node, "parent"));
  node = json_array_get_object_element (nodes, 1);
  g_assert_cmpint (json_object_get_int_member (node, "parent"), ==, json_object_get_int_member (json_array_get_object_element (nodes, 0), "id"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (node, "callFrame"), "url"), ==,
                   "app.js");
  samples = json_object_get_array_member (cpu, "samples");
  g_assert_cmpint (json_array_get_int_element (samples, 0), ==, json_object_get_int_member (node, "id"));
  deltas = json_object_get_array_member (data, "timeDeltas");
  g_assert_cmpint (llround (json_array_get_double_element (deltas, 0) * 1000), ==, 0);
  g_assert_cmpint (llround (json_array_get_double_element (deltas, 1) * 1000), ==, 500);
  g_assert_cmpint (llround (json_array_get_double_element (deltas, 2) * 1000), ==, 2250);
  test_out_clear (&o);
}

static void
test_write_error (void)
{
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr (ChromeWriter) w = chrome_writer_new (mem, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_output_stream_close (mem, NULL, NULL));
  g_assert_false (chrome_writer_finish (w, &error));
  g_assert_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE);
  g_assert_true (g_str_has_prefix (error->message, "cannot write the JSON trace: "));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/writer/complete-slices", test_complete_slices);
  g_test_add_func ("/json/writer/open-and-unmatched", test_open_and_unmatched);
  g_test_add_func ("/json/writer/named-ends", test_named_ends);
  g_test_add_func ("/json/writer/max-open-slices", test_max_open_slices);
  g_test_add_func ("/json/writer/begin-end-style", test_begin_end_style);
  g_test_add_func ("/json/writer/thread-time", test_thread_time);
  g_test_add_func ("/json/writer/instants-and-counters", test_instants_and_counters);
  g_test_add_func ("/json/writer/async", test_async);
  g_test_add_func ("/json/writer/async-step-past-and-global", test_async_step_past_and_global);
  g_test_add_func ("/json/writer/flows", test_flows);
  g_test_add_func ("/json/writer/flows-of-track-events", test_flows_of_track_events);
  g_test_add_func ("/json/writer/several-flows-of-a-slice", test_several_flows_of_a_slice);
  g_test_add_func ("/json/writer/thread-state", test_thread_state);
  g_test_add_func ("/json/writer/chrome-phase", test_chrome_phase);
  g_test_add_func ("/json/writer/process-names-from-kernel", test_process_names_from_kernel);
  g_test_add_func ("/json/writer/args", test_args);
  g_test_add_func ("/json/writer/escaping", test_escaping);
  g_test_add_func ("/json/writer/metadata-events", test_metadata_events);
  g_test_add_func ("/json/writer/kernel-text", test_kernel_text);
  g_test_add_func ("/json/writer/kernel-irq-slices", test_kernel_irq_slices);
  g_test_add_func ("/json/writer/kernel-vendor-atrace", test_kernel_vendor_atrace);
  g_test_add_func ("/json/writer/kernel-gpu-frequency", test_kernel_gpu_frequency);
  g_test_add_func ("/json/writer/kernel-wakelocks", test_kernel_wakelocks);
  g_test_add_func ("/json/writer/kernel-suspend-resume", test_kernel_suspend_resume);
  g_test_add_func ("/json/writer/kernel-funcgraph", test_kernel_funcgraph);
  g_test_add_func ("/json/writer/text-args-across-batches", test_text_args_across_batches);
  g_test_add_func ("/json/writer/flows-of-async-events", test_flows_of_async_events);
  g_test_add_func ("/json/writer/object-members", test_object_members);
  g_test_add_func ("/json/writer/suffix", test_suffix);
  g_test_add_func ("/json/writer/empty", test_empty);
  g_test_add_func ("/json/writer/samples", test_samples);
  g_test_add_func ("/json/writer/write-error", test_write_error);
  return g_test_run ();
}
