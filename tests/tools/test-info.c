/* tracepipe tests - trace-info, as a user runs it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

#define SLICES TEST_DATA_DIR "/ftrace/catapult_decompressed_atrace_data.txt"
#define KERNEL TEST_DATA_DIR "/ftrace/catapult_atrace_data.txt"

static JsonObject *
parse_object (const char *line)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, line, -1, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* What the events say, read independently: trace-launch's fakesink
 * dump=true prints "TS KIND pid=… tid=…" per event. */
typedef struct
{
  guint64 events;
  GHashTable *kinds; /* kind -> count */
  gint64 first, last;
} Dumped;

static void
dump_events (const char *path,
             Dumped *d)
{
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (Run) r = RUN ("trace-launch", NULL, "-q", "auto-src", location, "!", "fakesink", "dump=true");
  g_auto (GStrv) lines = g_strsplit (r->out, "\n", -1);

  g_assert_cmpint (r->status, ==, 0);
  d->kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  d->first = G_MAXINT64, d->last = G_MININT64;
  for (guint i = 0; lines[i] != NULL && *lines[i]; i++)
    {
      g_auto (GStrv) words = g_strsplit (lines[i], " ", 3);
      gint64 ts = g_ascii_strtoll (words[0], NULL, 10);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (d->kinds, words[1]));

      d->events++;
      g_hash_table_replace (d->kinds, g_strdup (words[1]), GUINT_TO_POINTER (n + 1));
      /* names and call-tree nodes carry no time of their own; clock
       * markers are not what filter start=+T counts from */
      if (!g_str_has_suffix (words[1], "-name") && strcmp (words[1], "stack-node") != 0 &&
          strcmp (words[1], "clock-marker") != 0)
        d->first = MIN (d->first, ts), d->last = MAX (d->last, ts);
    }
}

static void
test_info_json_matches_events (void)
{
  g_autoptr (Run) r = NULL;
  g_autoptr (JsonObject) o = NULL;
  JsonObject *kinds;
  Dumped d = { 0 };
  GHashTableIter iter;
  gpointer kind, count;

  if (trace_element_factory_find ("ftrace-src") == NULL)
    {
      g_test_skip ("ftrace-src is not built");
      return;
    }
  r = RUN ("trace-info", NULL, "--json", SLICES);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->err, ==, "");
  /* one line of JSON per file */
  g_assert_nonnull (strchr (r->out, '\n'));
  g_assert_cmpstr (strchr (r->out, '\n') + 1, ==, "");
  o = parse_object (r->out);
  dump_events (SLICES, &d);
  g_assert_cmpstr (json_object_get_string_member (o, "file"), ==, SLICES);
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "ftrace");
  g_assert_cmpstr (json_object_get_string_member (o, "detected-format"), ==, "ftrace");
  g_assert_cmpint (json_object_get_int_member (o, "events"), ==, d.events);
  g_assert_cmpint (json_object_get_int_member (o, "first-ts"), ==, d.first);
  g_assert_cmpint (json_object_get_int_member (o, "last-ts"), ==, d.last);
  g_assert_cmpint (json_object_get_int_member (o, "duration"), ==, d.last - d.first);
  kinds = json_object_get_object_member (o, "kinds");
  g_assert_cmpuint (json_object_get_size (kinds), ==, g_hash_table_size (d.kinds));
  g_hash_table_iter_init (&iter, d.kinds);
  while (g_hash_table_iter_next (&iter, &kind, &count))
    g_assert_cmpint (json_object_get_int_member (kinds, kind), ==, GPOINTER_TO_UINT (count));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "slice-names"), "count"), >, 0);
  g_hash_table_unref (d.kinds);
}

static void
test_info_text (void)
{
  g_autoptr (Run) r = NULL;
  g_autofree char *header = g_strdup_printf ("%s\n  format        ftrace (ftrace text)\n  clock         boottime", KERNEL);

  if (trace_element_factory_find ("ftrace-src") == NULL)
    {
      g_test_skip ("ftrace-src is not built");
      return;
    }
  r = RUN ("trace-info", NULL, "-n", "3", KERNEL);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->err, ==, "");
  g_assert_true (g_str_has_prefix (r->out, header));
  g_assert_nonnull (strstr (r->out, "\n  first event   "));
  g_assert_nonnull (strstr (r->out, "relative +0 s)\n"));
  g_assert_nonnull (strstr (r->out, "\n  duration      "));
  g_assert_nonnull (strstr (r->out, ", top 3 by events:\n"));
  g_assert_nonnull (strstr (r->out, "\n  skipped       nothing\n"));
}

