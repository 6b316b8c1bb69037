/* tracepipe tests - what trace-launch reports: sink drops, the --stats table in pipeline order
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
/* A slice end without an open slice, inside a complete slice that
 * perfetto-sink writes as a begin and an end (its duration is not a
 * whole number of microseconds), so that the end is dropped; and a
 * sample on a stack node never defined. */
static const char drops_json[] = "{\"traceEvents\":["
                                 "{\"pid\":1,\"tid\":1,\"ts\":1,\"ph\":\"X\",\"dur\":10.5,\"name\":\"a\"},"
                                 "{\"pid\":1,\"tid\":1,\"ts\":2,\"ph\":\"E\",\"name\":\"b\"},"
                                 "{\"pid\":1,\"tid\":2,\"ts\":3,\"ph\":\"P\",\"name\":\"s\",\"sf\":7}]}";

static gboolean
have_plugins (void)
{
  if (trace_element_factory_find ("auto-src") && trace_element_factory_find ("perfetto-sink") &&
      trace_element_factory_find ("json-sink") && trace_element_factory_find ("filter"))
    return TRUE;
  g_test_skip ("auto-src, filter, perfetto-sink or json-sink is not built");
  return FALSE;
}

/* The --stats rows, element name first, in the order printed. */
static GPtrArray *
stats_rows (const char *err)
{
  const char *table = strstr (err, "Statistics:\n");
  g_auto (GStrv) lines = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  g_assert_nonnull (table);
  lines = g_strsplit (table, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[1], "element "));
  for (guint i = 2; lines[i] && *lines[i] && !g_str_has_prefix (lines[i], "Execution ended"); i++)
    {
      GStrv words = g_strsplit_set (lines[i], " ", -1);
      GStrv packed = g_new0 (char *, g_strv_length (words) + 1);
      guint n = 0;

      for (guint j = 0; words[j]; j++)
        if (*words[j])
          packed[n++] = g_strdup (words[j]);
      g_strfreev (words);
      g_ptr_array_add (rows, packed);
    }
  return rows;
}

/* KEY=VALUE from the details of @element's row, or -1. */
static gint64
detail (GPtrArray *rows,
        const char *element,
        const char *key)
{
  g_autofree char *prefix = g_strdup_printf ("%s=", key);

  for (guint i = 0; i < rows->len; i++)
    {
      GStrv row = rows->pdata[i];

      if (strcmp (row[0], element) != 0)
        continue;
      for (guint j = 1; row[j]; j++)
        if (g_str_has_prefix (row[j], prefix))
          return g_ascii_strtoll (row[j] + strlen (prefix), NULL, 10);
    }
  return -1;
}

/* The one WARNING line from @element, without its prefix. */
static char *
warning_from (const char *err,
              const char *element)
{
  g_autofree char *prefix = g_strdup_printf ("WARNING: from /pipeline0/%s: ", element);
  const char *at = strstr (err, prefix);
  const char *eol;

  if (at == NULL)
    return NULL;
  g_assert_null (strstr (at + 1, prefix));
  at += strlen (prefix);
  eol = strchr (at, '\n');
  return g_strndup (at, eol ? eol - at : (gssize) strlen (at));
}

/* perfetto-sink dropped for two reasons: its WARNING names both with
 * their counts, which --stats repeats as dropped-* (today's code only
 * exported unmatched-end). */
static void
test_perfetto_drops (void)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "drops.pftrace", NULL);
  g_autofree char *in = g_build_filename (tools_test_scratch_dir (), "drops.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", out);
  g_autofree char *in_location = g_strdup_printf ("location=%s", in);
  g_autofree char *warning = NULL, *expected = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (Run) r = NULL;
  gint64 ends, nodes;

  if (!have_plugins ())
    return;
  g_assert_true (g_file_set_contents (in, drops_json, -1, NULL));
  r = RUN ("trace-launch", NULL, "--stats", "auto-src", in_location, "!", "perfetto-sink", location);
  g_assert_cmpint (r->status, ==, 0);
  rows = stats_rows (r->err);
  ends = detail (rows, "perfetto-sink0", "dropped-unmatched-end");
  nodes = detail (rows, "perfetto-sink0", "dropped-unknown-stack-node");
  g_assert_cmpint (ends, >, 0);
  g_assert_cmpint (nodes, >, 0);
  g_assert_cmpint (detail (rows, "perfetto-sink0", "dropped"), ==, ends + nodes);
  warning = warning_from (r->err, "perfetto-sink0");
  expected = g_strdup_printf ("%s: dropped %" G_GINT64_FORMAT " events: slice ends without an open slice: %" G_GINT64_FORMAT
                              "; samples on a stack node never defined: %" G_GINT64_FORMAT,
                              out, ends + nodes, ends, nodes);
  g_assert_cmpstr (warning, ==, expected);
  /* the warning comes before the table, with the other news of the run */
  g_assert_true (strstr (r->err, "WARNING: from /pipeline0/perfetto-sink0") < strstr (r->err, "Statistics:"));
  g_unlink (out);
  g_unlink (in);
}

