/* Unit tests of the arkts reader on small inputs written here: chunk
 * reassembly at every boundary, markers and modes, bad input with its
 * exact error text, CPU profile corner cases.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "arkts-test-util.h"

/* A small snapshot with everything a scanner can trip on: 6-field meta
 * with spaces, escapes and non-ASCII in names, 64-bit ids, a nested
 * trace tree, samples. Totals by hand: 4 nodes; self sizes 0, 32, 64,
 * 100 → 196; 3 edges, each node's edge_count adding up to 3; the object
 * named 2 ("Foo\"Bar\\é😀") holds 100, the object named 3 64. */
static const char small_doc[] =
    "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\", \"name\", \"id\", \"self_size\", \"edge_count\", \"trace_node_id\"],"
    "\"node_types\":[[\"hidden\", \"array\", \"string\", \"object\"], \"string\", \"number\", \"number\", \"number\", \"number\"],"
    "\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],"
    "\"edge_types\":[[\"context\",\"element\",\"property\"],\"string_or_number\",\"node\"]},"
    "\"node_count\":4,\"edge_count\":3,\"trace_function_count\":2},\n"
    "\"nodes\":[0,1,1,0,2,0\n,2,4,140266963149888,32,0,1\n,3,3,18446744073709551615,64,1,2\n,3,2,5,100,0,2],\n"
    "\"edges\":[2,1,6\n,1,0,12\n,2,1,18],\n"
    "\"trace_function_infos\":[1,5,6,0,10,4,2,7,6,0,20,8],\n"
    "\"trace_tree\":[1,0,3,300,[2,1,2,200,[]],3,1,1,50,[]],\n"
    "\"samples\":[0,1,1500,5],\n"
    "\"locations\":[],\n"
    "\"strings\":[\"\",\"(GC roots)\",\"Foo\\\"Bar\\\\\\u00e9\\ud83d\\ude00\",\"Baz\",\"str\",\"outer\",\"app.js\",\"inner\\n\"]}";

static void
check_small_doc (ArktsRun *run,
                 gint64 start)
{
  const TraceEvent *summary = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap snapshot", 0);
  const TraceEvent *alloc = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap allocations", 0);

  g_assert_nonnull (summary);
  g_assert_cmpint (summary->ts, ==, start + 1500 * 1000);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "node_count"), ==, 4);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "edge_count"), ==, 3);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "self_size"), ==, 196);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "string_count"), ==, 8);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "types.object.count"), ==, 2);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "types.object.self_size"), ==, 164);
  g_assert_cmpstr (arkts_run_arg_string (run, summary, "constructors[0].name"), ==, "Foo\"Bar\\\xc3\xa9\xf0\x9f\x98\x80");
  g_assert_cmpint (arkts_run_arg_int (run, summary, "constructors[0].self_size"), ==, 100);
  g_assert_cmpstr (arkts_run_arg_string (run, summary, "constructors[1].name"), ==, "Baz");
  g_assert_cmpstr (arkts_run_arg_string (run, summary, "constructors[2].name"), ==, "(string)");
  g_assert_cmpstr (arkts_run_arg_string (run, summary, "constructors[3].name"), ==, "(system)");
  g_assert_nonnull (alloc);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "allocated.count"), ==, 6);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "allocated.size"), ==, 550);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "trace_node_count"), ==, 3);
  g_assert_cmpstr (arkts_run_arg_string (run, alloc, "functions[0].name"), ==, "outer");
  g_assert_cmpstr (arkts_run_arg_string (run, alloc, "functions[0].script"), ==, "app.js");
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "functions[0].size"), ==, 300);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "functions[0].line"), ==, 10);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "functions[0].live.size"), ==, 32);
  g_assert_cmpstr (arkts_run_arg_string (run, alloc, "functions[1].name"), ==, "inner\n");
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "functions[1].size"), ==, 250);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "functions[1].column"), ==, 8);
  /* nodes with trace_node_id 2 (function 1) are alive: 64 + 100 */
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "functions[1].live.count"), ==, 2);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "functions[1].live.size"), ==, 164);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_COUNTER, "JS heap last assigned id"), ==, 2);
  g_assert_null (arkts_reader_get_warning_summary (run->reader));
}

/* All events of two runs, as text, for comparing them. */
static char *
run_text (ArktsRun *run)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < run->events->n_events; i++)
    {
      const TraceEvent *ev = &run->events->events[i];
      g_autofree char *args = arkts_run_args_text (run, ev);
      g_string_append_printf (text, "%d %" G_GINT64_FORMAT " %s %.17g %s\n", ev->kind, ev->ts, arkts_run_name (run, ev),
                              ev->kind == TRACE_EVENT_COUNTER ? ev->u.counter.value : 0.0, args);
    }
  return g_string_free (text, FALSE);
}

static void
test_small_doc_plain (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (small_doc, -1, "small.heapsnapshot", NULL, &error);

  g_assert_no_error (error);
  check_small_doc (run, 0);
}