/* A folder and a file that is not a trace: every good file is
 * summarised, the bad one is named on stderr and the exit code is 1. */
static void
test_info_many (void)
{
  g_autofree char *dir = g_build_filename (tools_test_scratch_dir (), "info-many", NULL);
  g_autofree char *bad = g_build_filename (dir, "c-not-a-trace.txt", NULL);
  g_autofree char *copy = g_build_filename (dir, "a.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (Run) r = NULL;
  g_auto (GStrv) lines = NULL;
  gsize len;

  if (trace_element_factory_find ("ftrace-src") == NULL)
    {
      g_test_skip ("ftrace-src is not built");
      return;
    }
  g_mkdir (dir, 0700);
  g_assert_true (g_file_get_contents (KERNEL, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, len, NULL));
  g_assert_true (g_file_set_contents (bad, "\x01\x02\x03 nothing to see\n", -1, NULL));
  r = RUN ("trace-info", NULL, "--json", dir, SLICES);
  g_assert_cmpint (r->status, ==, 1);
  g_assert_nonnull (strstr (r->err, "c-not-a-trace.txt"));
  lines = g_strsplit (r->out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3); /* two objects and the empty rest */
  {
    g_autoptr (JsonObject) first = parse_object (lines[0]);
    g_autoptr (JsonObject) second = parse_object (lines[1]);

    g_assert_cmpstr (json_object_get_string_member (first, "file"), ==, copy);
    g_assert_cmpstr (json_object_get_string_member (second, "file"), ==, SLICES);
  }
  g_unlink (bad);
  g_unlink (copy);
  g_rmdir (dir);
}

/* More threads and processes than the tables hold: they stop growing
 * and say how many events they could not place. */
static void
test_info_bounded (void)
{
  const guint n_threads = 9000, max_threads = 8192, max_processes = 4096;
  g_autofree char *path = g_build_filename (tools_test_scratch_dir (), "many-threads.txt", NULL);
  g_autoptr (GString) text = g_string_new ("# tracer: nop\n");
  g_autoptr (Run) r = NULL;
  g_autoptr (JsonObject) o = NULL;
  JsonObject *threads, *processes;

  if (trace_element_factory_find ("ftrace-src") == NULL)
    {
      g_test_skip ("ftrace-src is not built");
      return;
    }
  for (guint i = 0; i < n_threads; i++)
    g_string_append_printf (text, "          w-%u   (%u) [000] .... 1.%06u: tracing_mark_write: I|%u|tick\n",
                            1000 + i, 1000 + i, i, 1000 + i);
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  r = RUN ("trace-info", NULL, "--json", path);
  g_assert_cmpint (r->status, ==, 0);
  o = parse_object (r->out);
  /* each line is a thread-name and an instant */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "kinds"), "instant"), ==, n_threads);
  threads = json_object_get_object_member (o, "threads");
  processes = json_object_get_object_member (o, "processes");
  g_assert_cmpint (json_object_get_int_member (threads, "count"), ==, max_threads);
  g_assert_cmpint (json_object_get_int_member (threads, "overflow-events"), ==, n_threads - max_threads);
  g_assert_cmpint (json_object_get_int_member (processes, "count"), ==, max_processes);
  g_assert_cmpint (json_object_get_int_member (processes, "overflow-events"), ==, n_threads - max_processes);
  /* ftrace names threads only: a process is called after its main thread */
  {
    JsonArray *top = json_object_get_array_member (processes, "top");
    JsonObject *first = json_array_get_object_element (top, 0);

    g_assert_cmpint (json_object_get_int_member (first, "pid"), ==, 1000);
    g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "w");
  }
  g_unlink (path);
}

/* sdk_style.pftrace and one packet of a kind perfetto-src does not know
 * (field 100, a varint): a file whose reading skips something. */
