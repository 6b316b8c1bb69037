/* Detection: what auto-src finds in a file, decided by each plugin's
 * detector, each looking as far as its format needs and no further.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "../test-util.h"

/* FTRACE_HTML_LOOK_AHEAD (plugins/ftrace/ftrace-private.h), the limit
 * docs/robustness.md gives. */
#define HTML_LOOK_AHEAD (8 * 1024 * 1024)

#define FULL_EXPORT TEST_DATA_DIR "/ftrace/gtechoogle_systrace_full_export.html"
#define LEGACY_CPUPROFILE TEST_DATA_DIR "/arkts/cp2cg_busy_legacy.cpuprofile"

static gboolean
have (const char *element)
{
  if (trace_element_factory_find (element) != NULL)
    return TRUE;
  g_test_skip_printf ("%s is not built", element);
  return FALSE;
}

/* `auto-src location=PATH` taken to READY: the format it detected, or
 * NULL and the text of the error it posted in *error_text. */
static char *
auto_detect (const char *path,
             char **error_text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) p = trace_parse_launch ("auto-src name=a ! fakesink", &error);
  TraceElement *a;
  char *format = NULL;

  g_assert_no_error (error);
  a = trace_bin_get_by_name (TRACE_BIN (p), "a");
  g_object_set (a, "location", path, NULL);
  if (trace_element_set_state (p, TRACE_STATE_READY) == TRACE_STATE_CHANGE_FAILURE)
    {
      g_autoptr (TraceMessage) msg = trace_bus_pop_filtered (trace_pipeline_get_bus (TRACE_PIPELINE (p)),
                                                             TRACE_MESSAGE_ERROR);

      g_assert_nonnull (msg);
      *error_text = g_strdup (msg->error->message);
    }
  else
    g_object_get (a, "detected-format", &format, NULL);
  trace_element_set_state (p, TRACE_STATE_NULL);
  return format;
}

/* An HTML file whose first data block opens on the line that ends
 * @block_end bytes into the file, after lines of script. */
static GByteArray *
html_with_block_at (gsize block_end)
{
  static const char start[] = "<!DOCTYPE html>\n<html>\n<head>\n<script>\n";
  static const char opener[] = "</script>\n  <script class=\"trace-data\" type=\"application/text\">";
  static const char data[] = "\n# tracer: nop\n"
                             "          <idle>-0     [000] d..3  100.000000: sched_switch: prev_comm=swapper/0 "
                             "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=7 next_prio=120\n"
                             "  </script>\n</body>\n</html>\n";
  GByteArray *html = g_byte_array_sized_new (block_end + sizeof data);
  gsize filler = block_end - (sizeof start - 1) - (sizeof opener - 1);

  g_byte_array_append (html, (const guint8 *) start, sizeof start - 1);
  g_byte_array_set_size (html, html->len + filler);
  for (gsize i = 0; i < filler; i++)
    html->data[sizeof start - 1 + i] = (i % 64 == 63) ? '\n' : 'x';
  html->data[html->len - 1] = '\n';
  g_byte_array_append (html, (const guint8 *) opener, sizeof opener - 1);
  g_assert_cmpuint (html->len, ==, block_end);
  g_byte_array_append (html, (const guint8 *) data, sizeof data - 1);
  return html;
}

static char *
write_temp (const char *name,
            const guint8 *data,
            gsize size)
{
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  g_file_set_contents (path, (const char *) data, size, &error);
  g_assert_no_error (error);
  return path;
}

/* The systrace detector finds a data block whose opening tag ends at its
 * look-ahead, and not one a byte further: auto-src then says how far it
 * looked and which sources the user can name. */
static void
test_html_block_at_limit (void)
{
  g_autoptr (GByteArray) inside = NULL, past = NULL;
  g_autofree char *inside_path = NULL, *past_path = NULL, *format = NULL, *refused = NULL, *err = NULL;
  const char *pick;

  if (!have ("ftrace-src"))
    return;
  inside = html_with_block_at (HTML_LOOK_AHEAD);
  past = html_with_block_at (HTML_LOOK_AHEAD + 1);
  pick = trace_type_find_best (inside->data, inside->len, NULL, NULL);
  g_assert_cmpstr (pick, ==, "ftrace-src");
  g_assert_null (trace_type_find_best (past->data, past->len, NULL, NULL));
  /* the same bytes with less of them: what the detector is shown is the
   * whole question (no block in the first 64 KiB) */
  g_assert_null (trace_type_find_best (inside->data, TRACE_TYPE_FIND_LOOK_AHEAD, NULL, NULL));

  inside_path = write_temp ("tracepipe-detect-inside.html", inside->data, inside->len);
  past_path = write_temp ("tracepipe-detect-past.html", past->data, past->len);
  format = auto_detect (inside_path, &err);
  g_assert_null (err);
  g_assert_cmpstr (format, ==, "ftrace");
  refused = auto_detect (past_path, &err);
  g_assert_null (refused);
  g_assert_nonnull (strstr (err, ": no plugin recognises this format in its first 8 MiB; "
                                 "name the source that reads it: "));
  g_assert_nonnull (strstr (err, "ftrace-src"));
  g_unlink (inside_path);
  g_unlink (past_path);
}

