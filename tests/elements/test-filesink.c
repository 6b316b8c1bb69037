/* Element tests: the file sink base class writes through a temporary
 * file and renames it only on EOS. */
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../test-util.h"
#include <trace/check/traceharness.h>

#define TEST_TYPE_TEXT_SINK (test_text_sink_get_type ())
G_DECLARE_FINAL_TYPE (TestTextSink, test_text_sink, TEST, TEXT_SINK, TraceFileSink)
struct _TestTextSink
{
  TraceFileSink parent_instance;
};
G_DEFINE_FINAL_TYPE (TestTextSink, test_text_sink, TRACE_TYPE_FILE_SINK)

static gboolean
text_begin (TraceFileSink *sink,
            GOutputStream *out,
            GError **error)
{
  return g_output_stream_write_all (out, "[", 1, NULL, NULL, error);
}

/* The thread the last render() ran on. */
static GThread *render_thread;

static TraceFlowReturn
text_render (TraceBaseSink *sink,
             TraceBatch *batch,
             GError **error)
{
  GOutputStream *out = trace_file_sink_get_stream (TRACE_FILE_SINK (sink));
  g_autofree char *line = g_strdup_printf ("%u,", batch->n_events);

  g_atomic_pointer_set (&render_thread, g_thread_self ());
  if (batch->n_events == 14) /* a batch of 14 events stands for a full disk */
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_NO_SPACE_LEFT, "no space left on device");
      return TRACE_FLOW_ERROR;
    }

  return g_output_stream_write_all (out, line, strlen (line), NULL, NULL, error) ? TRACE_FLOW_OK : TRACE_FLOW_ERROR;
}

static gboolean
text_end (TraceFileSink *sink,
          GOutputStream *out,
          GError **error)
{
  return g_output_stream_write_all (out, "]", 1, NULL, NULL, error);
}

static void
test_text_sink_class_init (TestTextSinkClass *klass)
{
  TRACE_FILE_SINK_CLASS (klass)->begin = text_begin;
  TRACE_FILE_SINK_CLASS (klass)->end = text_end;
  TRACE_BASE_SINK_CLASS (klass)->render = text_render;
}

static void
test_text_sink_init (TestTextSink *self)
{
}

/* A sink that is its writer (TraceFileSinkClass's writer contract): the
 * writer writes each batch's size, and at the end the metadata of the
 * last stream-start; it drops (counts) the batches of an odd size. */
#define TEST_TYPE_WRITER_SINK (test_writer_sink_get_type ())
G_DECLARE_FINAL_TYPE (TestWriterSink, test_writer_sink, TEST, WRITER_SINK, TraceFileSink)
struct _TestWriterSink
{
  TraceFileSink parent_instance;
};
G_DEFINE_FINAL_TYPE (TestWriterSink, test_writer_sink, TRACE_TYPE_FILE_SINK)

typedef struct
{
  GOutputStream *out;
  TraceStreamFlags flags; /* the stream's when the writer was made */
  guint64 odd;
} TestWriter;

static gint writers_made, writers_freed;

static gpointer
test_writer_new (TraceFileSink *sink,
                 GOutputStream *stream,
                 const TraceStreamInfo *info)
{
  TestWriter *w = g_new0 (TestWriter, 1);

  w->out = stream;
  w->flags = info ? info->flags : TRACE_STREAM_FLAG_NONE;
  writers_made++;
  return w;
}

static gboolean
test_writer_write_batch (gpointer writer,
                         TraceBatch *batch,
                         GError **error)
{
  TestWriter *w = writer;
  g_autofree char *text = g_strdup_printf ("%u,", batch->n_events);

  if (batch->n_events % 2)
    {
      w->odd++;
      return TRUE;
    }
  return g_output_stream_write_all (w->out, text, strlen (text), NULL, NULL, error);
}

static gboolean
test_writer_finish (TraceFileSink *sink,
                    gpointer writer,
                    const TraceStreamInfo *info,
                    GError **error)
{
  TestWriter *w = writer;
  g_autofree char *text = g_strdup_printf ("|%s", info && info->metadata ? info->metadata : "");

  return g_output_stream_write_all (w->out, text, strlen (text), NULL, NULL, error);
}

static void
test_writer_free (gpointer writer)
{
  writers_freed++;
  g_free (writer);
}

static void
test_writer_get_drops (TraceFileSink *sink,
                       gpointer writer,
                       GArray *drops)
{
  TraceSinkDrop odd = { "odd", "batches of an odd size", ((TestWriter *) writer)->odd };

  g_array_append_val (drops, odd);
}