/* The plain document read 1 to 7 bytes at a time: every state of the
 * scanner meets a read boundary. */
static void
test_small_doc_read_sizes (void)
{
  g_autoptr (ArktsRun) reference = arkts_run_text (small_doc, -1, "small.heapsnapshot", NULL, NULL);
  g_autofree char *expected = run_text (reference);

  for (gsize size = 1; size <= 7; size++)
    {
      ArktsReaderOptions opts;
      g_autoptr (GError) error = NULL;
      g_autoptr (ArktsRun) run = NULL;
      g_autofree char *text = NULL;
      arkts_reader_options_init (&opts);
      opts.read_size = size;
      run = arkts_run_text (small_doc, -1, "small.heapsnapshot", &opts, &error);
      g_assert_no_error (error);
      text = run_text (run);
      g_assert_cmpstr (text, ==, expected);
    }
}

static char *
chunk_message (const char *chunk,
               gsize len)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *piece = g_strndup (chunk, len);
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "method");
  json_builder_add_string_value (builder, "HeapProfiler.addHeapSnapshotChunk");
  json_builder_set_member_name (builder, "params");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "chunk");
  json_builder_add_string_value (builder, piece);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

/* The document split into two chunks at every position: inside numbers,
 * keys, escapes (\" \\ \u and surrogate pairs), the meta. */
static void
test_chunk_boundary_everywhere (void)
{
  gsize len = strlen (small_doc);
  ArktsReaderOptions opts;

  arkts_reader_options_init (&opts);
  opts.start_time = 1000;
  for (gsize at = 1; at < len; at++)
    {
      g_autofree char *first = chunk_message (small_doc, at);
      g_autofree char *second = chunk_message (small_doc + at, len - at);
      g_autofree char *stream = g_strdup_printf ("{\"method\":\"HeapProfiler.reportHeapSnapshotProgress\",\"params\":{\"done\":0,\"total\":4}}\n"
                                                 "%s\n%s\n{\"id\":1,\"result\":{}}\n",
                                                 first, second);
      g_autoptr (GError) error = NULL;
      g_autoptr (ArktsRun) run = arkts_run_text (stream, -1, "split.jsonl", &opts, &error);
      g_assert_no_error (error);
      check_small_doc (run, 1000);
      g_assert_cmpuint (arkts_reader_get_stats (run->reader)->chunks, ==, 2);
      g_assert_cmpuint (arkts_reader_get_stats (run->reader)->snapshots, ==, 1);
    }
}

/* Three chunks, the message stream read one byte at a time, and as a
 * JSON array (pretty-printed, so newlines between tokens). */
static void
test_chunk_stream_framings (void)
{
  gsize len = strlen (small_doc);
  g_autofree char *a = chunk_message (small_doc, 100);
  g_autofree char *b = chunk_message (small_doc + 100, 333);
  g_autofree char *c = chunk_message (small_doc + 433, len - 433);
  g_autofree char *lines = g_strdup_printf ("%s\n%s\n%s\n{\"id\":1,\"result\":{}}\n", a, b, c);
  g_autofree char *concatenated = g_strdup_printf ("%s%s %s{\"id\":1,\"result\":{}}", a, b, c);
  g_autofree char *array = g_strdup_printf ("[\n  %s,\n  %s,\n  %s,\n  {\n    \"id\": 1,\n    \"result\": {}\n  }\n]\n", a, b, c);
  const char *framings[] = { lines, concatenated, array };

  for (guint f = 0; f < G_N_ELEMENTS (framings); f++)
    for (gsize size = 1; size <= 2; size++)
      {
        ArktsReaderOptions opts;
        g_autoptr (GError) error = NULL;
        g_autoptr (ArktsRun) run = NULL;
        arkts_reader_options_init (&opts);
        opts.read_size = size == 1 ? 1 : 0;
        run = arkts_run_text (framings[f], -1, "framed.json", &opts, &error);
        g_assert_no_error (error);
        check_small_doc (run, 0);
        g_assert_cmpuint (arkts_reader_get_stats (run->reader)->messages, ==, 4);
      }
}

/* Arrays before the meta (not V8's order) are kept and read once the
 * meta comes. */
static void
test_meta_after_arrays (void)
{
  const char *doc = "{\"nodes\":[1,1,1,10,1,0,2,2,32,0],\"edges\":[0,0,0],"
                    "\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"],"
                    "\"node_types\":[[\"hidden\",\"object\"]]}},\"strings\":[\"\",\"A\",\"B\"]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (doc, -1, "order.heapsnapshot", NULL, &error);
  const TraceEvent *ev;

  g_assert_no_error (error);
  ev = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap snapshot", 0);
  g_assert_cmpint (arkts_run_arg_int (run, ev, "node_count"), ==, 2);
  g_assert_cmpint (arkts_run_arg_int (run, ev, "edge_count"), ==, 1);
  g_assert_cmpint (arkts_run_arg_int (run, ev, "self_size"), ==, 42);
  g_assert_cmpstr (arkts_run_arg_string (run, ev, "constructors[0].name"), ==, "(system)");
  g_assert_cmpstr (arkts_run_arg_string (run, ev, "constructors[1].name"), ==, "A");
  g_assert_null (arkts_reader_get_warning_summary (run->reader));
}

