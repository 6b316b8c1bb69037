/* Pipelines: json-src and ftrace-src with threads=1, 2 and 5 write
 * byte-identical Perfetto and JSON files, for every file of
 * tests/data/json and tests/data/ftrace and for generated inputs (plain
 * and gzip; for ftrace also with a byte-order mark, a NUL run and a line
 * over the maximum in the middle, where the workers hand over to one
 * thread). JSON chunks are made small enough that every file is split
 * (TRACEPIPE_JSON_CHUNK_SIZE). With threads, json-src reads a regular
 * file in place (its mapping); the outputs show it gives the same bytes
 * as a read. The sinks write on their own thread, as by default:
 * perfetto-sink's interning ids follow the order it first uses strings,
 * not the pool's ids, which depend on which thread interned a string
 * first (docs/event-model.md). */
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "../test-util.h"

static char *tmp_dir;

/* The bytes one conversion wrote. */
static char *
convert (const char *src,
         const char *input,
         guint threads,
         const char *sink,
         gsize *len)
{
  g_autofree char *out = g_build_filename (tmp_dir, "out", NULL);
  g_autofree char *description =
      g_strdup_printf ("%s location=\"%s\" threads=%u ! %s location=\"%s\"", src, input, threads, sink, out);
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) p = trace_parse_launch (description, &error);
  g_autoptr (TraceMessage) end = NULL;
  char *contents = NULL;

  g_assert_no_error (error);
  end = test_run_pipeline (p, 120000);
  g_assert_nonnull (end);
  trace_element_set_state (p, TRACE_STATE_NULL);
  if (end->type != TRACE_MESSAGE_EOS)
    {
      /* the same error with every number of threads: no file */
      *len = 0;
      return g_strdup ("(error)");
    }
  g_assert_true (g_file_get_contents (out, &contents, len, NULL));
  g_unlink (out);
  return contents;
}

static void
assert_identical_outputs (const char *src,
                          const char *input)
{
  static const char *const sinks[] = { "perfetto-sink", "json-sink" };

  for (guint s = 0; s < G_N_ELEMENTS (sinks); s++)
    {
      gsize len1;
      g_autofree char *one = convert (src, input, 1, sinks[s], &len1);

      for (guint threads = 2; threads <= 5; threads += 3)
        {
          gsize len;
          g_autofree char *many = convert (src, input, threads, sinks[s], &len);

          if (len != len1 || memcmp (one, many, len) != 0)
            {
              g_test_message ("%s %s into %s: threads=%u wrote %" G_GSIZE_FORMAT " bytes, threads=1 %" G_GSIZE_FORMAT
                              ", not the same",
                              src, input, sinks[s], threads, len, len1);
              g_test_fail ();
            }
        }
    }
}

/* Every file of tests/data/@folder through @src: more than @min of them. */
static void
assert_identical_corpus (const char *src,
                         const char *folder,
                         guint min)
{
  g_autofree char *dir_path = g_build_filename (TEST_DATA_DIR, folder, NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      assert_identical_outputs (src, path);
      n++;
    }
  g_assert_cmpuint (n, >, min);
}

static void
test_corpus (void)
{
  g_setenv ("TRACEPIPE_JSON_CHUNK_SIZE", "1000", TRUE);
  assert_identical_corpus ("json-src", "json", 30);
  g_unsetenv ("TRACEPIPE_JSON_CHUNK_SIZE");
}

/* ~1.5 MiB: slices, counters, flows v2 with string pids, dotted and
 * nested args, strings holding `},{` across chunk boundaries, a
 * malformed event, metadata after the array; cut in the last event. */