static gint writer_flushes;

static gboolean
test_writer_flush (gpointer writer,
                   GError **error)
{
  writer_flushes++;
  return TRUE;
}

static void
test_writer_sink_class_init (TestWriterSinkClass *klass)
{
  TraceFileSinkClass *file_sink_class = TRACE_FILE_SINK_CLASS (klass);

  file_sink_class->flush_writer = test_writer_flush;
  file_sink_class->new_writer = test_writer_new;
  file_sink_class->write_batch = test_writer_write_batch;
  file_sink_class->finish_writer = test_writer_finish;
  file_sink_class->free_writer = test_writer_free;
  file_sink_class->get_drops = test_writer_get_drops;
}

static void
test_writer_sink_init (TestWriterSink *self)
{
}

static TraceBatch *
instants (TraceHarness *h,
          guint n)
{
  TraceBatch *batch = trace_harness_new_batch (h);

  for (guint i = 0; i < n; i++)
    trace_batch_append (batch, TRACE_EVENT_INSTANT, i);
  return batch;
}

/* The base makes the writer at the first batch with the stream's facts,
 * hands it the batches, finishes it with the last stream-start (its
 * metadata came after the events), reports its drops in a WARNING that
 * names the file and in the stats, and frees it. */
static void
test_writer_contract (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  g_autofree char *expected = g_strdup_printf ("%s: dropped 1 event: batches of an odd size: 1", path);
  TraceElement *sink = g_object_new (TEST_TYPE_WRITER_SINK, "location", path, "writer-thread", FALSE, NULL);
  TraceHarness *h = trace_harness_new_with_element (sink, "sink", NULL);
  TraceStreamInfo info = { .format = "test", .flags = TRACE_STREAM_FLAG_JSON_ORDER };
  g_autoptr (TraceMessage) warning = NULL;
  g_autoptr (TraceMessage) stats = NULL;
  g_autofree char *contents = NULL;
  guint64 odd = 0;

  writers_made = writers_freed = 0;
  trace_harness_set_stream_info (h, 0, &info);
  trace_harness_push (h, instants (h, 2));
  g_assert_cmpint (writers_made, ==, 1);
  g_assert_cmpint (((TestWriter *) trace_file_sink_get_writer (TRACE_FILE_SINK (sink)))->flags, ==,
                   TRACE_STREAM_FLAG_JSON_ORDER);
  trace_harness_push (h, instants (h, 3));
  info.metadata = "{\"late\":1}";
  trace_harness_set_stream_info (h, 0, &info);
  trace_harness_push (h, instants (h, 4));
  trace_harness_push_eos (h);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "2,4,|{\"late\":1}");
  warning = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_nonnull (warning);
  g_assert_cmpstr (warning->error->message, ==, expected);
  stats = trace_harness_pop_message (h, TRACE_MESSAGE_STATS);
  g_assert_nonnull (stats);
  g_assert_true (g_variant_lookup (stats->details, "dropped-odd", "t", &odd));
  g_assert_cmpuint (odd, ==, 1);
  g_assert_cmpint (writers_made, ==, 1);
  trace_harness_free (h);
  g_assert_cmpint (writers_freed, ==, 1);
  g_unlink (path);
  g_rmdir (dir);
}

/* The only file in @dir, the sink's temporary, as it is. */
static char *
read_temporary (const char *dir)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name = g_dir_read_name (listing);
  g_autofree char *path = NULL;
  char *contents = NULL;

  g_assert_nonnull (name);
  g_assert_true (g_str_has_suffix (name, ".part"));
  path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

/* A stream that stops coming: what its batches left in the writer and
 * in the stream's 1 MiB buffer reaches the temporary within a second
 * (the main loop's timer), and the file is still completed at EOS. */