/* json-sink's array form has no place for kernel events: it says how
 * many it dropped, as many as trace-info counts kernel events. */
static void
test_json_drops (void)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "drops.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", out);
  g_autofree char *warning = NULL, *expected = NULL;
  g_autoptr (Run) r = NULL, info = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *kinds;
  gint64 kernel;

  if (!have_plugins ())
    return;
  info = RUN ("trace-info", NULL, "--json", KERNEL);
  g_assert_true (json_parser_load_from_data (parser, info->out, -1, NULL));
  kinds = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "kinds");
  kernel = json_object_get_int_member (kinds, "sched-switch") + json_object_get_int_member (kinds, "sched-wakeup");
  r = RUN ("trace-launch", NULL, "-q", "auto-src", "location=" KERNEL, "!", "json-sink", "form=array", location);
  g_assert_cmpint (r->status, ==, 0);
  warning = warning_from (r->err, "json-sink0");
  expected = g_strdup_printf ("%s: dropped %" G_GINT64_FORMAT " events: kernel events the output has no place for "
                              "(ftrace=false, the JSON array form, a time before 0): %" G_GINT64_FORMAT,
                              out, kernel, kernel);
  g_assert_cmpstr (warning, ==, expected);
  g_unlink (out);
}

/* atrace's async S|/F| lines: a second S| of a family already open
 * (atrace ignores it) and an F| of none. Both sinks drop the same two
 * events, and say so in the same words and stats keys. */
static const char legacy_async_atrace[] =
    "# tracer: nop\n"
    "#\n"
    "          <...>-1234  (1234) [000] ...1   100.000000: tracing_mark_write: S|1234|job|7\n"
    "          <...>-1234  (1234) [000] ...1   100.000100: tracing_mark_write: S|1234|job|7\n"
    "          <...>-1234  (1234) [000] ...1   100.000200: tracing_mark_write: F|1234|job|7\n"
    "          <...>-1234  (1234) [000] ...1   100.000300: tracing_mark_write: F|1234|other|9\n";

static void
test_drops_same_words (void)
{
  g_autofree char *in = g_build_filename (tools_test_scratch_dir (), "legacy-async.txt", NULL);
  g_autofree char *pf = g_build_filename (tools_test_scratch_dir (), "legacy-async.pftrace", NULL);
  g_autofree char *js = g_build_filename (tools_test_scratch_dir (), "legacy-async.json", NULL);
  g_autofree char *in_location = g_strdup_printf ("location=%s", in);
  g_autofree char *pf_location = g_strdup_printf ("location=%s", pf);
  g_autofree char *js_location = g_strdup_printf ("location=%s", js);
  g_autofree char *pf_warning = NULL, *js_warning = NULL, *expected = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (Run) r = NULL;
  static const char *const sinks[] = { "perfetto-sink0", "json-sink0" };

  if (!have_plugins ())
    return;
  g_assert_true (g_file_set_contents (in, legacy_async_atrace, -1, NULL));
  r = RUN ("trace-launch", NULL, "--stats", "auto-src", in_location, "!", "tee", "name=t", "t.", "!", "perfetto-sink",
           pf_location, "t.", "!", "json-sink", js_location);
  g_assert_cmpint (r->status, ==, 0);
  pf_warning = warning_from (r->err, "perfetto-sink0");
  js_warning = warning_from (r->err, "json-sink0");
  expected = g_strdup_printf ("%s: dropped 2 events: async ends without an open async slice: 1; repeated begins of an "
                              "open unnestable async slice (atrace S|, Chrome S): 1",
                              pf);
  g_assert_cmpstr (pf_warning, ==, expected);
  g_assert_cmpstr (js_warning + strlen (js), ==, pf_warning + strlen (pf));
  rows = stats_rows (r->err);
  for (guint i = 0; i < G_N_ELEMENTS (sinks); i++)
    {
      g_assert_cmpint (detail (rows, sinks[i], "dropped-repeated-legacy-begin"), ==, 1);
      g_assert_cmpint (detail (rows, sinks[i], "dropped-unmatched-async-end"), ==, 1);
      g_assert_cmpint (detail (rows, sinks[i], "dropped"), ==, 2);
    }
  g_unlink (in);
  g_unlink (pf);
  g_unlink (js);
}

/* A sink that drops nothing says nothing. */
static void
test_no_drops_no_warning (void)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "nodrops.pftrace", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", out);
  g_autoptr (Run) r = NULL;

  if (!have_plugins ())
    return;
  r = RUN ("trace-launch", NULL, "-q", "auto-src", "location=" SLICES, "!", "perfetto-sink", location);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->err, ==, "");
  g_unlink (out);
}