/* ---- markers and modes ---- */

/* A snapshot with @n objects of 10 bytes each. */
static char *
tiny_doc (guint n,
          const char *extra)
{
  GString *doc = g_string_new ("{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"],"
                               "\"node_types\":[[\"hidden\",\"object\"]]},\"node_count\":");
  g_string_append_printf (doc, "%u,\"edge_count\":0},\"nodes\":[", n);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (doc, "%s1,1,%u,10,0", i ? "," : "", i + 1);
  g_string_append_printf (doc, "],\"edges\":[]%s,\"strings\":[\"\",\"A\"]}", extra);
  return g_string_free (doc, FALSE);
}

static void
test_snapshot_mode_several (gconstpointer data)
{
  ArktsMemoryMode mode = GPOINTER_TO_INT (data);
  g_autoptr (GString) stream = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = NULL;
  ArktsReaderOptions opts;

  arkts_reader_options_init (&opts);
  opts.mode = mode;
  opts.start_time = 5000000000;
  opts.snapshot_interval = 2000000000;
  opts.pid = 77;
  for (guint k = 0; k < 3; k++)
    {
      g_autofree char *doc = tiny_doc (k + 1, "");
      g_autofree char *msg = chunk_message (doc, strlen (doc));
      g_string_append_printf (stream, "%s\n{\"id\":1,\"result\":{}}\n", msg);
    }
  run = arkts_run_text (stream->str, -1, "snapshots.jsonl", &opts, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_INSTANT, "JS heap snapshot"), ==, 3);
  for (guint k = 0; k < 3; k++)
    {
      const TraceEvent *ev = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap snapshot", k);
      const TraceEvent *counter = arkts_run_find (run, TRACE_EVENT_COUNTER, "JS heap self size", k);
      g_assert_cmpint (ev->ts, ==, 5000000000 + k * 2000000000);
      g_assert_cmpint (ev->pid, ==, 77);
      g_assert_cmpint (ev->flags, ==, TRACE_EVENT_FLAG_SCOPE_PROCESS);
      g_assert_cmpint (arkts_run_arg_int (run, ev, "snapshot"), ==, k);
      g_assert_cmpint (arkts_run_arg_int (run, ev, "node_count"), ==, k + 1);
      g_assert_cmpstr (arkts_run_arg_string (run, ev, "constructors[0].name"), ==, "A");
      g_assert_cmpint (counter->ts, ==, ev->ts);
      g_assert_cmpfloat (counter->u.counter.value, ==, 10.0 * (k + 1));
    }
  g_assert_null (arkts_reader_get_warning_summary (run->reader));
}

/* A timeline captured from the middle: no {"id":1} start marker; the
 * stats messages tell it is a timeline. */
static void
test_timeline_without_start_marker (void)
{
  g_autofree char *doc = tiny_doc (2, ",\"samples\":[0,100,50000,120]");
  g_autofree char *chunk = chunk_message (doc, strlen (doc));
  g_autofree char *stream = g_strdup_printf (
      "{\"method\":\"HeapProfiler.heapStatsUpdate\",\"params\":{\"statsUpdate\":[0,10,1000,1,5,500]}}\n"
      "{\"method\":\"HeapProfiler.lastSeenObjectId\",\"params\":{\"lastSeenObjectId\":100,\"timestamp\":1700000000000.5}}\n"
      "{\"method\":\"HeapProfiler.heapStatsUpdate\",\"params\":{\"statsUpdate\":[1,7,700]}}\n"
      "{\"method\":\"HeapProfiler.lastSeenObjectId\",\"params\":{\"lastSeenObjectId\":120,\"timestamp\":1700000000050.5}}\n"
      "%s\n{\"id\":2,\"result\":{}}\n",
      chunk);
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = NULL;
  ArktsReaderOptions opts;
  const TraceEvent *ev;

  arkts_reader_options_init (&opts);
  opts.start_time = 1000000000;
  run = arkts_run_text (stream, -1, "timeline.jsonl", &opts, &error);
  g_assert_no_error (error);
  ev = arkts_run_find (run, TRACE_EVENT_COUNTER, "JS heap tracked size", 0);
  g_assert_cmpint (ev->ts, ==, 1000000000);
  g_assert_cmpfloat (ev->u.counter.value, ==, 1500);
  ev = arkts_run_find (run, TRACE_EVENT_COUNTER, "JS heap tracked size", 1);
  g_assert_cmpint (ev->ts, ==, 1050000000);
  g_assert_cmpfloat (ev->u.counter.value, ==, 1700); /* fragment 1 now 700: 1000 + 700 */
  g_assert_cmpfloat (arkts_run_find (run, TRACE_EVENT_COUNTER, "JS heap tracked objects", 1)->u.counter.value, ==, 17);
  ev = arkts_run_find (run, TRACE_EVENT_COUNTER, "JS heap last seen object id", 1);
  g_assert_cmpint (ev->ts, ==, 1050000000);
  g_assert_cmpfloat (ev->u.counter.value, ==, 120);
  g_assert_cmpfloat (arkts_run_arg (run, ev, "timestamp_ms")->v.d, ==, 1700000000050.5);
  /* the document: samples relative to the timeline start */
  g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_COUNTER, "JS heap last assigned id", 1)->ts, ==, 1050000000);
  ev = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap snapshot", 0);
  g_assert_cmpint (ev->ts, ==, 1050000000);
  g_assert_cmpstr (arkts_run_arg_string (run, ev, "kind"), ==, "timeline");
  g_assert_cmpuint (arkts_reader_get_stats (run->reader)->stats_updates, ==, 2);
  g_assert_cmpuint (arkts_reader_get_stats (run->reader)->timelines, ==, 1);
  g_assert_null (arkts_reader_get_warning_summary (run->reader));
}

