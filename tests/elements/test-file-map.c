/* tracepipe - tests of TraceFileSrc's mapping of its input
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A subclass reads its file in place (trace_file_src_map_input()), a
 * page per batch, into one instant whose timestamp is the sum of the
 * page's bytes, saying how far it got after each
 * (trace_file_src_set_mapped_position()). It can cut its own file short after a batch, as another
 * process might while a conversion runs: the source must end with an
 * error that says so, not die of SIGBUS; and a SIGBUS that is not about
 * a mapping must still end the process.
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <trace/check/traceharness.h>

#include "../test-util.h"

#define PAGE 4096

#define TEST_TYPE_PAGE_SRC (test_page_src_get_type ())
G_DECLARE_FINAL_TYPE (TestPageSrc, test_page_src, TEST, PAGE_SRC, TraceFileSrc)

struct _TestPageSrc
{
  TraceFileSrc parent_instance;
  GInputStream *stream;
  const guint8 *map;
  gsize size, pos;
  gboolean mapped; /* whether the base gave a mapping */
  guint batches;
  guint cut_after; /* batches, 0: never */
  gsize cut_to;
};

G_DEFINE_FINAL_TYPE (TestPageSrc, test_page_src, TRACE_TYPE_FILE_SRC)

static gboolean
test_page_src_open (TraceFileSrc *src,
                    GInputStream *stream,
                    guint64 size,
                    GError **error)
{
  TestPageSrc *self = TEST_PAGE_SRC (src);

  self->stream = stream;
  self->pos = 0;
  self->batches = 0;
  self->map = trace_file_src_map_input (src, &self->size);
  self->mapped = self->map != NULL;
  return TRUE;
}

/* The next page's bytes, from the mapping or (without one) the stream. */
static gsize
next_page (TestPageSrc *self,
           guint8 *page,
           GError **error)
{
  gsize n = 0;

  if (self->map == NULL)
    {
      g_input_stream_read_all (self->stream, page, PAGE, &n, NULL, error);
      return n;
    }
  n = MIN (PAGE, self->size - self->pos);
  memcpy (page, self->map + self->pos, n);
  return n;
}

static gboolean
test_page_src_read_batch (TraceFileSrc *src,
                          TraceBatch **out,
                          GError **error)
{
  TestPageSrc *self = TEST_PAGE_SRC (src);
  guint8 page[PAGE];
  gint64 sum = 0;
  gsize n;

  /* cut before the read: the read may fault */
  if (self->cut_after != 0 && self->batches == self->cut_after)
    g_assert_no_errno (truncate (trace_file_src_get_location (src), self->cut_to));
  n = next_page (self, page, error);

  *out = NULL;
  if (n == 0)
    return error == NULL || *error == NULL;
  for (gsize i = 0; i < n; i++)
    sum += page[i];
  self->pos += n;
  trace_file_src_set_mapped_position (src, self->pos);
  *out = trace_batch_new (trace_element_get_string_pool (TRACE_ELEMENT (src)), 1);
  trace_batch_append (*out, TRACE_EVENT_INSTANT, sum);
  self->batches++;
  return TRUE;
}

static void
test_page_src_get_stream_info (TraceFileSrc *src,
                               TraceStreamInfo *info)
{
  info->format = "test-pages";
  info->clock_domain = TRACE_CLOCK_UNKNOWN;
  info->clock_source = "test";
}

static void
test_page_src_class_init (TestPageSrcClass *klass)
{
  TRACE_FILE_SRC_CLASS (klass)->open = test_page_src_open;
  TRACE_FILE_SRC_CLASS (klass)->read_batch = test_page_src_read_batch;
  TRACE_FILE_SRC_CLASS (klass)->get_stream_info = test_page_src_get_stream_info;
}

static void
test_page_src_init (TestPageSrc *self)
{
}