static char *
write_file_with_skips (void)
{
  static const guint8 unknown_packet[] = { 0x0a, 0x03, 0xa0, 0x06, 0x01 };
  char *path = g_build_filename (tools_test_scratch_dir (), "skips.pftrace", NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr (GString) all = NULL;

  g_assert_true (g_file_get_contents (TEST_DATA_DIR "/perfetto/sdk_style.pftrace", &data, &len, NULL));
  all = g_string_new_len (data, len);
  g_string_append_len (all, (const char *) unknown_packet, sizeof unknown_packet);
  g_assert_true (g_file_set_contents (path, all->str, all->len, NULL));
  return path;
}

/* "skipped" holds the source's non-zero skip counters, as trace-launch
 * --stats shows them for the same file read by name. */
static void
test_info_skipped_matches_stats (void)
{
  g_autofree char *path = NULL;
  g_autofree char *location = NULL;
  g_autoptr (Run) info = NULL;
  g_autoptr (Run) stats = NULL;
  g_autoptr (JsonObject) o = NULL;
  g_auto (GStrv) lines = NULL;
  JsonObject *skipped;
  guint n_expected = 0;

  if (trace_element_factory_find ("perfetto-src") == NULL)
    {
      g_test_skip ("perfetto-src is not built");
      return;
    }
  path = write_file_with_skips ();
  location = g_strdup_printf ("location=%s", path);
  info = RUN ("trace-info", NULL, "--json", path);
  stats = RUN ("trace-launch", NULL, "-q", "--stats", "perfetto-src", location, "!", "fakesink");
  g_assert_cmpint (info->status, ==, 0);
  g_assert_cmpint (stats->status, ==, 0);
  /* the warning that explains the skips is on stderr, as trace-launch's */
  g_assert_true (g_str_has_prefix (info->err, "WARNING: from /pipeline0/src/perfetto-src0: "));
  o = parse_object (info->out);
  skipped = json_object_get_object_member (o, "skipped");
  lines = g_strsplit (stats->err, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) words = g_strsplit (lines[i], " ", -1);

      if (!g_str_has_prefix (lines[i], "perfetto-src0 "))
        continue;
      for (guint j = 0; words[j] != NULL; j++)
        {
          g_auto (GStrv) kv = g_strsplit (words[j], "=", 2);

          if (kv[0] && kv[1] && g_str_has_prefix (kv[0], "skipped") && strcmp (kv[1], "0") != 0)
            {
              g_assert_cmpint (json_object_get_int_member (skipped, kv[0]), ==, g_ascii_strtoll (kv[1], NULL, 10));
              n_expected++;
            }
        }
    }
  g_assert_cmpuint (n_expected, >, 0);
  g_assert_cmpuint (json_object_get_size (skipped), ==, n_expected);
  g_unlink (path);
}

static void
test_info_usage (void)
{
  g_autoptr (Run) none = RUN ("trace-info", NULL, "--json");
  g_autoptr (Run) missing = RUN ("trace-info", NULL, "/nonexistent/trace.txt");

  g_assert_cmpint (none->status, ==, 2);
  g_assert_cmpstr (none->err, ==, "trace-info: no trace file given\nTry \"trace-info --help\".\n");
  g_assert_cmpint (missing->status, ==, 1);
  g_assert_cmpstr (missing->out, ==, "");
  g_assert_nonnull (strstr (missing->err, "/nonexistent/trace.txt"));
}

/* Files a named source reads and the start of which shows nothing:
 * trace-info detects them and reads the same events the source does (a
 * systrace export whose first data block is 1.1 MiB in, a legacy V8 CPU
 * profile). */