static GString *
generate (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  GString *s = g_string_new ("{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,"
                             "\"args\":{\"name\":\"main\"}}");
  gint64 us = 10;

  for (guint n = 0; s->len < 1536 * 1024; n++)
    {
      guint r = g_rand_int_range (rand, 0, 100);

      us += g_rand_int_range (rand, 0, 20);
      if (r < 30)
        g_string_append_printf (s, ",\n{\"ph\":\"B\",\"name\":\"s%u\",\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"tid\":%u,\"args\":{\"a.b\":%u,\"c\":{\"d\":[1,\"e\"]}}}",
                                r % 5, us, 2 + r % 3, n);
      else if (r < 60)
        g_string_append_printf (s, ",{\"ph\":\"E\",\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"tid\":%u}", us, 2 + r % 3);
      else if (r < 75)
        g_string_append_printf (s, ", {\"ph\":\"X\",\"name\":\"x\",\"ts\":%" G_GINT64_FORMAT ",\"dur\":2,\"pid\":\"p%u\",\"tid\":1,\"bind_id\":%u,\"flow_%s\":true}",
                                us, r % 2, n % 20, r % 2 ? "in" : "out");
      else if (r < 85)
        g_string_append_printf (s, ",{\"ph\":\"C\",\"name\":\"c\",\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"args\":{\"v\":%u}}",
                                us, n % 77);
      else if (r < 97)
        {
          g_string_append_printf (s, ",{\"ph\":\"i\",\"name\":\"trap\",\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"tid\":2,\"args\":{\"t\":\"",
                                  us);
          for (guint k = g_rand_int_range (rand, 1, 60); k > 0; k--)
            g_string_append (s, k % 3 ? "},{}, {\\\"x\\\": 1}" : "} ,\\n{ }");
          g_string_append (s, "\"}}");
        }
      else
        g_string_append (s, ",{\"ph\":\"X\",\"ts\":1,,\"dur\":1}");
    }
  g_string_append (s, "],\"metadata\":{\"clock-domain\":\"MONO\"}}\n");
  return s;
}

static void
test_generated (void)
{
  g_autoptr (GString) s = generate ();
  g_autofree char *plain = g_build_filename (tmp_dir, "gen.json", NULL);
  g_autofree char *cut = g_build_filename (tmp_dir, "cut.json", NULL);
  g_autofree char *gz = g_build_filename (tmp_dir, "gen.json.gz", NULL);
  g_autofree char *cmd = g_strdup_printf ("gzip -k -f \"%s\"", plain);
  int status = 0;

  g_assert_true (g_file_set_contents (plain, s->str, s->len, NULL));
  g_assert_true (g_file_set_contents (cut, s->str, s->len - 200, NULL));
  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  for (guint i = 0; i < 2; i++)
    {
      /* chunks of 256 KiB, and of 4 KiB */
      if (i == 1)
        g_setenv ("TRACEPIPE_JSON_CHUNK_SIZE", "4096", TRUE);
      /* a file read in place with threads (same bytes as read with
       * one); a gzip file never */
      test_reset_watched_debug_messages ();
      assert_identical_outputs ("json-src", plain);
      assert_identical_outputs ("json-src", cut);
      g_assert_cmpuint (test_get_watched_debug_messages (), ==, 8);
      assert_identical_outputs ("json-src", gz);
      g_assert_cmpuint (test_get_watched_debug_messages (), ==, 8);
    }
  g_unsetenv ("TRACEPIPE_JSON_CHUNK_SIZE");
}

static void
test_ftrace_corpus (void)
{
  assert_identical_corpus ("ftrace-src", "ftrace", 20);
}

/* Writes @len bytes of @data with @insert put in at byte @at (a line's
 * start), to the temporary folder's @name; returns the path. */
static char *
write_variant (const char *name,
               const char *data,
               gsize len,
               gsize at,
               const char *insert,
               gsize insert_len)
{
  g_autoptr (GString) s = g_string_new_len (data, at);
  char *path = g_build_filename (tmp_dir, name, NULL);

  g_string_append_len (s, insert, insert_len);
  g_string_append_len (s, data + at, len - at);
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  return path;
}

/* 3 MiB of the bench's systrace (blocks of 1 MiB), as it is and with
 * what makes the workers hand the rest over to one thread; and gzip. */
