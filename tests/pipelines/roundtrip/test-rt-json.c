/* Round trips through Chrome JSON, element to element: `SRC ! json-sink`
 * then `json-src` gives back what `SRC` gives, less what docs/json.md
 * says a round trip changes; every file written is parsed by json-glib;
 * kernel records written as systemTraceEvents text come back through
 * json-src's ftrace line parser, and no atrace marker is written twice. */
#include <json-glib/json-glib.h>
#include <string.h>

#include "rt-util.h"
#include <trace/check/traceharness.h>

/* ---- the file as a JSON parser reads it ---- */

typedef struct
{
  guint events, x, b, e, counters, metadata;
  gint64 kernel_lines;
  guint marker_lines; /* tracing_mark_write / print / 0 lines in systemTraceEvents */
  gboolean has_system_trace;
} JsonFacts;

/* Parses @path with json-glib (the whole file must be valid JSON) and
 * checks every event has what its phase needs. */
static void
parse_written (const char *path,
               JsonFacts *f)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root;
  JsonArray *events;

  memset (f, 0, sizeof *f);
  json_parser_load_from_mapped_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (root, "traceEvents"));
  g_assert_cmpstr (json_object_get_string_member (root, "displayTimeUnit"), ==, "ns");
  events = json_object_get_array_member (root, "traceEvents");
  f->events = json_array_get_length (events);
  for (guint i = 0; i < f->events; i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *ph;

      g_assert_nonnull (ev);
      ph = json_object_get_string_member (ev, "ph");
      g_assert_nonnull (ph);
      g_assert_cmpuint (strlen (ph), ==, 1);
      /* pid may be absent (samples of an unknown process) */
      if (json_object_has_member (ev, "pid"))
        g_assert_cmpint (json_node_get_value_type (json_object_get_member (ev, "pid")), ==, G_TYPE_INT64);
      if (ph[0] != 'M')
        g_assert_true (JSON_NODE_HOLDS_VALUE (json_object_get_member (ev, "ts")));
      f->x += ph[0] == 'X';
      f->b += ph[0] == 'B';
      f->e += ph[0] == 'E';
      f->counters += ph[0] == 'C';
      f->metadata += ph[0] == 'M';
      if (ph[0] == 'X')
        g_assert_cmpint (json_object_get_int_member (ev, "dur") >= 0 || json_object_get_double_member (ev, "dur") >= 0, ==, TRUE);
    }
  if (json_object_has_member (root, "systemTraceEvents"))
    {
      g_auto (GStrv) lines = rt_split_lines (json_object_get_string_member (root, "systemTraceEvents"));

      f->has_system_trace = TRUE;
      for (guint i = 0; lines[i]; i++)
        {
          if (lines[i][0] == '#' || lines[i][0] == '\0')
            continue;
          f->kernel_lines++;
          if (strstr (lines[i], ": tracing_mark_write: ") || strstr (lines[i], ": print: ") || strstr (lines[i], ": 0: "))
            f->marker_lines++;
        }
    }
}

/* ---- generated events ---- */

/* Removes from @got the thread names @want does not have. */
static void
keep_names_of (GPtrArray *got,
               GPtrArray *want)
{
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < want->len; i++)
    g_hash_table_add (wanted, want->pdata[i]);
  for (guint i = got->len; i-- > 0;)
    if (g_str_has_prefix (got->pdata[i], "N thread ") && !g_hash_table_contains (wanted, got->pdata[i]))
      g_ptr_array_remove_index (got, i);
}

/* The Perfetto packet of the every-kind stream went out as a metadata
 * event and comes back as the record it was: its name and both args. */
static void
check_record_came_back (TraceBatch *back)
{
  guint records = 0;

  for (guint i = 0; i < back->n_events; i++)
    {
      const TraceEvent *ev = &back->events[i];
      const TraceArg *args;

      if (ev->kind != TRACE_EVENT_RECORD)
        continue;
      records++;
      args = trace_batch_get_args (back, ev);
      g_assert_cmpstr (trace_string_pool_get (back->pool, ev->name), ==, "perfetto_packet_38");
      g_assert_cmpint (ev->ts, ==, 9200);
      g_assert_cmpuint (ev->n_args, ==, 2);
      g_assert_cmpstr (trace_string_pool_get (back->pool, args[0].key), ==, "perfetto.field");
      g_assert_cmpint (args[0].type == TRACE_ARG_UINT ? (gint64) args[0].v.u : args[0].v.i, ==, 38);
      g_assert_cmpstr (trace_string_pool_get (back->pool, args[1].key), ==, "perfetto.bytes");
      g_assert_cmpstr (trace_string_pool_get (back->pool, args[1].v.s), ==, "AggF");
    }
  g_assert_cmpuint (records, ==, 1);
}