/* A file of @pages pages; page i holds the byte i + 1 throughout. */
static char *
write_pages (guint pages)
{
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *data = g_malloc (pages * PAGE);
  char *path = NULL;
  int fd = g_file_open_tmp ("test-file-map-XXXXXX", &path, &error);

  g_assert_no_error (error);
  close (fd);
  for (guint i = 0; i < pages; i++)
    memset (data + i * PAGE, i + 1, PAGE);
  g_assert_true (g_file_set_contents (path, (char *) data, pages * PAGE, &error));
  return path;
}

static TraceHarness *
play (const char *path,
      guint cut_after,
      gsize cut_to,
      TestPageSrc **src)
{
  TraceHarness *h;

  *src = g_object_new (TEST_TYPE_PAGE_SRC, "location", path, NULL);
  (*src)->cut_after = cut_after;
  (*src)->cut_to = cut_to;
  h = trace_harness_new_with_element (TRACE_ELEMENT (*src), NULL, "src");
  g_assert_true (trace_harness_play (h));
  return h;
}

/* Read in place: every page's bytes, and the progress at the end. */
static void
test_in_place (void)
{
  g_autofree char *path = write_pages (40);
  TestPageSrc *src;
  g_autoptr (TraceHarness) h = play (path, 0, 0, &src);
  g_autoptr (TraceBatch) all = NULL;

  g_assert_true (trace_harness_run_until_eos (h, 10000));
  g_assert_true (src->mapped);
  all = trace_harness_take_all (h);
  g_assert_cmpuint (all->n_events, ==, 40);
  for (guint i = 0; i < 40; i++)
    g_assert_cmpint (all->events[i].ts, ==, (gint64) (i + 1) * PAGE);
  g_assert_cmpuint (trace_file_src_get_bytes_read (TRACE_FILE_SRC (src)), ==, 40 * PAGE);
  g_unlink (path);
}

/* The process's resident file-backed pages (kB), -1 where unknown. */
static gint64
rss_file_kb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) || (line = strstr (status, "RssFile:")) == NULL)
    return -1;
  return g_ascii_strtoll (line + strlen ("RssFile:"), NULL, 10);
}

/* Reading a file in place does not keep it resident: the pages the
 * reader is done with are given back as it goes (16 MiB read, a page a
 * batch; without that the whole file stayed in the RSS). */
static void
test_not_resident (void)
{
  g_autofree char *path = write_pages (4096);
  gint64 before = rss_file_kb (), after;
  TestPageSrc *src;
  g_autoptr (TraceHarness) h = NULL;

  if (before < 0)
    {
      g_test_skip ("no RssFile in /proc/self/status");
      g_unlink (path);
      return;
    }
  h = play (path, 0, 0, &src);
  g_assert_true (trace_harness_run_until_eos (h, 60000));
  g_assert_true (src->mapped);
  after = rss_file_kb ();
  g_test_message ("RssFile %" G_GINT64_FORMAT " kB before, %" G_GINT64_FORMAT " kB after", before, after);
  g_assert_cmpint (after - before, <, 4 * 1024);
  g_unlink (path);
}

/* No mapping where the bytes are not the file's: gzip. */
static void
test_gzip_not_mapped (void)
{
  /* "x\n", gzip -n */
  static const guint8 gz[] = { 0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xab,
                               0xe0, 0x02, 0x00, 0x1f, 0x08, 0xea, 0x46, 0x02, 0x00, 0x00, 0x00 };
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (TraceHarness) h = NULL;
  TestPageSrc *src;
  int fd = g_file_open_tmp ("test-file-map-XXXXXX.gz", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, (const char *) gz, sizeof gz, &error));
  h = play (path, 0, 0, &src);
  g_assert_true (trace_harness_run_until_eos (h, 10000));
  g_assert_false (src->mapped);
  all = trace_harness_take_all (h);
  g_assert_cmpuint (all->n_events, ==, 1);
  g_assert_cmpint (all->events[0].ts, ==, 'x' + '\n');
  g_unlink (path);
}