static void
test_flushed_within_a_second (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  TraceElement *sink = g_object_new (TEST_TYPE_WRITER_SINK, "location", path, "writer-thread", FALSE, NULL);
  TraceHarness *h = trace_harness_new_with_element (sink, "sink", NULL);
  GMainContext *context = trace_element_get_main_context (sink);
  g_autofree char *contents = NULL;
  gint64 deadline;

  writer_flushes = 0;
  trace_harness_push (h, instants (h, 2));
  contents = read_temporary (dir);
  g_assert_cmpstr (contents, ==, "");
  deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  while (g_strcmp0 (contents, "2,") != 0 && g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (context, FALSE);
      g_usleep (10 * 1000);
      g_free (contents);
      contents = read_temporary (dir);
    }
  g_assert_cmpstr (contents, ==, "2,");
  g_assert_cmpint (writer_flushes, ==, 1);
  trace_harness_push (h, instants (h, 4));
  trace_harness_push_eos (h);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "2,4,|");
  trace_harness_free (h);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_complete_on_eos (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  g_autoptr (TraceHarness) h = trace_harness_new_with_element (
      g_object_new (TEST_TYPE_TEXT_SINK, "location", path, NULL), "sink", NULL);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  g_autofree char *contents = NULL;

  trace_harness_push (h, test_make_slices (pool, 1, 1, 0, 2));
  /* Until EOS, the target does not exist: only a temporary beside it. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  trace_harness_push (h, test_make_slices (pool, 1, 1, 100, 3));
  trace_harness_push_eos (h);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "[4,6,]");
  g_unlink (path);
  g_rmdir (dir);
}

/* Over an old output (put in place by an exchange where the system has
 * one): the target has the new bytes and the old file's mode, a hard link
 * to the old file keeps the old bytes, and nothing else is left beside
 * them (neither the temporary nor the old file). */
static void
test_over_an_old_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  g_autofree char *old_link = g_build_filename (dir, "old.txt", NULL);
  g_autoptr (TraceHarness) h = trace_harness_new_with_element (
      g_object_new (TEST_TYPE_TEXT_SINK, "location", path, NULL), "sink", NULL);
  g_autofree char *contents = NULL, *old = NULL;
  g_autoptr (GDir) listing = NULL;
  const char *name;
  guint n_names = 0;
  GStatBuf st;

  g_assert_true (g_file_set_contents (path, "old bytes", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0400), ==, 0);
  g_assert_cmpint (link (path, old_link), ==, 0);
  trace_harness_push (h, test_make_slices (trace_harness_get_string_pool (h), 1, 1, 0, 2));
  trace_harness_push_eos (h);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "[4,]");
  g_assert_true (g_file_get_contents (old_link, &old, NULL, NULL));
  g_assert_cmpstr (old, ==, "old bytes");
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0400);
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_assert_true (g_str_equal (name, "out.txt") || g_str_equal (name, "old.txt"));
      n_names++;
    }
  g_assert_cmpuint (n_names, ==, 2);
  g_unlink (path);
  g_unlink (old_link);
  g_rmdir (dir);
}

static void
test_stopped_before_eos_leaves_nothing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  TraceHarness *h = trace_harness_new_with_element (
      g_object_new (TEST_TYPE_TEXT_SINK, "location", path, NULL), "sink", NULL);
  g_autoptr (GDir) listing = NULL;

  trace_harness_push (h, test_make_slices (trace_harness_get_string_pool (h), 1, 1, 0, 2));
  trace_harness_free (h);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  listing = g_dir_open (dir, 0, NULL);
  /* The temporary file is gone too. */
  g_assert_null (g_dir_read_name (listing));
  g_rmdir (dir);
}

static void
test_unwritable_directory (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_with_element (
      g_object_new (TEST_TYPE_TEXT_SINK, "location", "/nonexistent-dir/out.txt", NULL), "sink", NULL);
  g_autoptr (TraceMessage) msg = NULL;

  g_assert_false (trace_harness_play (h));
  msg = trace_harness_pop_message (h, TRACE_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_error (msg->error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_WRITE);
  g_assert_true (g_str_has_prefix (msg->error->message,
                                   "could not open \"/nonexistent-dir/out.txt\" for writing: "));
}

static void
test_no_location (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_with_element (g_object_new (TEST_TYPE_TEXT_SINK, NULL), "sink", NULL);
  g_autoptr (TraceMessage) msg = NULL;

  g_assert_false (trace_harness_play (h));
  msg = trace_harness_pop_message (h, TRACE_MESSAGE_ERROR);
  g_assert_cmpstr (msg->error->message, ==,
                   "no file to write: set the \"location\" property (a path, or - for standard output)");
}

/* Writes batches of 1..@n pairs of events (not 7) through the sink;
 * returns the file. */
static char *
write_batches (const char *path,
               gboolean writer_thread,
               guint n)
{
  g_autoptr (TraceHarness) h = trace_harness_new_with_element (
      g_object_new (TEST_TYPE_TEXT_SINK, "location", path, "writer-thread", writer_thread, NULL), "sink", NULL);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  char *contents = NULL;

  for (guint i = 1; i <= n; i++)
    if (i != 7)
      g_assert_cmpint (trace_harness_push (h, test_make_slices (pool, 1, 1, i * 100, i)), ==, TRACE_FLOW_OK);
  trace_harness_push_eos (h);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_unlink (path);
  return contents;
}

/* The writer thread renders every batch, in order, on a thread that is
 * not the pusher's: the same bytes as without it. */
static void
test_writer_thread_same_bytes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  g_autofree char *inline_out = write_batches (path, FALSE, 300);
  g_autofree char *threaded_out = NULL;

  g_assert_true (g_atomic_pointer_get (&render_thread) == g_thread_self ());
  threaded_out = write_batches (path, TRUE, 300);
  if (g_get_num_processors () > 1)
    g_assert_true (g_atomic_pointer_get (&render_thread) != g_thread_self ());
  g_assert_true (g_str_has_prefix (inline_out, "[2,4,6,8,10,12,16,"));
  g_assert_cmpstr (threaded_out, ==, inline_out);
  g_rmdir (dir);
}