static void
test_all_kinds (void)
{
  g_autofree char *dir = rt_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "all.json", NULL);
  g_autofree char *sink = g_strdup_printf ("json-sink location=%s", path);
  g_autofree char *src = g_strdup_printf ("json-src location=%s ! collectsink name=out", path);
  g_autoptr (TraceHarness) h = trace_harness_new_parse (sink);
  g_autoptr (TraceBatch) in = NULL;
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GPtrArray) want = NULL;
  g_autoptr (GPtrArray) got = NULL;
  JsonFacts f;

  trace_harness_set_stream_start (h, 0, "test", TRACE_CLOCK_BOOTTIME);
  in = rt_all_kinds (trace_harness_get_string_pool (h));
  g_assert_cmpint (trace_harness_push (h, trace_batch_ref (in)), ==, TRACE_FLOW_OK);
  g_assert_true (trace_harness_push_eos (h));
  parse_written (path, &f);
  g_assert_true (f.has_system_trace);
  g_assert_cmpuint (f.marker_lines, ==, 0);
  back = rt_run (src, TRUE);
  want = rt_view (in, RT_VIEW_JSON);
  got = rt_view (back, RT_VIEW_JSON);
  /* json-src's ftrace parser also names threads from the kernel lines'
   * comms, which the hand-made stream did not announce: names read back
   * may be more, never fewer. */
  keep_names_of (got, want);
  rt_assert_same_view ("all kinds", want, got);
  check_record_came_back (back);
  rt_rmtree (dir);
}

/* ---- corpus ---- */

static guint
count_kind (TraceBatch *b,
            TraceEventKind kind)
{
  guint n = 0;

  for (guint i = 0; i < b->n_events; i++)
    n += b->events[i].kind == kind;
  return n;
}

/* `SRC location=F ! collectsink` against `SRC ! json-sink` then
 * `json-src ! collectsink`; returns what the written file holds. */
static void
round_trip_file (const char *source,
                 const char *path,
                 JsonFacts *f,
                 TraceBatch **direct_out,
                 TraceBatch **back_out)
{
  g_autofree char *dir = rt_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *direct_desc = g_strdup_printf ("%s location=%s ! collectsink name=out", source, path);
  g_autofree char *write_desc = g_strdup_printf ("%s location=%s ! json-sink location=%s", source, path, out);
  g_autofree char *read_desc = g_strdup_printf ("json-src location=%s ! collectsink name=out", out);
  g_autoptr (TraceBatch) direct = rt_run (direct_desc, TRUE);
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GPtrArray) want = NULL;
  g_autoptr (GPtrArray) got = NULL;
  g_autofree char *base = g_path_get_basename (path);

  rt_run (write_desc, FALSE);
  parse_written (out, f);
  back = rt_run (read_desc, TRUE);
  want = rt_view (direct, RT_VIEW_JSON);
  got = rt_view (back, RT_VIEW_JSON);
  g_test_message ("%s: %u events, %u facts; %u JSON events (%u X), %" G_GINT64_FORMAT " kernel lines", base,
                  direct->n_events, want->len, f->events, f->x, f->kernel_lines);
  rt_assert_same_view (base, want, got);
  rt_rmtree (dir);
  *direct_out = g_steal_pointer (&direct);
  *back_out = g_steal_pointer (&back);
}

static void
test_json_file (gconstpointer data)
{
  g_autoptr (TraceBatch) direct = NULL;
  g_autoptr (TraceBatch) back = NULL;
  JsonFacts f;

  round_trip_file ("json-src", data, &f, &direct, &back);
  /* Every slice is one X (or, unended, one B) */
  g_assert_cmpuint (f.x + f.b, ==, count_kind (direct, TRACE_EVENT_SLICE_BEGIN) + count_kind (direct, TRACE_EVENT_SLICE_COMPLETE));
}

/* ftrace-src ! json-sink: kernel records as systemTraceEvents text come
 * back as the same records; atrace markers come back once, as events. */