/* A real systrace export: the first data block after 1.1 MiB of viewer
 * code. */
static void
test_html_full_export (void)
{
  g_autofree char *format = NULL, *err = NULL;

  if (!have ("ftrace-src"))
    return;
  format = auto_detect (FULL_EXPORT, &err);
  g_assert_null (err);
  g_assert_cmpstr (format, ==, "ftrace");
}

/* The legacy CPU profile of node's v8-profiler starts with `typeId`. */
static void
test_legacy_cpuprofile (void)
{
  g_autofree char *contents = NULL, *format = NULL, *err = NULL;
  gsize length = 0;

  if (!have ("arkts-src"))
    return;
  g_assert_true (g_file_get_contents (LEGACY_CPUPROFILE, &contents, &length, NULL));
  g_assert_cmpstr (trace_type_find_best ((const guint8 *) contents, length, NULL, NULL), ==, "arkts-src");
  format = auto_detect (LEGACY_CPUPROFILE, &err);
  g_assert_null (err);
  g_assert_cmpstr (format, ==, "arkts");
}

/* Nothing recognises it: the error names every source a detector picks,
 * without reading further than the first 64 KiB. */
static void
test_unrecognised_names_sources (void)
{
  guint8 noise[100 * 1024];
  g_autofree char *path = NULL, *format = NULL, *err = NULL;
  g_autoptr (GList) finders = trace_registry_get_type_finders ();

  for (gsize i = 0; i < sizeof noise; i++)
    noise[i] = (guint8) (i * 7 + 1);
  path = write_temp ("tracepipe-detect-noise.bin", noise, sizeof noise);
  format = auto_detect (path, &err);
  g_assert_null (format);
  g_assert_nonnull (strstr (err, "tracepipe-detect-noise.bin: no plugin recognises this format; "
                                 "name the source that reads it: "));
  for (GList *l = finders; l; l = l->next)
    {
      const char *element = strchr (l->data, ' ') + 1;

      g_assert_nonnull (strstr (err, element));
    }
  g_list_free_full (g_steal_pointer (&finders), g_free);
  g_unlink (path);
}

/* A detector registered without a look-ahead is shown the first 64 KiB
 * of a larger input, one registered with one is shown up to it. */
static gsize seen_plain, seen_full;

static guint
record_plain (const guint8 *data,
              gsize size,
              gpointer user_data)
{
  seen_plain = MAX (seen_plain, size);
  return 0;
}

static guint
record_full (const guint8 *data,
             gsize size,
             gpointer user_data)
{
  seen_full = MAX (seen_full, size);
  return 0;
}

static void
test_look_ahead_per_detector (void)
{
  g_autofree guint8 *big = g_malloc0 (512 * 1024);

  trace_type_find_register (NULL, "test-plain", "fakesrc", record_plain, NULL);
  trace_type_find_register_full (NULL, "test-full", "fakesrc", 256 * 1024, record_full, NULL);
  g_assert_null (trace_type_find_best (big, 512 * 1024, NULL, NULL));
  g_assert_cmpuint (seen_plain, ==, TRACE_TYPE_FIND_LOOK_AHEAD);
  g_assert_cmpuint (seen_full, ==, 256 * 1024);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/detect/html/block-at-limit", test_html_block_at_limit);
  g_test_add_func ("/detect/html/full-export", test_html_full_export);
  g_test_add_func ("/detect/arkts/legacy-cpuprofile", test_legacy_cpuprofile);
  g_test_add_func ("/detect/error/unrecognised-names-sources", test_unrecognised_names_sources);
  /* last: it registers detectors of its own */
  g_test_add_func ("/detect/registry/look-ahead-per-detector", test_look_ahead_per_detector);
  return g_test_run ();
}