static void
test_ftrace_generated (void)
{
  g_autofree char *plain = g_build_filename (tmp_dir, "gen.txt", NULL);
  g_autofree char *gz = g_build_filename (tmp_dir, "gen.txt.gz", NULL);
  g_autofree char *gen = g_strdup_printf ("\"%s\" --mb=3 systrace \"%s\"", g_getenv ("GEN_SYNTH"), plain);
  g_autofree char *zip = g_strdup_printf ("gzip -k -f \"%s\"", plain);
  g_autofree char *data = NULL;
  g_autofree char *long_line = NULL;
  g_autofree char *nul = g_malloc0 (300);
  char *variants[5];
  gsize len = 0, middle, first_event = 0;
  int status = 0;

  if (g_getenv ("GEN_SYNTH") == NULL)
    {
      g_test_skip ("GEN_SYNTH (the bench input generator) is not set: run through meson test");
      return;
    }
  g_assert_true (g_spawn_command_line_sync (gen, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_spawn_command_line_sync (zip, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_get_contents (plain, &data, &len, NULL));
  middle = (const char *) memchr (data + len / 2, '\n', len / 2) + 1 - data;
  while (data[first_event] == '#')
    first_event = (const char *) memchr (data + first_event, '\n', len - first_event) + 1 - data;
  long_line = g_strnfill (70 * 1024, 'x');
  long_line[70 * 1024 - 1] = '\n';
  variants[0] = g_strdup (plain);
  /* the first event's line right after the mark */
  variants[1] = write_variant ("bom.txt", data + first_event, len - first_event, 0, "\xef\xbb\xbf", 3);
  variants[2] = write_variant ("nul.txt", data, len, middle + 10, nul, 300);
  variants[3] = write_variant ("long.txt", data, len, middle, long_line, 70 * 1024);
  variants[4] = write_variant ("cut.txt", data, len - 30, len - 30, "", 0);
  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      assert_identical_outputs ("ftrace-src", variants[i]);
      g_unlink (variants[i]);
      g_free (variants[i]);
    }
  assert_identical_outputs ("ftrace-src", gz);
  g_unlink (gz);
}

/* 3 MiB of ftrace text, more than the reader's first block. */
static GString *
generate_ftrace (void)
{
  GString *s = g_string_new ("# tracer: nop\n");

  for (guint n = 0; s->len < 3 * 1024 * 1024; n++)
    g_string_append_printf (s, "          task-12    (   12) [000] .... %u.%06u: tracing_mark_write: %s|12|s%u\n",
                            1 + n / 100000, n % 100000 * 10, n % 2 ? "E" : "B", n % 7);
  return s;
}

/* Another process cuts the file short while a source reads it
 * (logrotate's copytruncate), after the first batch, to 5000 bytes:
 * json-src in place (threads=2) or through reads (threads=1), ftrace-src
 * on one thread or two. Every source ends the same way: a WARNING with
 * the size it had and the size it has, the end of the stream with what
 * was read, no error. (A fault past the new end of a mapping is a
 * SIGBUS that reads zeros: docs/robustness.md.) An app-sink that holds
 * one batch keeps the source from reading to the end before the cut. */
static void
test_cut_short (gconstpointer data)
{
  const char *element = ((const char *const *) data)[0];
  const char *threads = ((const char *const *) data)[1];
  gboolean json = g_str_equal (element, "json-src");
  g_autoptr (GString) s = json ? generate () : generate_ftrace ();
  g_autofree char *path = g_build_filename (tmp_dir, json ? "cut-short.json" : "cut-short.txt", NULL);
  g_autofree char *description =
      g_strdup_printf ("%s location=\"%s\" threads=%s ! app-sink name=sink max-batches=1", element, path, threads);
  g_autofree char *expected = g_strdup_printf ("the file was cut short while it was read (it had %" G_GSIZE_FORMAT
                                               " bytes, it has 5000): what was read before is kept",
                                               s->len);
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) p = NULL;
  g_autoptr (TraceMessage) msg = NULL;
  TraceAppSink *sink;
  TraceBatch *batch;
  guint batches = 0;
  gboolean warned = FALSE;

  /* a worker may touch a page past the new end first */
  if (test_under_valgrind ())
    {
      g_test_skip ("valgrind cannot resume an access after its SIGBUS handler (docs/robustness.md)");
      return;
    }
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_setenv ("TRACEPIPE_JSON_CHUNK_SIZE", "4096", TRUE);
  p = trace_parse_launch (description, &error);
  g_assert_no_error (error);
  sink = TRACE_APP_SINK (trace_bin_get_by_name (TRACE_BIN (p), "sink"));
  g_assert_cmpint (trace_element_set_state (p, TRACE_STATE_PLAYING), ==, TRACE_STATE_CHANGE_SUCCESS);
  batch = trace_app_sink_pull_batch (sink);
  g_assert_nonnull (batch);
  trace_batch_unref (batch);
  g_assert_no_errno (truncate (path, 5000));
  while ((batch = trace_app_sink_pull_batch (sink)) != NULL)
    {
      batches++;
      trace_batch_unref (batch);
    }
  g_assert_true (trace_app_sink_is_eos (sink));
  while ((msg = trace_bus_pop (trace_pipeline_get_bus (TRACE_PIPELINE (p)))) != NULL)
    {
      const char *text = msg->error ? msg->error->message : "";

      g_test_message ("message %d: %s", msg->type, text);
      g_assert_cmpint (msg->type, !=, TRACE_MESSAGE_ERROR);
      warned |= msg->type == TRACE_MESSAGE_WARNING && strstr (text, expected) != NULL;
      g_clear_pointer (&msg, trace_message_unref);
    }
  g_assert_true (warned);
  g_test_message ("%u more batches after the cut", batches);
  trace_element_set_state (p, TRACE_STATE_NULL);
  g_unsetenv ("TRACEPIPE_JSON_CHUNK_SIZE");
  g_unlink (path);
}