/* The capture stopped inside a document: dropped, said where. */
static void
test_unterminated_tail (void)
{
  g_autofree char *doc = tiny_doc (3, "");
  gsize cut = strstr (doc, "\"nodes\":[") - doc + 12;
  g_autofree char *chunk = chunk_message (doc, cut);
  g_autofree char *stream = g_strdup_printf ("{\"id\":1,\"result\":{}}\n%s\n", chunk);
  g_autofree char *summary = NULL;
  g_autofree char *expected = g_strdup_printf ("tail.jsonl: 1 truncated snapshot (first at line 2: snapshot 0: snapshot cut off inside \"nodes\" after %zu bytes (end of input))", cut);
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (stream, -1, "tail.jsonl", NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (run->events->n_events, ==, 0);
  summary = arkts_reader_get_warning_summary (run->reader);
  g_assert_cmpstr (summary, ==, expected);
}

/* The end marker came before the document's end: that snapshot is
 * dropped, the next one is read. */
static void
test_marker_cuts_snapshot (void)
{
  g_autofree char *doc = tiny_doc (2, "");
  g_autofree char *part = chunk_message (doc, 30);
  g_autofree char *whole = chunk_message (doc, strlen (doc));
  g_autofree char *stream = g_strdup_printf ("%s\n{\"id\":1,\"result\":{}}\n%s\n{\"id\":1,\"result\":{}}\n", part, whole);
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (stream, -1, "cut.jsonl", NULL, &error);
  const ArktsSkipStat *stat;

  g_assert_no_error (error);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_INSTANT, "JS heap snapshot"), ==, 1);
  g_assert_cmpint (arkts_run_arg_int (run, arkts_run_find (run, TRACE_EVENT_INSTANT, NULL, 0), "snapshot"), ==, 1);
  stat = &arkts_reader_get_stats (run->reader)->skipped[ARKTS_SKIP_TRUNCATED_SNAPSHOT];
  g_assert_cmpuint (stat->count, ==, 1);
  g_assert_cmpstr (stat->first_where, ==, "line 2");
  g_assert_cmpstr (stat->first_detail, ==, "snapshot 0: snapshot cut off inside \"snapshot\" after 30 bytes (end of snapshot marker came first)");
}

/* Bad messages are counted by reason with the first one's line. */
static void
test_bad_messages (void)
{
  const char *bad_doc = "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"self_size\"],\"node_types\":[[\"hidden\"]]}},\"nodes\":[0,5,x]}";
  g_autofree char *chunk = chunk_message (bad_doc, strlen (bad_doc));
  g_autofree char *stream = g_strdup_printf (
      "{\"method\":\"HeapProfiler.collectGarbage\",\"params\":{}}\n"
      "not json at all\n"
      "%s\n"
      "{\"id\":1,\"result\":{}}\n"
      "{\"method\":\"HeapProfiler.reportHeapSnapshotProgress\",\"params\":{\"done\":1,\"total\":1}}\n"
      "{\"method\": \"cut\n"
      "{\"id\":7,\"result\":{}}\n",
      chunk);
  g_autofree char *expected = g_strdup_printf (
      "msgs.jsonl: 2 malformed message (first at line 2: text starting with 'n' between messages); "
      "1 unknown method (first at line 1: unknown method \"HeapProfiler.collectGarbage\"); "
      "1 unknown result (first at line 7: marker id 7 means nothing here); "
      "1 malformed snapshot (first at line 3: snapshot 0: snapshot offset %td: expected a value, found 'x')",
      strchr (bad_doc, 'x') - bad_doc);
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (stream, -1, "msgs.jsonl", NULL, &error);
  g_autofree char *summary = NULL;

  g_assert_no_error (error);
  summary = arkts_reader_get_warning_summary (run->reader);
  g_assert_cmpstr (summary, ==, expected);
  g_assert_cmpuint (arkts_reader_get_stats (run->reader)->messages, ==, 5);
  g_assert_cmpuint (run->events->n_events, ==, 0);
}