static void
test_info_detects_what_sources_read (void)
{
  static const struct
  {
    const char *path, *element, *detected;
  } files[] = {
    { TEST_DATA_DIR "/ftrace/gtechoogle_systrace_full_export.html", "ftrace-src", "ftrace" },
    { TEST_DATA_DIR "/arkts/cp2cg_busy_legacy.cpuprofile", "arkts-src", "arkts" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *location = g_strdup_printf ("location=%s", files[i].path);
      g_autoptr (Run) r = NULL, named = NULL;
      g_autoptr (JsonObject) o = NULL;
      g_auto (GStrv) lines = NULL;

      if (trace_element_factory_find (files[i].element) == NULL)
        continue;
      r = RUN ("trace-info", NULL, "--json", files[i].path);
      g_assert_cmpstr (r->err, ==, "");
      g_assert_cmpint (r->status, ==, 0);
      o = parse_object (r->out);
      g_assert_cmpstr (json_object_get_string_member (o, "detected-format"), ==, files[i].detected);
      named = RUN ("trace-launch", NULL, "-q", files[i].element, location, "!", "fakesink", "dump=true");
      g_assert_cmpint (named->status, ==, 0);
      lines = g_strsplit (named->out, "\n", -1);
      g_assert_cmpint (json_object_get_int_member (o, "events"), ==, g_strv_length (lines) - 1);
      g_assert_cmpint (json_object_get_int_member (o, "events"), >, 1000);
    }
}

/* Writes a Chrome JSON trace whose systemTraceEvents string is the
 * kernel text of @ftrace_path, with one traceEvents event when
 * @with_events, and returns its path. */
static char *
write_system_trace_json (const char *ftrace_path,
                         gboolean with_events)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL, *json = NULL;
  char *path = g_build_filename (tools_test_scratch_dir (), with_events ? "system-and-events.json" : "system-only.json",
                                 NULL);

  g_file_get_contents (ftrace_path, &text, NULL, &error);
  g_assert_no_error (error);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "systemTraceEvents");
  json_builder_add_string_value (b, text);
  json_builder_set_member_name (b, "traceEvents");
  json_builder_begin_array (b);
  if (with_events)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "ph");
      json_builder_add_string_value (b, "i");
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, "mark");
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, 1);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, 1);
      json_builder_set_member_name (b, "ts");
      json_builder_add_int_value (b, 1);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json = json_generator_to_data (gen, NULL);
  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* A Chrome trace whose systemTraceEvents string comes first holds ftrace
 * text, "# tracer:" header and all, in the bytes detection sees: it is
 * json-src's, which reads the text with the rest. */
static void
test_info_detects_system_trace_json (void)
{
  for (guint with_events = 0; with_events < 2; with_events++)
    {
      g_autofree char *path = write_system_trace_json (TEST_DATA_DIR "/ftrace/catapult_atrace_data.txt", with_events);
      g_autoptr (Run) r = RUN ("trace-info", NULL, "--json", path);
      g_autoptr (JsonObject) o = NULL;

      g_assert_cmpstr (r->err, ==, "");
      g_assert_cmpint (r->status, ==, 0);
      o = parse_object (r->out);
      g_assert_cmpstr (json_object_get_string_member (o, "detected-format"), ==, "chrome-json");
      g_assert_cmpint (json_object_get_int_member (o, "events"), >, 100);
    }
}

/* Times at both ends of int64: the duration is their whole span, never
 * a negative number (the difference does not fit a gint64). */
static void
test_info_duration_spans_int64 (void)
{
  static const char text[] = "[{\"ph\":\"i\",\"ts\":-9223372036854775,\"pid\":1,\"tid\":1,\"name\":\"a\",\"s\":\"t\"},"
                             "{\"ph\":\"i\",\"ts\":9223372036854775,\"pid\":1,\"tid\":1,\"name\":\"b\",\"s\":\"t\"}]";
  g_autofree char *path = g_build_filename (tools_test_scratch_dir (), "int64-span.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (Run) plain = NULL, json = NULL;
  JsonObject *o;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  plain = RUN ("trace-info", NULL, path);
  g_assert_cmpint (plain->status, ==, 0);
  g_assert_nonnull (strstr (plain->out, "  duration      18446744073.709550000 s\n"));
  json = RUN ("trace-info", NULL, "--json", path);
  g_assert_cmpint (json->status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json->out, -1, &error));
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpfloat (json_object_get_double_member (o, "duration"), ==, 18446744073709550000.0);
  g_unlink (path);
}

/* The thread whose top-level JSON object has @pid and @tid. */
static JsonObject *
find_thread (JsonArray *top,
             gint64 pid,
             gint64 tid)
{
  for (guint i = 0; i < json_array_get_length (top); i++)
    {
      JsonObject *t = json_array_get_object_element (top, i);

      if (json_object_get_int_member (t, "pid") == pid && json_object_get_int_member (t, "tid") == tid)
        return t;
    }
  return NULL;
}

/* Chrome numbers threads within each process: thread 1 of two processes
 * is two threads, each with its own name, and neither process takes the
 * other's; the text tables say what each column is. */
