/* tracepipe tests - damaged inputs read honestly
 *
 * NUL runs left by a crash, JSON args with nulls and empty containers,
 * arrays of empty objects, garbage inside an event: each is read as far
 * as it goes, counted, and said in the message; a damaged file that
 * yields nothing is an error, not an empty trace.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "robustness.h"

/* Runs @source on DIR/NAME (written from @text) into DIR/out.json. */
static RbResult *
run_file (const char *dir,
          const char *name,
          const char *text,
          gsize len,
          const char *source,
          gboolean quiet,
          char **path_out)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);

  rb_write_file (path, text, len);
  if (path_out)
    *path_out = g_steal_pointer (&path);
  if (quiet)
    return RB_RUN ("-q", "--stats", source, location, "!", "json-sink", out_location);
  return RB_RUN ("--stats", source, location, "!", "json-sink", out_location);
}

/* Item 11: a million `{}` are valid JSON but no event: counted as
 * skipped ("empty object"), said in an INFO line and --stats, exit 0,
 * a valid empty trace written. */
static void
test_empty_objects (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *path = NULL;
  g_autofree char *info = NULL;
  g_autoptr (GString) s = g_string_sized_new (3 * 1000000 + 2);
  g_autoptr (RbResult) r = NULL;

  g_string_append_c (s, '[');
  for (guint i = 0; i < 1000000; i++)
    g_string_append (s, i ? ",{}" : "{}");
  g_string_append_c (s, ']');
  r = run_file (dir, "empty-objects.json", s->str, s->len, "json-src", FALSE, &path);
  g_assert_cmpint (r->status, ==, 0);
  /* (the ellipsis after the four offsets is '?' in the C locale) */
  info = g_strdup_printf ("INFO: from /pipeline0/json-src0: %s: skipped 1000000: 1000000 empty object (at byte 1, "
                          "4, 7, 10, ",
                          path);
  g_assert_nonnull (strstr (r->err, info));
  g_assert_null (strstr (r->err, "WARNING"));
  g_assert_cmpuint (rb_stat (r->err, "json-src0", "skipped-empty-object"), ==, 1000000);
  g_assert_cmpuint (rb_stat (r->err, "json-src0", "events-out"), ==, 0);
  g_assert_cmpuint (rb_json_trace_events (out), ==, 0);
  rb_scratch_cleanup (dir);
}

/* Item 12: garbage inside an event is "malformed" at the byte of the
 * garbage (it was "truncated" at the event when the event never closed);
 * the events around it are read; a damaged file that yields no event is
 * an ERROR (exit 1) and nothing is written. */
static void
test_garbage_in_event (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *garbage = g_strnfill (4096, '@');
  g_autofree char *alone = g_strconcat ("[{\"ph\": \"B\", \"ts\": 1, ", garbage, NULL);
  g_autofree char *among = g_strconcat ("[{\"ph\":\"B\",\"ts\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"},\n"
                                        "{\"ph\": \"B\", \"ts\": 2, ",
                                        garbage, "},\n{\"ph\":\"E\",\"ts\":3,\"pid\":1,\"tid\":1}]", NULL);
  g_autofree char *path = NULL, *expected = NULL;
  g_autoptr (RbResult) r = run_file (dir, "alone.json", alone, strlen (alone), "json-src", TRUE, &path);
  g_autoptr (RbResult) r2 = NULL;

  g_assert_cmpint (r->status, ==, 1);
  expected = g_strdup_printf ("ERROR: from /pipeline0/json-src0: %s: damaged, no event could be read: skipped 1: "
                              "1 malformed (at byte %d)\n",
                              path, (int) (strchr (alone, '@') - alone));
  rb_assert_messages (r->err, expected);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_clear_pointer (&path, g_free);
  g_clear_pointer (&expected, g_free);

  r2 = run_file (dir, "among.json", among, strlen (among), "json-src", TRUE, &path);
  g_assert_cmpint (r2->status, ==, 0);
  expected = g_strdup_printf ("WARNING: from /pipeline0/json-src0: %s: skipped 1: 1 malformed (at byte %d)\n", path,
                              (int) (strchr (among, '@') - among));
  rb_assert_messages (r2->err, expected);
  g_assert_cmpuint (rb_stat (r2->err, "json-src0", "events-out"), ==, 2);
  g_assert_cmpuint (rb_json_trace_events (out), >=, 2);
  rb_scratch_cleanup (dir);
}

/* Item 10: nulls and empty containers in args are kept, so array
 * indices do not shift (they were dropped: {"x":[1],"v":[true]}); an
 * array cut at the 1024-args limit is a WARNING. */