/* The default is the number of cores, as ftrace-src's. */
static void
test_default (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) p = trace_parse_launch ("json-src name=src location=x.json ! fakesink", &error);
  TraceElement *src;
  guint threads = 0;

  g_assert_no_error (error);
  src = trace_bin_get_by_name (TRACE_BIN (p), "src");
  g_object_get (src, "threads", &threads, NULL);
  g_assert_cmpuint (threads, ==, MAX (g_get_num_processors (), 1));
}

int
main (int argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  /* json-src's message for a file read in place, through its mapping */
  test_watch_debug_messages (") read in place");
  tmp_dir = g_dir_make_tmp ("tracepipe-threads-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_test_add_func ("/json-threads/default", test_default);
  g_test_add_func ("/json-threads/corpus", test_corpus);
  g_test_add_func ("/json-threads/generated", test_generated);
  g_test_add_data_func ("/json-threads/cut-short", (const char *const[]){ "json-src", "2" }, test_cut_short);
  g_test_add_data_func ("/json-threads/cut-short-read", (const char *const[]){ "json-src", "1" }, test_cut_short);
  g_test_add_data_func ("/ftrace-threads/cut-short", (const char *const[]){ "ftrace-src", "1" }, test_cut_short);
  g_test_add_data_func ("/ftrace-threads/cut-short-chunks", (const char *const[]){ "ftrace-src", "2" }, test_cut_short);
  g_test_add_func ("/ftrace-threads/corpus", test_ftrace_corpus);
  g_test_add_func ("/ftrace-threads/generated", test_ftrace_generated);
  ret = g_test_run ();
  for (const char *const *f = (const char *const[]){ "gen.json", "cut.json", "gen.json.gz", NULL }; *f; f++)
    {
      g_autofree char *path = g_build_filename (tmp_dir, *f, NULL);

      g_unlink (path);
    }
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