static void
test_ftrace_file (gconstpointer data)
{
  g_autoptr (TraceBatch) direct = NULL;
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GPtrArray) kernel_in = NULL;
  g_autoptr (GPtrArray) kernel_back = NULL;
  JsonFacts f;
  guint kernel = 0, text_counters = 0;

  round_trip_file ("ftrace-src", data, &f, &direct, &back);
  for (guint i = 0; i < direct->n_events; i++)
    {
      const TraceEvent *ev = &direct->events[i];

      kernel += (trace_event_kind_get_group (ev->kind) & (TRACE_EVENT_GROUP_SCHED | TRACE_EVENT_GROUP_CPU | TRACE_EVENT_GROUP_FTRACE)) != 0;
      /* atrace counters go back as their line (docs/json.md) */
      text_counters += ev->kind == TRACE_EVENT_COUNTER && ev->cpu >= 0 && ev->pid >= 0;
    }
  kernel_in = rt_view (direct, RT_VIEW_JSON | RT_VIEW_KERNEL_ONLY);
  kernel_back = rt_view (back, RT_VIEW_JSON | RT_VIEW_KERNEL_ONLY);
  rt_assert_same_view ("kernel records", kernel_in, kernel_back);
  /* One text line per kernel record and atrace counter, no other marker */
  g_assert_cmpint (f.kernel_lines, ==, kernel + text_counters);
  g_assert_cmpuint (f.marker_lines, ==, text_counters);
  g_assert_cmpuint (f.counters, ==, 0);
  g_assert_cmpuint (f.x + f.b, ==, count_kind (direct, TRACE_EVENT_SLICE_BEGIN));
}

/* The "metadata" member of the JSON file at @path, as text. */
static char *
written_metadata (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonNode) copy = NULL;
  JsonObject *metadata;

  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  metadata = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "metadata");
  g_assert_nonnull (metadata);
  copy = json_node_init_object (json_node_alloc (), metadata);
  return json_to_string (copy, FALSE);
}

/* The top-level "metadata" of a Chrome trace travels with the stream:
 * json-sink writes it back, and through perfetto-sink and perfetto-src
 * (as Chrome bundle metadata) too, where a null member is not kept
 * (trace_processor keeps none) and the clock stays unknown (no
 * "clock-domain" appears). */
static void
test_metadata (void)
{
  static const char trace[] =
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"RunTask\",\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":5}],"
      "\"metadata\":{\"source\":\"DevTools\",\"hostDPR\":2,\"trials\":[\"a-1\",\"b-2\"],\"gone\":null}}";
  g_autofree char *dir = rt_tmpdir ();
  g_autofree char *in = g_build_filename (dir, "in.json", NULL);
  g_autofree char *direct = g_build_filename (dir, "direct.json", NULL);
  g_autofree char *pf = g_build_filename (dir, "out.pftrace", NULL);
  g_autofree char *back = g_build_filename (dir, "back.json", NULL);
  g_autofree char *d1 = NULL, *d2 = NULL, *d3 = NULL;
  g_autofree char *direct_text = NULL, *back_text = NULL;

  g_assert_true (g_file_set_contents (in, trace, -1, NULL));
  rt_run ((d1 = g_strdup_printf ("json-src location=%s ! json-sink location=%s", in, direct)), FALSE);
  rt_run ((d2 = g_strdup_printf ("json-src location=%s ! perfetto-sink location=%s", in, pf)), FALSE);
  rt_run ((d3 = g_strdup_printf ("perfetto-src location=%s ! json-sink location=%s", pf, back)), FALSE);
  direct_text = written_metadata (direct);
  back_text = written_metadata (back);
  g_assert_cmpstr (direct_text, ==,
                   "{\"source\":\"DevTools\",\"hostDPR\":2,\"trials\":[\"a-1\",\"b-2\"],\"gone\":null}");
  g_assert_cmpstr (back_text, ==, "{\"source\":\"DevTools\",\"hostDPR\":2,\"trials\":[\"a-1\",\"b-2\"]}");
  rt_rmtree (dir);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  test_register_collect_sink ();
  g_test_add_func ("/roundtrip/json/all-kinds", test_all_kinds);
  g_test_add_func ("/roundtrip/json/metadata", test_metadata);
  rt_add_corpus ("json", "json", test_json_file, NULL);
  rt_add_corpus ("json", "ftrace", test_ftrace_file, NULL);
  return g_test_run ();
}