static void
test_args_shape (void)
{
  static const char args[] = "{\"x\":[[],1,{}],\"w\":null,\"v\":[null,true]}";
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *json = g_strdup_printf ("[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1,\"name\":\"a\","
                                           "\"args\":%s}]",
                                           args);
  g_autoptr (GString) big = g_string_new ("[{\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":1,\"name\":\"x\",\"args\":{\"a\":[");
  g_autofree char *path = NULL, *expected = NULL;
  g_autoptr (RbResult) r = run_file (dir, "shape.json", json, strlen (json), "json-src", TRUE, NULL);
  g_autoptr (RbResult) r2 = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *written = NULL;
  JsonObject *ev;

  g_assert_cmpint (r->status, ==, 0);
  rb_assert_messages (r->err, "");
  g_assert_true (g_file_get_contents (out, &written, NULL, NULL));
  g_assert_nonnull (strstr (written, args));

  /* a B/E pair written as X: the end's null does not replace the
   * begin's value (trace_processor shows the begin's) */
  {
    static const char be[] = "[{\"ph\":\"B\",\"ts\":1,\"pid\":1,\"tid\":1,\"name\":\"s\",\"args\":{\"a\":1}},"
                             "{\"ph\":\"E\",\"ts\":2,\"pid\":1,\"tid\":1,\"args\":{\"a\":null}}]";
    g_autofree char *in = g_build_filename (dir, "be.json", NULL);
    g_autofree char *in_location = g_strdup_printf ("location=%s", in);
    g_autoptr (RbResult) x = NULL;

    rb_write_file (in, be, strlen (be));
    x = RB_RUN ("-q", "json-src", in_location, "!", "json-sink", "slices=complete", "location=-");
    g_assert_cmpint (x->status, ==, 0);
    g_assert_nonnull (strstr (x->out, "\"args\":{\"a\":1}"));
  }

  for (guint i = 0; i < 1100; i++)
    g_string_append_printf (big, "%s%u", i ? "," : "", i);
  g_string_append (big, "]}}]");
  r2 = run_file (dir, "long-array.json", big->str, big->len, "json-src", TRUE, &path);
  g_assert_cmpint (r2->status, ==, 0);
  expected = g_strdup_printf ("WARNING: from /pipeline0/json-src0: %s: skipped 1: 1 args dropped (at byte 1)\n", path);
  rb_assert_messages (r2->err, expected);
  g_assert_cmpuint (rb_stat (r2->err, "json-src0", "skipped-args-dropped"), ==, 1);
  json_parser_load_from_file (parser, out, &error);
  g_assert_no_error (error);
  ev = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents"), 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_object_get_object_member (ev, "args"), "a")),
                    ==, 1024);
  rb_scratch_cleanup (dir);
}

/* Where line @n (from 1) of @text starts. */
static gsize
line_start (const char *text,
            guint n)
{
  const char *p = text;

  for (guint i = 1; i < n; i++)
    p = strchr (p, '\n') + 1;
  return p - text;
}

/* Item 9: runs of NUL bytes, as a crash or power loss leaves them: one
 * in the first 8 KB (the file was rejected as binary), one inside a line
 * (that line is dropped), one before a line after 8 KB (it ran into the
 * line: a thread name of 1 KB of U+FFFD).  Every intact line is read and
 * the warning gives the NUL bytes and where they are. */
static void
test_nul_runs (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *clean_path = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  g_autoptr (GBytes) clean = rb_read_file (clean_path);
  const char *text = g_bytes_get_data (clean, NULL);
  gsize a = line_start (text, 4), b = line_start (text, 500) + 20, c = line_start (text, 800);
  g_autoptr (GString) s = g_string_new_len (text, a);
  g_autofree char *nul = g_malloc0 (4096);
  g_autofree char *path = NULL, *expected = NULL, *written = NULL;
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autoptr (RbResult) base = NULL, r = NULL;

  g_assert_cmpuint (c, >, 8192);
  g_string_append_len (s, nul, 4096);
  g_string_append_len (s, text + a, b - a);
  g_string_append_len (s, nul, 1000);
  g_string_append_len (s, text + b, c - b);
  g_string_append_len (s, nul, 2048);
  g_string_append_len (s, text + c, g_bytes_get_size (clean) - c);
  base = run_file (dir, "clean.txt", text, g_bytes_get_size (clean), "ftrace-src", TRUE, NULL);
  r = run_file (dir, "nul.txt", s->str, s->len, "ftrace-src", TRUE, &path);
  g_assert_cmpint (r->status, ==, 0);
  expected = g_strdup_printf ("WARNING: from /pipeline0/ftrace-src0: %s: 7144 bytes of NUL at offsets %" G_GSIZE_FORMAT
                              ", %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT
                              " (1 line cut by them dropped); 1 unparsable lines (line 500)\n",
                              path, a, 4096 + b, 5096 + c);
  rb_assert_messages (r->err, expected);
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "skipped-nul-bytes"), ==, 7144);
  /* the line the middle run cut is the only one lost: its start is
   * dropped, its end (after the run, still line 500) does not parse */
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "trace-lines"), ==, rb_stat (base->err, "ftrace-src0", "trace-lines") - 1);
  g_assert_true (g_file_get_contents (out, &written, NULL, NULL));
  g_assert_null (strstr (written, "\xef\xbf\xbd")); /* no U+FFFD */
  rb_scratch_cleanup (dir);
}

void
rb_add_damage_tests (void)
{
  g_test_add_func ("/robustness/damaged/json-empty-objects", test_empty_objects);
  g_test_add_func ("/robustness/damaged/json-garbage-in-event", test_garbage_in_event);
  g_test_add_func ("/robustness/damaged/json-args-shape", test_args_shape);
  g_test_add_func ("/robustness/damaged/ftrace-nul-runs", test_nul_runs);
}