/* Cut short after three pages of forty, to five pages and a bit: the
 * pages before are right, then a WARNING that names the file and both
 * sizes instead of the fourth (still in the file: the size says it, not
 * a fault), and the end of the stream, no error. */
static void
test_cut_short (void)
{
  g_autofree char *path = write_pages (40);
  g_autofree char *expected = NULL;
  g_autoptr (TraceMessage) msg = NULL;
  g_autoptr (TraceBatch) all = NULL;
  TestPageSrc *src;
  g_autoptr (TraceHarness) h = play (path, 3, 5 * PAGE + 100, &src);

  g_assert_true (trace_harness_run_until_eos (h, 10000));
  g_assert_true (src->mapped);
  g_assert_null (trace_harness_pop_message (h, TRACE_MESSAGE_ERROR));
  msg = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_nonnull (msg);
  expected = g_strdup_printf ("%s: the file was cut short while it was read (it had %d bytes, it has %d): what was "
                              "read before is kept",
                              path, 40 * PAGE, 5 * PAGE + 100);
  g_assert_cmpstr (msg->error->message, ==, expected);
  /* the batches before the cut; none after */
  all = trace_harness_take_all (h);
  g_assert_cmpuint (all->n_events, ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (all->events[i].ts, ==, (gint64) (i + 1) * PAGE);
  g_unlink (path);
}

/* Cut to nothing after the first page: the next read faults (SIGBUS),
 * the handler puts zeros there, the process lives on and the warning
 * is the same, after the first page's event only. */
static void
test_cut_to_nothing (void)
{
  g_autofree char *path = write_pages (40);
  g_autoptr (TraceMessage) msg = NULL;
  g_autoptr (TraceBatch) all = NULL;
  TestPageSrc *src;
  g_autoptr (TraceHarness) h = NULL;

  /* valgrind does not resume a faulting access after the handler */
  if (test_under_valgrind ())
    {
      g_test_skip ("valgrind cannot resume an access after its SIGBUS handler (docs/robustness.md)");
      g_unlink (path);
      return;
    }
  h = play (path, 1, 0, &src);
  g_assert_true (trace_harness_run_until_eos (h, 10000));
  g_assert_null (trace_harness_pop_message (h, TRACE_MESSAGE_ERROR));
  msg = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_nonnull (msg);
  g_assert_true (strstr (msg->error->message, "the file was cut short while it was read") != NULL);
  g_assert_true (strstr (msg->error->message, "it has 0)") != NULL);
  all = trace_harness_take_all (h);
  g_assert_cmpuint (all->n_events, ==, 1);
  g_unlink (path);
}

/* Once the handler is in place, a SIGBUS outside every mapping of a
 * source still ends the process, as it would have without it. */
static void
test_other_sigbus (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *path = write_pages (4);
      g_autofree char *other = write_pages (4);
      TestPageSrc *src;
      g_autoptr (TraceHarness) h = play (path, 0, 0, &src);
      int fd = open (other, O_RDONLY);
      volatile const guint8 *p = mmap (NULL, 4 * PAGE, PROT_READ, MAP_SHARED, fd, 0);

      g_assert_true (trace_harness_run_until_eos (h, 10000));
      g_assert_true (src->mapped);
      g_assert_no_errno (ftruncate (open (other, O_RDWR), 0));
      g_unlink (path);
      g_unlink (other);
      (void) p[3 * PAGE];
      g_printerr ("still alive\n");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr_unmatched ("*still alive*");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/file-src/map/in-place", test_in_place);
  g_test_add_func ("/file-src/map/not-resident", test_not_resident);
  g_test_add_func ("/file-src/map/gzip-not-mapped", test_gzip_not_mapped);
  g_test_add_func ("/file-src/map/cut-short", test_cut_short);
  g_test_add_func ("/file-src/map/cut-to-nothing", test_cut_to_nothing);
  g_test_add_func ("/file-src/map/other-sigbus", test_other_sigbus);
  return g_test_run ();
}