static void
test_info_threads_by_process (void)
{
  static const char trace[] =
      "{\"traceEvents\":["
      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":5,\"tid\":1,\"args\":{\"name\":\"Renderer A\"}},"
      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":5,\"tid\":1,\"args\":{\"name\":\"CrRendererMain\"}},"
      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":6,\"tid\":1,\"args\":{\"name\":\"Compositor\"}},"
      "{\"ph\":\"X\",\"name\":\"a\",\"pid\":5,\"tid\":1,\"ts\":1,\"dur\":2},"
      "{\"ph\":\"X\",\"name\":\"b\",\"pid\":6,\"tid\":1,\"ts\":1,\"dur\":2},"
      "{\"ph\":\"X\",\"name\":\"c\",\"pid\":6,\"tid\":1,\"ts\":4,\"dur\":2}]}";
  g_autofree char *path = g_build_filename (tools_test_scratch_dir (), "threads-by-process.json", NULL);
  g_autoptr (Run) r = NULL, text = NULL;
  g_autoptr (JsonObject) o = NULL;
  JsonObject *threads, *a, *b;
  JsonArray *top;

  if (trace_element_factory_find ("json-src") == NULL)
    {
      g_test_skip ("json-src is not built");
      return;
    }
  g_assert_true (g_file_set_contents (path, trace, -1, NULL));
  r = RUN ("trace-info", NULL, "--json", path);
  g_assert_cmpint (r->status, ==, 0);
  o = parse_object (r->out);
  threads = json_object_get_object_member (o, "threads");
  g_assert_cmpint (json_object_get_int_member (threads, "count"), ==, 2);
  top = json_object_get_array_member (threads, "top");
  a = find_thread (top, 5, 1);
  b = find_thread (top, 6, 1);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpstr (json_object_get_string_member (a, "name"), ==, "CrRendererMain");
  g_assert_cmpint (json_object_get_int_member (a, "events"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (b, "name"), ==, "Compositor");
  g_assert_cmpint (json_object_get_int_member (b, "events"), ==, 2);
  text = RUN ("trace-info", NULL, path);
  g_assert_cmpint (text->status, ==, 0);
  g_assert_nonnull (strstr (text->out, "  processes     2:\n"
                                       "           pid       events  name\n"
                                       "             6            2  \n"
                                       "             5            1  Renderer A\n"));
  g_assert_nonnull (strstr (text->out, "  threads       2:\n"
                                       "           pid        tid       events  name\n"
                                       "             6          1            2  Compositor\n"
                                       "             5          1            1  CrRendererMain\n"));
  g_unlink (path);
}

/* The format is an id, as scripts compare it; the words are a field of
 * their own, and the text output shows both. */
static void
test_info_format_ids (void)
{
  static const char *const cases[][3] = {
    { "arkts/node20_inspector.cpuprofile", "cpu-profile", "CPU profile" },
    { "arkts/node20_writeHeapSnapshot.heapsnapshot", "heap-snapshot", "heap snapshot" },
    { "arkts/speedscope_node10_Heap.heapprofile", "heap-profile", "heap profile" },
    { "arkts/ohos_ts_ut_js_cpu_profiler_results.jsonl", "devtools-messages", "DevTools messages" },
    { "ftrace/catapult_atrace_data.txt", "ftrace", "ftrace text" },
  };

  if (trace_element_factory_find ("arkts-src") == NULL || trace_element_factory_find ("ftrace-src") == NULL)
    {
      g_test_skip ("arkts-src or ftrace-src is not built");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (TEST_DATA_DIR, cases[i][0], NULL);
      g_autoptr (Run) json = RUN ("trace-info", NULL, "--json", path);
      g_autoptr (Run) text = RUN ("trace-info", NULL, path);
      g_autoptr (JsonObject) o = NULL;
      g_autofree char *line = NULL;

      g_assert_cmpint (json->status, ==, 0);
      o = parse_object (json->out);
      g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, cases[i][1]);
      g_assert_cmpstr (json_object_get_string_member (o, "format-description"), ==, cases[i][2]);
      g_assert_cmpint (text->status, ==, 0);
      line = g_str_has_prefix (cases[i][0], "arkts/")
                 ? g_strdup_printf ("\n  format        %s (%s, detected as arkts)\n", cases[i][1], cases[i][2])
                 : g_strdup_printf ("\n  format        %s (%s)\n", cases[i][1], cases[i][2]);
      g_assert_nonnull (strstr (text->out, line));
    }
}

