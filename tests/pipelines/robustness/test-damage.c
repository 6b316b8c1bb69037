/* tracepipe tests - damaged inputs read honestly (issue 17, items 9-12)
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

void
rb_add_damage_tests (void)
{
  g_test_add_func ("/robustness/damaged/json-empty-objects", test_empty_objects);
}