/* A write error on the writer thread: the ERROR names the file, the next
 * push fails, EOS writes nothing and the temporary goes. */
static void
test_writer_thread_error (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  g_autofree char *quoted = g_strdup_printf ("could not write \"%s\": no space left on device", path);
  TraceHarness *h = trace_harness_new_with_element (
      g_object_new (TEST_TYPE_TEXT_SINK, "location", path, "writer-thread", TRUE, NULL), "sink", NULL);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  g_autoptr (TraceMessage) msg = NULL;
  g_autoptr (GDir) listing = NULL;
  TraceFlowReturn ret = TRACE_FLOW_OK;

  trace_harness_push (h, test_make_slices (pool, 1, 1, 0, 3));
  trace_harness_push (h, test_make_slices (pool, 1, 1, 0, 7)); /* 14 events */
  /* the writer thread fails soon after; pushes then return ERROR */
  for (guint i = 0; i < 1000 && ret == TRACE_FLOW_OK; i++)
    {
      ret = trace_harness_push (h, test_make_slices (pool, 1, 1, 0, 2));
      if (ret == TRACE_FLOW_OK)
        g_usleep (1000);
    }
  g_assert_cmpint (ret, ==, TRACE_FLOW_ERROR);
  msg = trace_harness_pop_message (h, TRACE_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_error (msg->error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_NO_SPACE_LEFT);
  g_assert_cmpstr (msg->error->message, ==, quoted);
  trace_harness_push_eos (h);
  trace_harness_free (h);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  listing = g_dir_open (dir, 0, NULL);
  g_assert_null (g_dir_read_name (listing));
  g_rmdir (dir);
}

/* The writer thread lends its spare time (trace_spare_work_lend()) from
 * the moment the sink starts, before the thread first runs: a source
 * started right after it counts it when it decides how many threads of
 * its own to start (json-src started one too many in one run in six). */
static void
test_writer_thread_lends_from_the_start (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);

  if (g_get_num_processors () < 2)
    {
      g_test_skip ("the writer thread is used with two cores or more");
      return;
    }
  for (guint round = 0; round < 50; round++)
    {
      TraceHarness *h = trace_harness_new_with_element (
          g_object_new (TEST_TYPE_TEXT_SINK, "location", path, "writer-thread", TRUE, NULL), "sink", NULL);

      g_assert_true (trace_harness_play (h));
      g_assert_cmpuint (trace_spare_work_get_n_lenders (), ==, 1);
      trace_harness_push_eos (h);
      trace_harness_free (h);
      g_assert_cmpuint (trace_spare_work_get_n_lenders (), ==, 0);
    }
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/filesink/complete-on-eos", test_complete_on_eos);
  g_test_add_func ("/filesink/writer-contract", test_writer_contract);
  g_test_add_func ("/filesink/flushed-within-a-second", test_flushed_within_a_second);
  g_test_add_func ("/filesink/over-an-old-file", test_over_an_old_file);
  g_test_add_func ("/filesink/stopped-before-eos-leaves-nothing", test_stopped_before_eos_leaves_nothing);
  g_test_add_func ("/filesink/unwritable-directory", test_unwritable_directory);
  g_test_add_func ("/filesink/no-location", test_no_location);
  g_test_add_func ("/filesink/writer-thread-same-bytes", test_writer_thread_same_bytes);
  g_test_add_func ("/filesink/writer-thread-error", test_writer_thread_error);
  g_test_add_func ("/filesink/writer-thread-lends-from-the-start", test_writer_thread_lends_from_the_start);
  return g_test_run ();
}