/* The count of slice name @name in trace-info's object @o, 0 if absent. */
static gint64
slice_name_count (JsonObject *o,
                  const char *name)
{
  JsonArray *top = json_object_get_array_member (json_object_get_object_member (o, "slice-names"), "top");

  for (guint i = 0; i < json_array_get_length (top); i++)
    {
      JsonObject *row = json_array_get_object_element (top, i);

      if (g_strcmp0 (json_object_get_string_member (row, "name"), name) == 0)
        return json_object_get_int_member (row, "count");
    }
  return 0;
}

/* Interrupts of a Perfetto trace are slices: trace_processor makes one
 * of each typed irq_handler_entry (`IRQ (NAME)`) and softirq_entry (the
 * vector's action), and trace-info counts them under those names, as
 * trace_processor lists them for this file. Of the same events as ftrace
 * text lines trace_processor makes no slice, nor does trace-info. */
static void
test_info_interrupt_slices (void)
{
  static const char text[] = "# tracer: nop\n#\n"
                             "          <idle>-0     [000] d.h1   100.000100: irq_handler_entry: irq=27 name=timer0\n"
                             "          <idle>-0     [000] d.h1   100.000200: irq_handler_exit: irq=27 ret=handled\n"
                             "          <idle>-0     [000] ..s1   100.000300: softirq_entry: vec=1 [action=TIMER]\n"
                             "          <idle>-0     [000] ..s1   100.000400: softirq_exit: vec=1 [action=TIMER]\n";
  g_autofree char *path = g_build_filename (tools_test_scratch_dir (), "irq.txt", NULL);
  g_autoptr (Run) r = NULL, t = NULL, lines = NULL;
  g_autoptr (JsonObject) o = NULL, from_text = NULL;

  if (trace_element_factory_find ("perfetto-src") == NULL || trace_element_factory_find ("ftrace-src") == NULL)
    {
      g_test_skip ("perfetto-src or ftrace-src is not built");
      return;
    }
  r = RUN ("trace-info", NULL, "--json", TEST_DATA_DIR "/perfetto/difftest_irq_runtime_metric.pftrace");
  g_assert_cmpint (r->status, ==, 0);
  o = parse_object (r->out);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "slice-names"), "count"), ==, 5);
  g_assert_cmpint (slice_name_count (o, "IRQ (resource1)"), ==, 1);
  g_assert_cmpint (slice_name_count (o, "IRQ (resource2)"), ==, 1);
  g_assert_cmpint (slice_name_count (o, "IRQ (resource3)"), ==, 2);
  g_assert_cmpint (slice_name_count (o, "BLOCK"), ==, 1);
  g_assert_cmpint (slice_name_count (o, "TIMER"), ==, 1);
  t = RUN ("trace-info", NULL, TEST_DATA_DIR "/perfetto/difftest_irq_runtime_metric.pftrace");
  g_assert_cmpint (t->status, ==, 0);
  g_assert_nonnull (strstr (t->out, "\n  slice names   5:\n               2  IRQ (resource3)\n"));

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  lines = RUN ("trace-info", NULL, "--json", path);
  g_assert_cmpint (lines->status, ==, 0);
  from_text = parse_object (lines->out);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (from_text, "slice-names"), "count"), ==, 0);
  g_unlink (path);
}

void
add_info_tests (void)
{
  g_test_add_func ("/tools/info/json-matches-events", test_info_json_matches_events);
  g_test_add_func ("/tools/info/text", test_info_text);
  g_test_add_func ("/tools/info/format-ids", test_info_format_ids);
  g_test_add_func ("/tools/info/interrupt-slices", test_info_interrupt_slices);
  g_test_add_func ("/tools/info/threads-by-process", test_info_threads_by_process);
  g_test_add_func ("/tools/info/many-files", test_info_many);
  g_test_add_func ("/tools/info/bounded-tables", test_info_bounded);
  g_test_add_func ("/tools/info/skipped-matches-stats", test_info_skipped_matches_stats);
  g_test_add_func ("/tools/info/usage", test_info_usage);
  g_test_add_func ("/tools/info/duration-spans-int64", test_info_duration_spans_int64);
  g_test_add_func ("/tools/info/detects-what-sources-read", test_info_detects_what_sources_read);
  g_test_add_func ("/tools/info/detects-system-trace-json", test_info_detects_system_trace_json);
}