/* perfetto-src says what it skipped and what it kept as it was, and
 * names only the counts that are not 0; a trace with neither makes it
 * say nothing. */
static void
test_perfetto_src_warning (void)
{
  g_autoptr (Run) skipped = NULL, unsupported = NULL, kept = NULL, quiet = NULL;

  if (!have_plugins () || trace_element_factory_find ("perfetto-src") == NULL)
    return;
  skipped = RUN ("trace-launch", NULL, "-q", "perfetto-src",
                 "location=" TEST_DATA_DIR "/perfetto/difftest_android_auto_multiuser.pftrace", "!", "fakesink");
  g_assert_cmpint (skipped->status, ==, 0);
  g_assert_cmpstr (skipped->err, ==,
                   "WARNING: from /pipeline0/perfetto-src0: " TEST_DATA_DIR
                   "/perfetto/difftest_android_auto_multiuser.pftrace: skipped 2 ftrace events of bundles without a "
                   "cpu\n");
  /* the events of unsupported kinds are named, by what they were */
  unsupported = RUN ("trace-launch", NULL, "-q", "perfetto-src",
                     "location=" TEST_DATA_DIR "/perfetto/difftest_track_event_state.pftrace", "!", "fakesink");
  g_assert_cmpint (unsupported->status, ==, 0);
  g_assert_cmpstr (unsupported->err, ==,
                   "WARNING: from /pipeline0/perfetto-src0: " TEST_DATA_DIR
                   "/perfetto/difftest_track_event_state.pftrace: skipped 3 events of unsupported kinds (3 TrackEvent "
                   "of an unknown type)\n");
  kept = RUN ("trace-launch", NULL, "-q", "perfetto-src", "location=" TEST_DATA_DIR "/perfetto/sdk_style.pftrace", "!",
              "fakesink");
  g_assert_cmpint (kept->status, ==, 0);
  g_assert_cmpstr (kept->err, ==,
                   "WARNING: from /pipeline0/perfetto-src0: " TEST_DATA_DIR
                   "/perfetto/sdk_style.pftrace: skipped 1 packets needing interned data their sequence did not "
                   "hold; kept 1 events on unknown tracks (as global ones)\n");
  quiet = RUN ("trace-launch", NULL, "-q", "perfetto-src",
               "location=" TEST_DATA_DIR "/perfetto/sdk_incremental_clock.pftrace", "!", "fakesink");
  g_assert_cmpint (quiet->status, ==, 0);
  g_assert_cmpstr (quiet->err, ==, "");
}

/* Described sink first and with a tee, the table still follows the
 * data: the source, then each branch to its end, in link order; and
 * the details are sorted by key. */
static void
test_stats_pipeline_order (void)
{
  g_autofree char *a = g_build_filename (tools_test_scratch_dir (), "order.pftrace", NULL);
  g_autofree char *b = g_build_filename (tools_test_scratch_dir (), "order.json", NULL);
  g_autofree char *la = g_strdup_printf ("location=%s", a);
  g_autofree char *lb = g_strdup_printf ("location=%s", b);
  const char *const want[] = { "auto-src0", "t", "queue0", "filter0", "p", "json-sink0" };
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (Run) r = NULL;

  if (!have_plugins ())
    return;
  r = RUN ("trace-launch", NULL, "--stats", "perfetto-sink", "name=p", la, "auto-src", "location=" KERNEL, "!", "tee",
           "name=t", "!", "queue", "!", "filter", "tid=main", "!", "p.", "t.", "!", "json-sink", lb);
  g_assert_cmpint (r->status, ==, 0);
  rows = stats_rows (r->err);
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < rows->len; i++)
    {
      GStrv row = rows->pdata[i];
      g_autofree char *prev = NULL;

      g_assert_cmpstr (row[0], ==, want[i]);
      for (guint j = 5; row[j]; j++)
        {
          const char *eq = strchr (row[j], '=');
          char *key;

          g_assert_nonnull (eq);
          key = g_strndup (row[j], eq - row[j]);
          if (prev)
            g_assert_cmpint (strcmp (prev, key), <, 0);
          g_free (prev);
          prev = key;
        }
    }
  g_unlink (a), g_unlink (b);
}

void
add_stats_tests (void)
{
  g_test_add_func ("/tools/launch/sink-drops/perfetto", test_perfetto_drops);
  g_test_add_func ("/tools/launch/sink-drops/json", test_json_drops);
  g_test_add_func ("/tools/launch/sink-drops/none", test_no_drops_no_warning);
  g_test_add_func ("/tools/launch/sink-drops/same-words", test_drops_same_words);
  g_test_add_func ("/tools/launch/stats/pipeline-order", test_stats_pipeline_order);
  g_test_add_func ("/tools/launch/perfetto-src-warning", test_perfetto_src_warning);
}
