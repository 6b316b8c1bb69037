/* Unit tests of ftrace-src's parsing with worker threads: the batches
 * (their boundaries, every event and arg), the counters, the summary and
 * the errors are those of the single-threaded reader. */
#include <string.h>

#include "../../test-util.h"
#include "ftrace-test-util.h"

/* A stream whose reads return at most a few bytes to 100 KB, in the
 * same pseudo-random sizes on every run (a pipe's short reads, made
 * repeatable): lines then end in blocks that hold no newline. */
#define TEST_TYPE_SHORT_STREAM (test_short_stream_get_type ())
G_DECLARE_FINAL_TYPE (TestShortStream, test_short_stream, TEST, SHORT_STREAM, GInputStream)
struct _TestShortStream
{
  GInputStream parent_instance;
  const char *data;
  gsize len, pos;
  GRand *rand;
};
G_DEFINE_FINAL_TYPE (TestShortStream, test_short_stream, G_TYPE_INPUT_STREAM)

static gssize
short_stream_read (GInputStream *stream,
                   void *buffer,
                   gsize count,
                   GCancellable *cancellable,
                   GError **error)
{
  TestShortStream *self = TEST_SHORT_STREAM (stream);
  gsize n = MIN (count, self->len - self->pos);
  gsize most = g_rand_int_range (self->rand, 1, g_rand_boolean (self->rand) ? 200 : 100000);

  n = MIN (n, most);
  memcpy (buffer, self->data + self->pos, n);
  self->pos += n;
  return n;
}

static void
short_stream_finalize (GObject *object)
{
  g_rand_free (TEST_SHORT_STREAM (object)->rand);
  G_OBJECT_CLASS (test_short_stream_parent_class)->finalize (object);
}

static void
test_short_stream_class_init (TestShortStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = short_stream_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = short_stream_read;
}

static void
test_short_stream_init (TestShortStream *self)
{
  self->rand = g_rand_new_with_seed (42);
}

static gboolean short_reads;

/* Everything a reader run produced, as text: batch boundaries, events
 * with their strings and args, counters, summary, error. */