static void
test_bad_stats (void)
{
  const char *stream = "{\"method\":\"HeapProfiler.heapStatsUpdate\",\"params\":{\"statsUpdate\":[0,\"x\",5,1,2,3]}}\n"
                       "{\"method\":\"HeapProfiler.heapStatsUpdate\",\"params\":{\"statsUpdate\":[0,1]}}\n"
                       "{\"method\":\"HeapProfiler.lastSeenObjectId\",\"params\":{}}\n"
                       "{\"method\":\"HeapProfiler.lastSeenObjectId\",\"params\":{\"lastSeenObjectId\":9,\"timestamp\":20.0}}\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (stream, -1, "stats.jsonl", NULL, &error);
  const ArktsSkipStat *stat;

  g_assert_no_error (error);
  stat = &arkts_reader_get_stats (run->reader)->skipped[ARKTS_SKIP_BAD_STATS];
  g_assert_cmpuint (stat->count, ==, 3);
  g_assert_cmpstr (stat->first_where, ==, "line 1");
  g_assert_cmpstr (stat->first_detail, ==, "heapStatsUpdate with a fragment that is not [index, count, size]");
  /* the good triplet of line 1 counts */
  g_assert_cmpfloat (arkts_run_find (run, TRACE_EVENT_COUNTER, "JS heap tracked size", 0)->u.counter.value, ==, 3);
}

/* ---- bad input: exact errors ---- */

typedef struct
{
  const char *location;
  const char *text;
  gssize len;
  GQuark domain;
  int code;
  const char *message; /* a "…" prefix, for texts ending in a library's words */
} BadInput;

