/* tracepipe tests - trace-convert writes ftrace text: .txt, .systrace, --to systrace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

#define CHROME TEST_DATA_DIR "/json/catapult_simple_trace.json"
#define ATRACE TEST_DATA_DIR "/ftrace/catapult_atrace_data.txt"

static gboolean
have_plugins (void)
{
  /* ftrace-sink is in the ftrace plugin */
  if (trace_element_factory_find ("ftrace-src") && trace_element_factory_find ("json-src"))
    return TRUE;
  g_test_skip ("the ftrace or json plugin is not built");
  return FALSE;
}

static char *
read_file (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static guint
count (const char *text,
       const char *needle)
{
  guint n = 0;

  for (const char *p = text; (p = strstr (p, needle)) != NULL; p += strlen (needle))
    n++;
  return n;
}

/* A Chrome JSON trace to .txt and .systrace: the same ftrace text, with
 * its slices, instants and counters as atrace markers and its threads
 * named; what atrace cannot carry is said on stderr, exit 0. */
static void
test_json_to_text (void)
{
  g_autofree char *txt = g_build_filename (tools_test_scratch_dir (), "simple.txt", NULL);
  g_autofree char *systrace = g_build_filename (tools_test_scratch_dir (), "simple.systrace", NULL);
  g_autoptr (Run) r1 = NULL, r2 = NULL;
  g_autofree char *t1 = NULL, *t2 = NULL;

  if (!have_plugins ())
    return;
  r1 = RUN ("trace-convert", NULL, CHROME, txt);
  r2 = RUN ("trace-convert", NULL, CHROME, systrace);
  g_assert_cmpint (r1->status, ==, 0);
  g_assert_cmpint (r2->status, ==, 0);
  g_assert_cmpstr (r1->out, ==, "");
  g_assert_nonnull (strstr (r1->err, "1 events written without their args (atrace markers carry names only)"));
  g_assert_nonnull (strstr (r1->err, "dropped 8 events: "));
  g_assert_nonnull (strstr (r1->err, "instants of a process or of the whole trace (atrace instants are a thread's): 1"));
  g_assert_nonnull (strstr (r1->err, "CPU profile samples and their stack nodes: 6"));
  t1 = read_file (txt), t2 = read_file (systrace);
  g_assert_cmpstr (t1, ==, t2);
  g_assert_true (g_str_has_prefix (t1, "# tracer: nop\n"));
  g_assert_nonnull (strstr (t1, "(22630) [000] .... 0.000818: tracing_mark_write: B|22630|X1\n"));
  g_assert_nonnull (strstr (t1, ": tracing_mark_write: I|22630|ThreadLevelI1\n"));
  g_assert_nonnull (strstr (t1, "(-----) [000] .... 0.000826: tracing_mark_write: C|22630|counter value|10|PERF\n"));
  /* the threads' names come after their events in the file */
  g_assert_nonnull (strstr (t1, "threadA-22630 (22630) [000] .... 0.000870: task_rename: pid=22630 "));
  /* a thread without events is named at the first line */
  g_assert_nonnull (strstr (t1, "threadC-22632 (22630) [000] .... 0.000818: task_rename: pid=22632 "));
  g_assert_cmpuint (count (t1, "tracing_mark_write: B|"), ==, count (t1, "tracing_mark_write: E|"));
  g_unlink (txt), g_unlink (systrace);
}

/* --to systrace with OUT -: the bytes of the file form on stdout. */
static void
test_to_systrace_stdout (void)
{
  g_autofree char *txt = g_build_filename (tools_test_scratch_dir (), "stdout.txt", NULL);
  g_autoptr (Run) file = NULL, out = NULL, bad = NULL;
  g_autofree char *text = NULL;

  if (!have_plugins ())
    return;
  file = RUN ("trace-convert", NULL, ATRACE, txt);
  out = RUN ("trace-convert", NULL, ATRACE, "-", "--to", "systrace");
  g_assert_cmpint (file->status, ==, 0);
  g_assert_cmpint (out->status, ==, 0);
  g_assert_cmpstr (out->err, ==, "");
  text = read_file (txt);
  g_assert_cmpstr (out->out, ==, text);
  /* every sched_switch of the capture, as its line */
  g_assert_cmpuint (count (text, ": sched_switch: prev_comm="), ==, 72);
  g_assert_nonnull (strstr (text, "atrace-14446 (-----) [000] .... 1212.465062: sched_switch: prev_comm=atrace "
                                  "prev_pid=14446 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 "
                                  "next_prio=120\n"));
  bad = RUN ("trace-convert", NULL, ATRACE, "-", "--to", "ftrace");
  g_assert_cmpint (bad->status, ==, 2);
  g_assert_cmpstr (bad->err, ==, "trace-convert: --to ftrace: unknown format (perfetto, json or systrace)\n");
  g_assert_cmpstr (bad->out, ==, "");
  g_unlink (txt);
}

/* The text written reads back: ftrace-src finds the events in it. */
static void
test_text_reads_back (void)
{
  g_autofree char *txt = g_build_filename (tools_test_scratch_dir (), "back.txt", NULL);
  g_autofree char *json = g_build_filename (tools_test_scratch_dir (), "back.json", NULL);
  g_autoptr (Run) to_text = NULL, back = NULL;
  g_autofree char *text = NULL;

  if (!have_plugins ())
    return;
  to_text = RUN ("trace-convert", NULL, CHROME, txt);
  back = RUN ("trace-convert", NULL, "-v", txt, json);
  g_assert_cmpint (to_text->status, ==, 0);
  g_assert_cmpint (back->status, ==, 0);
  g_assert_nonnull (strstr (back->err, "Pipeline: auto-src location="));
  g_assert_null (strstr (back->err, "WARNING"));
  text = read_file (json);
  g_assert_nonnull (strstr (text, "\"name\":\"X same ts and dur as X1\""));
  g_unlink (txt), g_unlink (json);
}

/* Disorder beyond sort-memory: the lines are written late, exit 0, one
 * WARNING that says so and names the bound. */
static void
test_sort_memory_exceeded (void)
{
  g_autofree char *txt = g_build_filename (tools_test_scratch_dir (), "late.txt", NULL);
  g_autofree char *sink = g_strdup_printf ("location=%s", txt);
  g_autoptr (Run) tight = NULL, roomy = NULL;

  if (!have_plugins ())
    return;
  tight = RUN ("trace-launch", NULL, "-q", "json-src", "location=" TEST_DATA_DIR "/json/speedscope_out-of-order.json",
               "!", "ftrace-sink", "sort-memory=1", sink);
  g_assert_cmpint (tight->status, ==, 0);
  g_assert_nonnull (strstr (tight->err, "late.txt: 3 lines written out of time order: the input's disorder exceeded "
                                        "sort-memory=1 (trace_processor sorts them; other readers may not)"));
  roomy = RUN ("trace-launch", NULL, "-q", "json-src", "location=" TEST_DATA_DIR "/json/speedscope_out-of-order.json",
               "!", "ftrace-sink", sink);
  g_assert_cmpint (roomy->status, ==, 0);
  g_assert_cmpstr (roomy->err, ==, "");
  g_unlink (txt);
}

/* The lines held for sorting stay within sort-memory (and the one line
 * that pushes the earliest out), whatever the input holds: 900 KB of
 * lines wait for their turn with the default, 64 KiB with that bound. */
static void
test_sort_memory_bounds_what_is_held (void)
{
  g_autofree char *txt = g_build_filename (tools_test_scratch_dir (), "bound.txt", NULL);
  g_autofree char *sink = g_strdup_printf ("location=%s", txt);
  g_autoptr (Run) r = NULL;
  const char *peak;

  if (!have_plugins ())
    return;
  r = RUN ("trace-launch", NULL, "-q", "--stats", "json-src",
           "location=" TEST_DATA_DIR "/json/catapult_x_event_trace.json", "!", "ftrace-sink", "sort-memory=65536", sink);
  g_assert_cmpint (r->status, ==, 0);
  peak = strstr (r->err, "sort-peak-bytes=");
  g_assert_nonnull (peak);
  g_assert_cmpint (g_ascii_strtoll (peak + strlen ("sort-peak-bytes="), NULL, 10), <=, 65536 + 4096);
  g_assert_cmpint (g_ascii_strtoll (peak + strlen ("sort-peak-bytes="), NULL, 10), >, 60000);
  g_unlink (txt);
}

/* ftrace text has no flows: those bound to thread slices and to async
 * begins are counted under the reason every sink shares, each once (a
 * step too); the async instants, dropped whole, count as events. */
static void
test_bound_flows_counted (void)
{
  g_autofree char *txt = g_build_filename (tools_test_scratch_dir (), "flows.txt", NULL);
  g_autofree char *sink = g_strdup_printf ("location=%s", txt);
  g_autoptr (Run) r = NULL;

  if (!have_plugins ())
    return;
  r = RUN ("trace-launch", NULL, "-q", "--stats", "json-src",
           "location=" TEST_DATA_DIR "/../fidelity/cases/async-flow-v2-on-b-and-n.json", "!", "ftrace-sink", sink);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->err, "dropped-flows=6"));
  g_assert_nonnull (strstr (r->err, "dropped-async-steps=2"));
  g_unlink (txt);
}

void
add_systrace_tests (void)
{
  g_test_add_func ("/tools/systrace/json-to-text", test_json_to_text);
  g_test_add_func ("/tools/systrace/to-systrace-stdout", test_to_systrace_stdout);
  g_test_add_func ("/tools/systrace/text-reads-back", test_text_reads_back);
  g_test_add_func ("/tools/systrace/sort-memory-exceeded", test_sort_memory_exceeded);
  g_test_add_func ("/tools/systrace/sort-memory-bounds-what-is-held", test_sort_memory_bounds_what_is_held);
  g_test_add_func ("/tools/systrace/bound-flows-counted", test_bound_flows_counted);
}
