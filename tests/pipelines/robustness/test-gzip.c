/* tracepipe tests - gzip input: every member, a cut file, trailing bytes
 *
 * TraceFileSrc undoes gzip for every source. `cat a.gz b.gz`, pigz and
 * bgzip write several members: all are read. A file cut while it was
 * written keeps what came before the cut, with a WARNING naming the byte
 * offset (exit 0, as for a cut text file); bytes after the last member
 * that are no gzip are skipped with a WARNING.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "robustness.h"

typedef struct
{
  const char *source;
  const char *area, *name;
} GzipCase;

static const GzipCase gzip_cases[] = {
  { "ftrace-src", "ftrace", "catapult_decompressed_atrace_data.txt" },
  { "json-src", "json", "catapult_chromeos_system_trace.json" },
};

/* What `SRC location=PATH ! fakesink` reads: exit code, events, messages. */
static RbResult *
read_with (const GzipCase *c,
           const char *path)
{
  g_autofree char *location = g_strdup_printf ("location=%s", path);

  return RB_RUN ("-q", "--stats", c->source, location, "!", "fakesink");
}

static char *
write_scratch (const char *dir,
               const char *name,
               GBytes *bytes)
{
  char *path = g_build_filename (dir, name, NULL);

  rb_write_file (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  return path;
}

/* The plain file cut in three at arbitrary bytes (inside lines and
 * events), each part a gzip member of its own, concatenated. */
static GBytes *
three_members (GBytes *plain)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (plain, &len);
  gsize cuts[] = { 0, len / 3 + 7, 2 * len / 3 - 5, len };
  g_autoptr (GByteArray) out = g_byte_array_new ();

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (GBytes) part = g_bytes_new (data + cuts[i], cuts[i + 1] - cuts[i]);
      g_autoptr (GBytes) member = rb_gzip (part);
      gsize n;
      const guint8 *m = g_bytes_get_data (member, &n);

      g_byte_array_append (out, m, n);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static void
test_members (gconstpointer data)
{
  const GzipCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *plain_path = rb_data_path (c->area, c->name);
  g_autoptr (GBytes) plain = rb_read_file (plain_path);
  g_autoptr (GBytes) members = three_members (plain);
  g_autofree char *path = write_scratch (dir, "members.gz", members);
  g_autoptr (RbResult) want = read_with (c, plain_path);
  g_autoptr (RbResult) got = read_with (c, path);
  g_autofree char *src = g_strdup_printf ("%s0", c->source);

  g_assert_cmpint (want->status, ==, 0);
  g_assert_cmpint (got->status, ==, 0);
  rb_assert_messages (got->err, "");
  g_assert_cmpuint (rb_stat (got->err, src, "events-out"), ==, rb_stat (want->err, src, "events-out"));
  g_assert_cmpuint (rb_stat (got->err, src, "events-out"), >, 0);
  rb_scratch_cleanup (dir);
}

/* @keep bytes of the gzip'd file, the rest lost: what was inflated is
 * read, and the WARNING says where the data ends. */
static RbResult *
read_cut (const GzipCase *c,
          const char *dir,
          gssize keep,
          gsize *kept)
{
  g_autofree char *plain_path = rb_data_path (c->area, c->name);
  g_autoptr (GBytes) plain = rb_read_file (plain_path);
  g_autoptr (GBytes) gz = rb_gzip (plain);
  gsize len = g_bytes_get_size (gz);
  g_autoptr (GBytes) cut = g_bytes_new_from_bytes (gz, 0, keep < 0 ? len + keep : (gsize) keep);
  g_autofree char *path = write_scratch (dir, "cut.gz", cut);

  *kept = g_bytes_get_size (cut);
  return read_with (c, path);
}

static void
test_cut (gconstpointer data)
{
  const GzipCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *plain_path = rb_data_path (c->area, c->name);
  g_autoptr (RbResult) want = read_with (c, plain_path);
  g_autofree char *src = g_strdup_printf ("%s0", c->source);
  gsize kept;
  g_autoptr (RbResult) got = read_cut (c, dir, 1200, &kept);
  g_autofree char *message = g_strdup_printf ("the compressed data ends early at byte %" G_GSIZE_FORMAT
                                              " (inside gzip member 1): the file was cut; what came before is read",
                                              kept);

  g_assert_cmpint (got->status, ==, 0);
  g_assert_nonnull (strstr (got->err, message));
  g_assert_cmpuint (rb_stat (got->err, src, "events-out"), >, 0);
  g_assert_cmpuint (rb_stat (got->err, src, "events-out"), <, rb_stat (want->err, src, "events-out"));
  rb_scratch_cleanup (dir);
}

/* Only the 8-byte trailer (CRC and size) is missing: every event is read,
 * and the WARNING still says the file was cut. */
static void
test_no_trailer (gconstpointer data)
{
  const GzipCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *plain_path = rb_data_path (c->area, c->name);
  g_autoptr (RbResult) want = read_with (c, plain_path);
  g_autofree char *src = g_strdup_printf ("%s0", c->source);
  gsize kept;
  g_autoptr (RbResult) got = read_cut (c, dir, -8, &kept);

  g_assert_cmpint (got->status, ==, 0);
  g_assert_nonnull (strstr (got->err, "the compressed data ends early at byte"));
  g_assert_cmpuint (rb_stat (got->err, src, "events-out"), ==, rb_stat (want->err, src, "events-out"));
  rb_scratch_cleanup (dir);
}

/* Bytes after the last member that are not gzip (padding, a damaged
 * tail) are skipped with a WARNING giving their size and offset. */
static void
test_trailing (gconstpointer data)
{
  const GzipCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *plain_path = rb_data_path (c->area, c->name);
  g_autoptr (GBytes) plain = rb_read_file (plain_path);
  g_autoptr (GBytes) gz = rb_gzip (plain);
  g_autoptr (GByteArray) tailed = g_byte_array_new ();
  g_autoptr (GBytes) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr (RbResult) want = read_with (c, plain_path);
  g_autoptr (RbResult) got = NULL;
  g_autofree char *src = g_strdup_printf ("%s0", c->source);
  g_autofree char *message = NULL;

  g_byte_array_append (tailed, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
  g_byte_array_append (tailed, (const guint8 *) "\0\0\0garbage", 10);
  file = g_byte_array_free_to_bytes (g_steal_pointer (&tailed));
  path = write_scratch (dir, "tailed.gz", file);
  got = read_with (c, path);
  message = g_strdup_printf ("10 bytes at byte %" G_GSIZE_FORMAT " after 1 gzip member are not gzip data: ignored",
                             g_bytes_get_size (gz));
  g_assert_cmpint (got->status, ==, 0);
  g_assert_nonnull (strstr (got->err, message));
  g_assert_cmpuint (rb_stat (got->err, src, "events-out"), ==, rb_stat (want->err, src, "events-out"));
  rb_scratch_cleanup (dir);
}

/* gzip that is damaged (bytes overwritten after the header) or holds
 * nothing: the source refuses it with the file's name, exit 1. These
 * were the ftrace reader's own tests before gzip moved to TraceFileSrc. */
static void
test_damaged (gconstpointer data)
{
  const GzipCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *plain_path = rb_data_path (c->area, c->name);
  g_autoptr (GBytes) plain = rb_read_file (plain_path);
  g_autoptr (GBytes) gz = rb_gzip (plain);
  g_autofree guint8 *bad = g_memdup2 (g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
  g_autoptr (GBytes) file = NULL;
  g_autofree char *path = NULL;
  g_autofree char *message = NULL;
  g_autoptr (RbResult) got = NULL;

  memset (bad + 10, 0xff, 8);
  file = g_bytes_new (bad, g_bytes_get_size (gz));
  path = write_scratch (dir, "bad.gz", file);
  got = read_with (c, path);
  message = g_strdup_printf ("ERROR: from /pipeline0/%s0: %s: ", c->source, path);
  g_assert_cmpint (got->status, ==, 1);
  g_assert_nonnull (strstr (got->err, message));
  /* the decoder's words, whatever the format's reader adds before them */
  g_assert_nonnull (strstr (got->err, "the gzip data is damaged at byte 11 (member at byte 0)"));
  rb_scratch_cleanup (dir);
}

static void
test_empty (gconstpointer data)
{
  const GzipCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autoptr (GBytes) nothing = g_bytes_new_static ("", 0);
  g_autoptr (GBytes) gz = rb_gzip (nothing);
  g_autofree char *path = write_scratch (dir, "e.gz", gz);
  g_autofree char *message = g_strdup_printf ("ERROR: from /pipeline0/%s0: %s: ", c->source, path);
  g_autoptr (RbResult) got = read_with (c, path);

  g_assert_cmpint (got->status, ==, 1);
  g_assert_nonnull (strstr (got->err, message));
  g_assert_nonnull (strstr (got->err, "empty"));
  rb_scratch_cleanup (dir);
}

/* `atrace -z` (ctrace): zlib inside the format, cut while written after
 * 2007 of its bytes. As for a cut gzip file: what was inflated is read,
 * a WARNING says where the data ends, exit 0. */
static void
test_ctrace_cut (void)
{
  static const GzipCase c = { "ftrace-src", "ftrace", "catapult_compressed_atrace_data.ctrace" };
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *whole_path = rb_data_path (c.area, c.name);
  g_autoptr (GBytes) whole = rb_read_file (whole_path);
  g_autoptr (GBytes) cut = g_bytes_new_from_bytes (whole, 0, 2007);
  g_autofree char *path = write_scratch (dir, "cut.ctrace", cut);
  g_autoptr (RbResult) want = read_with (&c, whole_path);
  g_autoptr (RbResult) got = read_with (&c, path);

  g_assert_cmpint (want->status, ==, 0);
  g_assert_cmpint (got->status, ==, 0);
  g_assert_nonnull (strstr (got->err, "the zlib data ends early at byte 2007 (the capture was cut); what came "
                                      "before is read"));
  g_assert_cmpuint (rb_stat (got->err, "ftrace-src0", "events-out"), >, 0);
  g_assert_cmpuint (rb_stat (got->err, "ftrace-src0", "events-out"), <, rb_stat (want->err, "ftrace-src0", "events-out"));
  rb_scratch_cleanup (dir);
}

void
rb_add_gzip_tests (void)
{
  g_test_add_func ("/robustness/gzip/ctrace-cut", test_ctrace_cut);
  for (guint i = 0; i < G_N_ELEMENTS (gzip_cases); i++)
    {
      const GzipCase *c = &gzip_cases[i];
      g_autofree char *members = g_strdup_printf ("/robustness/gzip/members/%s", c->source);
      g_autofree char *cut = g_strdup_printf ("/robustness/gzip/cut/%s", c->source);
      g_autofree char *trailer = g_strdup_printf ("/robustness/gzip/no-trailer/%s", c->source);
      g_autofree char *trailing = g_strdup_printf ("/robustness/gzip/trailing-bytes/%s", c->source);

      g_test_add_data_func (members, c, test_members);
      g_test_add_data_func (cut, c, test_cut);
      g_test_add_data_func (trailer, c, test_no_trailer);
      g_autofree char *damaged = g_strdup_printf ("/robustness/gzip/damaged/%s", c->source);
      g_autofree char *empty = g_strdup_printf ("/robustness/gzip/empty/%s", c->source);

      g_test_add_data_func (trailing, c, test_trailing);
      g_test_add_data_func (damaged, c, test_damaged);
      g_test_add_data_func (empty, c, test_empty);
    }
}