static void
test_bad_input (void)
{
  static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
  static const char broken_gzip[] = "\x1f\x8b\x08\0\0\0\0\0\0\x03garbage that is not deflate";
  const char *plain_bad = "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"self_size\"],\"node_types\":[[\"hidden\"]]}},\"nodes\":[0,1,]}";
  g_autofree char *plain_bad_message = g_strdup_printf ("bad.heapsnapshot: snapshot offset %td: expected a value, found ']'", strrchr (plain_bad, ']') - plain_bad);
  const char *no_meta = "{\"nodes\":[1,2],\"edges\":[]}";
  g_autofree char *no_meta_message = g_strdup_printf ("nometa.heapsnapshot: snapshot offset %zu: the document has no \"snapshot\" meta", strlen (no_meta) - 1);
  const BadInput cases[] = {
    { "empty.json", "", 0, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY, "empty.json: the input is empty" },
    { "blank.json", " \n\t\n", -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY, "blank.json: the input is empty" },
    { "img.png", png, sizeof png - 1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
      "img.png: not ArkTS/V8 profiler data: found binary data (starting 89 50 4e 47 0d 0a 1a 0a)" },
    { "trace.txt", "# tracer: nop\n#\n", -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
      "trace.txt: not ArkTS/V8 profiler data: found text \"# tracer: nop\"" },
    { "chrome.json", "{\"traceEvents\":[],\"displayTimeUnit\":\"ns\"}", -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
      "chrome.json: not ArkTS/V8 profiler data: found a JSON object with keys \"traceEvents\", \"displayTimeUnit\"" },
    { "chrome.json", "[{\"name\":\"a\",\"ph\":\"B\",\"ts\":1}]", -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
      "chrome.json: not ArkTS/V8 profiler data: found a JSON array of objects with key \"name\" (not DevTools messages)" },
    { "numbers.json", "[1,2,3]", -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
      "numbers.json: not ArkTS/V8 profiler data: found a JSON array of values that are not objects" },
    { "none.json", "[ ]", -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY, "none.json: the input is an empty JSON array" },
    { "bad.heapsnapshot", plain_bad, -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, plain_bad_message },
    { "nometa.heapsnapshot", no_meta, -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, no_meta_message },
    { "meta.heapsnapshot", "{\"snapshot\":{\"meta\":{}},\"nodes\":[]}", -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
      "meta.heapsnapshot: snapshot.meta.node_fields is missing or has more than 32 fields" },
    { "twice.heapsnapshot",
      "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"self_size\"],\"node_types\":[[\"hidden\"]]}},"
      "\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"self_size\"],\"node_types\":[[\"hidden\"]]}},\"nodes\":[0,1]}",
      -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "twice.heapsnapshot: a second \"snapshot\" object" },
    { "x.json", "{\"foo\": }", -1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "x.json: not valid JSON: …" },
    { "x.gz", broken_gzip, sizeof broken_gzip - 1, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_DECODE, "x.gz: gzip data is corrupt after 0 bytes: …" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      gboolean gzip = g_str_has_suffix (cases[i].location, ".gz");
      ArktsRun *run = gzip ? arkts_run_gzip_text (cases[i].text, cases[i].len, cases[i].location, NULL, &error)
                           : arkts_run_text (cases[i].text, cases[i].len, cases[i].location, NULL, &error);
      const char *ellipsis = strstr (cases[i].message, "…");
      g_assert_null (run);
      g_assert_error (error, cases[i].domain, cases[i].code);
      if (ellipsis)
        {
          g_autofree char *prefix = g_strndup (cases[i].message, ellipsis - cases[i].message);
          g_assert_true (g_str_has_prefix (error->message, prefix));
        }
      else
        g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

/* A plain snapshot cut short is not an error: counted, nothing out. */
static void
test_plain_truncated (void)
{
  g_autofree char *doc = tiny_doc (3, "");
  gsize cut = strlen (doc) - 5;
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (doc, cut, "short.heapsnapshot", NULL, &error);
  const ArktsSkipStat *stat;

  g_assert_no_error (error);
  g_assert_cmpuint (run->events->n_events, ==, 0);
  stat = &arkts_reader_get_stats (run->reader)->skipped[ARKTS_SKIP_TRUNCATED_SNAPSHOT];
  g_assert_cmpuint (stat->count, ==, 1);
  {
    g_autofree char *detail = g_strdup_printf ("snapshot cut off inside \"strings\" after %zu bytes (end of input)", cut);
    g_autofree char *where = g_strdup_printf ("byte offset %zu", cut);
    g_assert_cmpstr (stat->first_detail, ==, detail);
    g_assert_cmpstr (stat->first_where, ==, where);
  }
}

/* ---- CPU profile corners ---- */

static const char two_functions[] =
    "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"children\":[2,3]},"
    "{\"id\":2,\"callFrame\":{\"functionName\":\"a\",\"scriptId\":\"1\",\"url\":\"app.js\",\"lineNumber\":3,\"columnNumber\":7}},"
    "{\"id\":3,\"callFrame\":{\"functionName\":\"\",\"scriptId\":\"1\",\"url\":\"app.js\",\"lineNumber\":9,\"columnNumber\":0}}";

/* Negative deltas put samples out of order: sorted by time. */
static void
test_negative_deltas (void)
{
  g_autofree char *text = g_strdup_printf ("{\"nodes\":[%s],\"startTime\":1000,\"endTime\":2000,"
                                           "\"samples\":[2,3,2],\"timeDeltas\":[100,50,-120]}",
                                           two_functions);
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (text, -1, "neg.cpuprofile", NULL, &error);
  const gint64 sample_ts[] = { 1030000, 1100000, 1150000 };
  const guint64 sample_node[] = { 2, 2, 3 };
  const TraceEvent *ev;

  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    {
      ev = arkts_run_find (run, TRACE_EVENT_SAMPLE, NULL, i);
      g_assert_cmpint (ev->ts, ==, sample_ts[i]);
      g_assert_cmpuint (ev->u.sample.node_id, ==, sample_node[i]);
    }
  /* "a" from the first sample to the third; the anonymous function from
   * there one mean interval (60 µs) on */
  ev = arkts_run_find (run, TRACE_EVENT_SLICE_BEGIN, "a", 0);
  g_assert_cmpint (ev->ts, ==, 1030000);
  g_assert_cmpstr (arkts_run_arg_string (run, ev, "url"), ==, "app.js");
  g_assert_cmpint (arkts_run_arg_int (run, ev, "line"), ==, 3);
  g_assert_cmpint (arkts_run_arg_int (run, ev, "column"), ==, 7);
  g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_SLICE_END, "a", 0)->ts, ==, 1150000);
  g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_SLICE_BEGIN, "(anonymous)", 0)->ts, ==, 1150000);
  g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_SLICE_END, "(anonymous)", 0)->ts, ==, 1210000);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_SLICE_BEGIN, NULL), ==, 2);
  g_assert_cmpuint (arkts_reader_get_stats (run->reader)->samples_reordered, ==, 1);
  g_assert_true (arkts_run_arg (run, arkts_run_find (run, TRACE_EVENT_INSTANT, "JS CPU profile", 0), "samples_reordered")->v.b);
}

/* Old form without timestamps: samples spread over startTime..endTime
 * (seconds in that form). */
static void
test_old_format_without_timestamps (void)
{
  const char *text = "{\"head\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":0,\"id\":1,\"children\":["
                     "{\"functionName\":\"f\",\"url\":\"x.js\",\"lineNumber\":4,\"id\":2,\"children\":["
                     "{\"functionName\":\"g\",\"url\":\"x.js\",\"lineNumber\":8,\"id\":3,\"children\":[]}]}]},"
                     "\"startTime\":1,\"endTime\":2,\"samples\":[2,3,3,2]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (text, -1, "old.cpuprofile", NULL, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_SAMPLE, NULL, i)->ts, ==, 1000000000 + i * 250000000);
  g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_SLICE_BEGIN, "f", 0)->ts, ==, 1000000000);
  g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_SLICE_BEGIN, "g", 0)->ts, ==, 1250000000);
  g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_SLICE_END, "g", 0)->ts, ==, 1750000000);
  g_assert_cmpint (arkts_run_find (run, TRACE_EVENT_SLICE_END, "f", 0)->ts, ==, 2000000000);
}