static char *
describe_run (const void *data,
              gsize len,
              guint threads)
{
  g_autoptr (GInputStream) in = NULL;
  FtraceReaderOptions opts = { .threads = threads };
  FtraceReader *r;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *summary = NULL;
  FtraceReaderStats stats;
  TraceBatch *b;
  gboolean ok;

  if (short_reads)
    {
      in = g_object_new (TEST_TYPE_SHORT_STREAM, NULL);
      TEST_SHORT_STREAM (in)->data = data;
      TEST_SHORT_STREAM (in)->len = len;
    }
  else
    in = g_memory_input_stream_new_from_data (data, len, NULL);
  r = ftrace_reader_new (in, "input.txt", NULL, &opts);
  while ((ok = ftrace_reader_read_batch (r, &b, &error)) && b != NULL)
    {
      g_string_append_printf (out, "batch %u\n", b->n_events);
      for (guint i = 0; i < b->n_events; i++)
        {
          TraceEvent ev = b->events[i];
          const char *name = ev.name ? trace_string_pool_get (b->pool, ev.name) : "";
          const char *cat = ev.category ? trace_string_pool_get (b->pool, ev.category) : "";
          guint first_arg = ev.first_arg;

          ev.name = ev.category = ev.first_arg = 0;
          g_string_append_printf (out, "%s|%s|", name, cat);
          for (guint k = 0; k < sizeof ev; k++)
            g_string_append_printf (out, "%02x", ((const guint8 *) &ev)[k]);
          for (guint a = 0; a < ev.n_args; a++)
            {
              const TraceArg *arg = &b->args[first_arg + a];

              g_string_append_printf (out, " %s:%u:", trace_string_pool_get (b->pool, arg->key), arg->type);
              if (arg->type == TRACE_ARG_STRING)
                g_string_append (out, arg->v.s ? trace_string_pool_get (b->pool, arg->v.s) : "");
              else
                g_string_append_printf (out, "%" G_GINT64_MODIFIER "x", arg->v.i);
            }
          g_string_append_c (out, '\n');
        }
      trace_batch_unref (b);
    }
  ftrace_reader_copy_stats (r, &stats);
  summary = ftrace_reader_get_summary (r);
  g_string_append_printf (out, "ok %d error %s\nsummary %s\nformat %s clock %d\nstats ", ok,
                          error ? error->message : "-", summary ? summary : "-", ftrace_reader_get_format (r),
                          ftrace_reader_get_clock_domain (r));
  for (guint k = 0; k < sizeof stats; k++)
    g_string_append_printf (out, "%02x", ((const guint8 *) &stats)[k]);
  ftrace_reader_free (r);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
assert_same_as_one_thread (const void *data,
                           gsize len,
                           const char *what)
{
  g_autofree char *one = describe_run (data, len, 1);

  for (guint threads = 2; threads <= 5; threads += 3)
    {
      g_autofree char *many = describe_run (data, len, threads);

      if (g_strcmp0 (one, many) != 0)
        {
          gsize at = 0;

          while (one[at] && one[at] == many[at])
            at++;
          g_test_message ("%s: threads=%u differs from threads=1 at byte %" G_GSIZE_FORMAT ": \"%.80s\" vs \"%.80s\"",
                          what, threads, at, one + MAX (at, 40) - 40, many + MAX (at, 40) - 40);
          g_test_fail ();
          return;
        }
    }
}

/* ~@mb MiB of systrace text: sched_switch/wakeup with renamed threads,
 * atrace B/E/C markers, comments, blank and CRLF lines, lines it cannot
 * parse, one line over FTRACE_MAX_LINE_LENGTH, no newline at the end. */
static GString *
generate (guint mb,
          guint32 seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  GString *s = g_string_new ("# tracer: nop\n#\n");
  gint64 us = 1000000;
  guint line = 0;

  while (s->len < mb * 1024 * 1024)
    {
      gint32 tid = g_rand_int_range (rand, 100, 160);
      gint32 pid = 100 + tid % 5;
      guint r = g_rand_int_range (rand, 0, 100);
      const char *comm = (line / 5000) % 2 ? "worker" : "render";

      us += g_rand_int_range (rand, 1, 50);
      line++;
      g_string_append_printf (s, "%16s-%d (%5d) [%03d] d..3 %" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT ": ", comm, tid,
                              pid, tid % 4, us / 1000000, us % 1000000);
      if (r < 30)
        g_string_append_printf (s, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S ==> "
                                   "next_comm=thread%d next_pid=%d next_prio=120",
                                comm, tid, tid + 1, tid + 1);
      else if (r < 40)
        g_string_append_printf (s, "sched_wakeup: comm=thread%d pid=%d prio=120 target_cpu=%03d", tid + 2, tid + 2,
                                tid % 4);
      else if (r < 60)
        g_string_append_printf (s, "tracing_mark_write: B|%d|slice %u", pid, r);
      else if (r < 80)
        g_string_append_printf (s, "tracing_mark_write: E|%d", pid);
      else if (r < 95)
        g_string_append_printf (s, "tracing_mark_write: C|%d|counter%u|%u", pid, r % 3, line % 1000);
      else if (r < 96)
        g_string_append (s, "irq_handler_entry: irq=27 name=arch_timer");
      else if (r < 97)
        g_string_append (s, "\r");
      else if (r < 98)
        g_string_append (s, "\n# a comment\n");
      else if (r < 99)
        g_string_append (s, "\ngarbage that is no trace line");
      else
        g_string_append (s, "\n");
      g_string_append_c (s, '\n');
      if (line == 20000)
        {
          /* a marker longer than a line may be, across a block boundary */
          g_string_append (s, "  x-1 [000] .... 1.000000: tracing_mark_write: B|1|");
          for (guint i = 0; i < FTRACE_MAX_LINE_LENGTH / 8 + 100; i++)
            g_string_append (s, "longname");
          g_string_append_c (s, '\n');
        }
    }
  g_string_append (s, "  x-1 [000] .... 999.000000: tracing_mark_write: E|1"); /* no newline */
  return s;
}

static void
test_generated (void)
{
  g_autoptr (GString) s = generate (6, 19);

  assert_same_as_one_thread (s->str, s->len, "generated");
  /* with a newline at the end, and cut inside a line */
  g_string_append_c (s, '\n');
  assert_same_as_one_thread (s->str, s->len, "generated, newline at the end");
  assert_same_as_one_thread (s->str, 3 * 1024 * 1024 + 17, "generated, cut inside a line");
}

/* With a thread lending its time, threads=2 starts no worker of its own:
 * the lender and the reader's thread prepare the chunks between them,
 * and the batches are those of one thread. */
static void
test_lent (void)
{
  g_autoptr (GString) s = generate (6, 23);
  TestLender *lender = test_lender_start ();
  g_autofree char *one = describe_run (s->str, s->len, 1);
  g_autofree char *two = describe_run (s->str, s->len, 2);
  guint pieces = test_lender_stop (lender);

  g_test_message ("lent: %u chunks prepared by the lender", pieces);
  g_assert_cmpstr (two, ==, one);
  g_assert_cmpuint (pieces, >, 0);
}

/* A run of NUL bytes in the third block: from there the splitter reads. */
static void
test_nul_run (void)
{
  g_autoptr (GString) s = generate (5, 7);

  memset (s->str + 2 * 1024 * 1024 + 300, 0, 5000);
  assert_same_as_one_thread (s->str, s->len, "NUL run");
  /* in the first block, inside the part read to sniff the input */
  memset (s->str + 1000, 0, 10);
  assert_same_as_one_thread (s->str, s->len, "NUL run at the start");
}

/* A line over FTRACE_MAX_LINE_LENGTH ending past the block it starts in
 * by more than a line may hold. */
static void
test_huge_line (void)
{
  g_autoptr (GString) s = generate (2, 3);

  g_string_append (s, "\n  x-1 [000] .... 2.000000: tracing_mark_write: B|1|");
  for (guint i = 0; i < 3 * 1024 * 1024 / 8; i++)
    g_string_append (s, "longname");
  g_string_append (s, "\n  x-1 [000] .... 3.000000: tracing_mark_write: E|1\n");
  assert_same_as_one_thread (s->str, s->len, "huge line");
}

/* Reads that return a few bytes to 100 KB (a pipe): blocks that hold no
 * newline, lines across many blocks, a line over 64 KiB in pieces. */
static void
test_short_reads (void)
{
  g_autoptr (GString) s = generate (3, 11);

  short_reads = TRUE;
  assert_same_as_one_thread (s->str, s->len, "short reads");
  memset (s->str + 2 * 1024 * 1024 + 300, 0, 100);
  assert_same_as_one_thread (s->str, s->len, "short reads with a NUL run");
  short_reads = FALSE;
}

static void
test_small_and_empty (void)
{
  static const char *const inputs[] = {
    "",
    "\n",
    "\n\n\n",
    "# tracer: nop\n",
    "x",
    "  x-1 [000] .... 1.000000: tracing_mark_write: B|1|a",
    "\xef\xbb\xbf  x-1 [000] .... 1.000000: tracing_mark_write: B|1|a\r\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    assert_same_as_one_thread (inputs[i], strlen (inputs[i]), inputs[i]);
}

/* Every ftrace input of tests/data: text, HTML (one thread either way),
 * atrace -z, trace-cmd reports, RheaTrace. */
static void
test_corpus (void)
{
  g_autofree char *dir_path = g_build_filename (TEST_DATA_DIR, "ftrace", NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *contents = NULL;
      gsize len;

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !g_file_get_contents (path, &contents, &len, NULL))
        continue;
      assert_same_as_one_thread (contents, len, name);
      n++;
    }
  g_assert_cmpuint (n, >, 20);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ftrace/threads/generated", test_generated);
  g_test_add_func ("/ftrace/threads/lent", test_lent);
  g_test_add_func ("/ftrace/threads/nul-run", test_nul_run);
  g_test_add_func ("/ftrace/threads/huge-line", test_huge_line);
  g_test_add_func ("/ftrace/threads/short-reads", test_short_reads);
  g_test_add_func ("/ftrace/threads/small-and-empty", test_small_and_empty);
  g_test_add_func ("/ftrace/threads/corpus", test_corpus);
  return g_test_run ();
}
