/* tracecmd-src as an element (TraceHarness): the events of each
 * trace.dat fixture, the stream's format and clock, buffer= choosing the
 * buffers. Skipped when tracecmd-src is not built (libtracecmd not
 * found); the events themselves are checked against the kernel's text in
 * tests/unit/tracecmd.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <trace/check/traceharness.h>
#include <trace/trace.h>

static gboolean
have_tracecmd_src (void)
{
  if (trace_element_factory_find ("tracecmd-src") != NULL)
    return TRUE;
  g_test_skip ("tracecmd-src is not built (libtracecmd not found)");
  return FALSE;
}

static TraceHarness *
play (const char *file,
      const char *buffer)
{
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "tracecmd", file, NULL);
  g_autofree char *description = g_strdup_printf ("tracecmd-src location=\"%s\" buffer=%s", path, buffer);
  TraceHarness *h = trace_harness_new_parse (description);

  g_assert_true (trace_harness_play (h));
  return h;
}

static guint
count_kind (TraceBatch *b,
            TraceEventKind kind)
{
  guint n = 0;

  for (guint i = 0; i < b->n_events; i++)
    n += b->events[i].kind == kind;
  return n;
}

static void
test_fixture (gconstpointer data)
{
  g_autoptr (TraceHarness) h = NULL;
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (TraceMessage) warning = NULL;
  const TraceStreamInfo *info;

  if (!have_tracecmd_src ())
    return;
  h = play (data, "all");
  g_assert_true (trace_harness_run_until_eos (h, 60000));
  all = trace_harness_take_all (h);
  /* 1 169 records: with the thread names they teach and the markers'
   * events, as trace-info counts them */
  g_assert_cmpuint (all->n_events, ==, 1294);
  g_assert_cmpuint (count_kind (all, TRACE_EVENT_SCHED_SWITCH), ==, 322);
  g_assert_cmpuint (count_kind (all, TRACE_EVENT_SLICE_BEGIN), ==, 32);
  g_assert_cmpuint (count_kind (all, TRACE_EVENT_ASYNC_BEGIN), ==, 16);
  g_assert_cmpuint (count_kind (all, TRACE_EVENT_COUNTER), ==, 16);
  for (guint i = 1; i < all->n_events; i++)
    g_assert_cmpint (all->events[i - 1].ts, <=, all->events[i].ts);
  info = trace_harness_get_stream_info (h);
  g_assert_cmpstr (info->format, ==, "trace.dat");
  g_assert_cmpint (info->clock_domain, ==, TRACE_CLOCK_FTRACE_LOCAL);
  /* everything was used: no summary */
  warning = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_null (warning);
}

/* The top-level buffer of the fixtures is empty: nothing, no error. */
static void
test_top_buffer (void)
{
  g_autoptr (TraceHarness) h = NULL;
  g_autoptr (TraceBatch) all = NULL;

  if (!have_tracecmd_src ())
    return;
  h = play ("capture.v7.dat", "top");
  g_assert_true (trace_harness_run_until_eos (h, 60000));
  all = trace_harness_take_all (h);
  g_assert_true (all == NULL || all->n_events == 0);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_data_func ("/tracecmd-src/fixture-v7", "capture.v7.dat", test_fixture);
  g_test_add_data_func ("/tracecmd-src/fixture-v6", "capture.v6.dat", test_fixture);
  g_test_add_func ("/tracecmd-src/top-buffer", test_top_buffer);
  return g_test_run ();
}