/* A profile's other times (ArkTS's gcTime, …) go on its summary: a whole number in
 * int64's range as an int, anything else (a fraction, 1e300, an exponent
 * too large for a double) as a double, never an int cast out of range. */
static void
test_extra_fields (void)
{
  const char *text = "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[]}],"
                     "\"startTime\":1,\"endTime\":2,\"samples\":[1],\"timeDeltas\":[0],"
                     "\"gcTime\":7,\"fracTime\":1.5,\"hugeTime\":1e300,\"infTime\":1631405e99286,"
                     "\"edgeTime\":9.3e18}";
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (text, -1, "extras.cpuprofile", NULL, &error);
  const TraceEvent *summary;

  g_assert_no_error (error);
  summary = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS CPU profile", 0);
  g_assert_nonnull (summary);
  g_assert_cmpint (arkts_run_arg_int (run, summary, "gcTime"), ==, 7);
  g_assert_cmpint (arkts_run_arg (run, summary, "fracTime")->type, ==, TRACE_ARG_DOUBLE);
  g_assert_cmpfloat (arkts_run_arg (run, summary, "fracTime")->v.d, ==, 1.5);
  g_assert_cmpint (arkts_run_arg (run, summary, "hugeTime")->type, ==, TRACE_ARG_DOUBLE);
  g_assert_cmpfloat (arkts_run_arg (run, summary, "hugeTime")->v.d, ==, 1e300);
  g_assert_cmpint (arkts_run_arg (run, summary, "infTime")->type, ==, TRACE_ARG_DOUBLE);
  g_assert_true (isinf (arkts_run_arg (run, summary, "infTime")->v.d));
  g_assert_cmpint (arkts_run_arg (run, summary, "edgeTime")->type, ==, TRACE_ARG_DOUBLE);
}

/* Broken trees and samples: counted, no hang, the rest converted. */
static void
test_broken_profile (void)
{
  const char *text = "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[9]},"
                     "{\"id\":2,\"callFrame\":{\"functionName\":\"x\"},\"children\":[3]},"
                     "{\"id\":3,\"callFrame\":{\"functionName\":\"y\"},\"children\":[2]},"
                     "{\"callFrame\":{\"functionName\":\"no id\"}}],"
                     "\"startTime\":0,\"endTime\":100,\"samples\":[3,42,2],\"timeDeltas\":[10,10]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = arkts_run_text (text, -1, "broken.cpuprofile", NULL, &error);
  const ArktsReaderStats *stats;

  g_assert_no_error (error);
  stats = arkts_reader_get_stats (run->reader);
  /* child 9 unknown, node without id, the cycle 2 ↔ 3 */
  g_assert_cmpuint (stats->skipped[ARKTS_SKIP_BAD_PROFILE_NODE].count, ==, 3);
  /* sample naming node 42, the third without a delta */
  g_assert_cmpuint (stats->skipped[ARKTS_SKIP_BAD_SAMPLE].count, ==, 2);
  g_assert_cmpstr (stats->skipped[ARKTS_SKIP_BAD_SAMPLE].first_detail, ==, "sample names node 42, which is not in the profile");
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_SAMPLE, NULL), ==, 1);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_STACK_NODE, NULL), ==, 3);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_SLICE_BEGIN, NULL), ==, arkts_run_count (run, TRACE_EVENT_SLICE_END, NULL));
}

/* A long profile comes out in several batches of bounded size. */
static void
test_long_profile_batches (void)
{
  GString *text = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = NULL;
  const guint n = 30000;

  g_string_append_printf (text, "{\"nodes\":[%s],\"startTime\":0,\"endTime\":1000000000,\"samples\":[", two_functions);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s%u", i ? "," : "", 2 + i % 2);
  g_string_append (text, "],\"timeDeltas\":[");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s%u", i ? "," : "", 100);
  g_string_append (text, "]}");
  run = arkts_run_text (text->str, text->len, "long.cpuprofile", NULL, &error);
  g_string_free (text, TRUE);
  g_assert_no_error (error);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_SAMPLE, NULL), ==, n);
  g_assert_cmpuint (arkts_run_count (run, TRACE_EVENT_SLICE_BEGIN, NULL), ==, n);
  g_assert_cmpuint (run->n_batches, >, 1);
  /* a sample adds at most a few events past the batch size */
  g_assert_cmpuint (run->max_batch, <=, TRACE_BATCH_DEFAULT_SIZE + 3);
}

/* ---- deep trace trees ---- */

/* A trace tree as deep as it is long: walked without recursion. */
static void
test_deep_trace_tree (void)
{
  const guint depth = 200000;
  g_autofree char *head = tiny_doc (1, "");
  GString *doc = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (ArktsRun) run = NULL;
  const TraceEvent *alloc;

  /* tiny_doc ends with "…,\"strings\":[…]}": put the tree before strings */
  g_string_append_len (doc, head, strstr (head, ",\"strings\"") - head);
  g_string_append (doc, ",\"trace_function_infos\":[0,1,1,0,1,1],\"trace_tree\":[");
  for (guint i = 0; i < depth; i++)
    g_string_append_printf (doc, "%u,0,1,8,[", i + 1);
  for (guint i = 0; i <= depth; i++)
    g_string_append_c (doc, ']');
  g_string_append (doc, strstr (head, ",\"strings\""));
  run = arkts_run_text (doc->str, doc->len, "deep.heaptimeline", NULL, &error);
  g_string_free (doc, TRUE);
  g_assert_no_error (error);
  alloc = arkts_run_find (run, TRACE_EVENT_INSTANT, "JS heap allocations", 0);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "trace_node_count"), ==, depth);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "allocated.count"), ==, depth);
  g_assert_cmpint (arkts_run_arg_int (run, alloc, "allocated.size"), ==, 8 * depth);
  g_assert_cmpstr (arkts_run_arg_string (run, alloc, "functions[0].name"), ==, "A");
}

/* A profile followed by 20 MiB of whitespace: no call reads it all at
 * once (the caller's main loop, where Ctrl-C is handled, runs between
 * calls); calls that got nothing return empty batches. */
static void
test_input_bound (void)
{
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "arkts", "speedscope_chrome65_simple.cpuprofile", NULL);
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *doc = NULL;
  g_autoptr (GString) s = NULL;
  ArktsReader *r;
  TraceBatch *b;
  guint empty = 0, events = 0;
  gsize len;

  g_assert_true (g_file_get_contents (path, &doc, &len, NULL));
  s = g_string_new_len (doc, len);
  g_string_set_size (s, len + 20 * 1024 * 1024);
  memset (s->str + len, ' ', 20 * 1024 * 1024);
  in = g_memory_input_stream_new_from_data (s->str, s->len, NULL);
  r = arkts_reader_new (in, "spaces.cpuprofile", pool, NULL);
  while (arkts_reader_read_batch (r, &b, &error) && b != NULL)
    {
      empty += b->n_events == 0;
      events += b->n_events;
      trace_batch_unref (b);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (events, >, 0);
  g_assert_cmpuint (empty, >=, 4);
  arkts_reader_free (r);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/arkts/reader/small-doc/plain", test_small_doc_plain);
  g_test_add_func ("/arkts/reader/input-bound", test_input_bound);
  g_test_add_func ("/arkts/reader/small-doc/read-sizes", test_small_doc_read_sizes);
  g_test_add_func ("/arkts/reader/small-doc/meta-after-arrays", test_meta_after_arrays);
  g_test_add_func ("/arkts/reader/chunks/boundary-everywhere", test_chunk_boundary_everywhere);
  g_test_add_func ("/arkts/reader/chunks/framings", test_chunk_stream_framings);
  g_test_add_data_func ("/arkts/reader/markers/snapshot-mode", GINT_TO_POINTER (ARKTS_MODE_SNAPSHOT), test_snapshot_mode_several);
  g_test_add_data_func ("/arkts/reader/markers/auto-mode", GINT_TO_POINTER (ARKTS_MODE_AUTO), test_snapshot_mode_several);
  g_test_add_func ("/arkts/reader/markers/timeline-without-start", test_timeline_without_start_marker);
  g_test_add_func ("/arkts/reader/markers/unterminated-tail", test_unterminated_tail);
  g_test_add_func ("/arkts/reader/markers/marker-cuts-snapshot", test_marker_cuts_snapshot);
  g_test_add_func ("/arkts/reader/bad/messages", test_bad_messages);
  g_test_add_func ("/arkts/reader/bad/input", test_bad_input);
  g_test_add_func ("/arkts/reader/bad/stats", test_bad_stats);
  g_test_add_func ("/arkts/reader/bad/plain-truncated", test_plain_truncated);
  g_test_add_func ("/arkts/reader/cpu/negative-deltas", test_negative_deltas);
  g_test_add_func ("/arkts/reader/cpu/old-format-without-timestamps", test_old_format_without_timestamps);
  g_test_add_func ("/arkts/reader/cpu/broken-profile", test_broken_profile);
  g_test_add_func ("/arkts/reader/cpu/extra-fields", test_extra_fields);
  g_test_add_func ("/arkts/reader/cpu/long-profile-batches", test_long_profile_batches);
  g_test_add_func ("/arkts/reader/heap/deep-trace-tree", test_deep_trace_tree);
  return g_test_run ();
}
