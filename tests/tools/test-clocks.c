/* tracepipe tests - what the tools say about clocks and timelines
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

/* A kernel capture on boot time, its events 1212.465 s to 1213.465 s. */
#define KERNEL TEST_DATA_DIR "/ftrace/catapult_atrace_data.txt"

/* A Chrome trace that does not say its clock (no "clock-domain"), its
 * events 1 ms to 1.05 ms. */
static const char unknown_clock_json[] = "{\"traceEvents\":["
                                         "{\"pid\":1,\"tid\":2,\"ts\":1000,\"ph\":\"X\",\"dur\":50,\"name\":\"a\"},"
                                         "{\"pid\":1,\"tid\":2,\"ts\":1010,\"ph\":\"X\",\"dur\":5,\"name\":\"b\"}]}";

static gboolean
have_plugins (void)
{
  if (trace_element_factory_find ("json-src") && trace_element_factory_find ("perfetto-sink") &&
      trace_element_factory_find ("perfetto-src") && trace_element_factory_find ("ftrace-src") &&
      trace_element_factory_find ("clock-sync"))
    return TRUE;
  g_test_skip ("json-src, perfetto-src, perfetto-sink, ftrace-src or clock-sync is not built");
  return FALSE;
}

static char *
write_scratch (const char *name,
               const char *contents)
{
  char *path = g_build_filename (tools_test_scratch_dir (), name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

/* A JSON trace of no known clock keeps "unknown" through a Perfetto
 * file: trace-info says so, and clock-sync does not take it for boot
 * time (which would put it on the kernel capture's clock unasked). */
static void
test_unknown_clock_through_perfetto (void)
{
  g_autofree char *json = NULL;
  g_autofree char *pftrace = NULL;
  g_autofree char *src = NULL;
  g_autoptr (Run) convert = NULL, info = NULL, merge = NULL;

  if (!have_plugins ())
    return;
  json = write_scratch ("unknown-clock.json", unknown_clock_json);
  pftrace = g_build_filename (tools_test_scratch_dir (), "unknown-clock.pftrace", NULL);
  convert = RUN ("trace-convert", NULL, "-q", json, pftrace);
  g_assert_cmpint (convert->status, ==, 0);
  g_assert_cmpstr (convert->err, ==, "");

  info = RUN ("trace-info", NULL, pftrace);
  g_assert_cmpint (info->status, ==, 0);
  g_assert_nonnull (strstr (info->out, "\n  clock         unknown (timestamp_clock_id)\n"));

  src = g_strdup_printf ("location=%s", pftrace);
  merge = RUN ("trace-launch", NULL, "-q", "clock-sync", "name=m", "!", "fakesink", "ftrace-src", "location=" KERNEL,
               "!", "m.", "perfetto-src", src, "!", "m.");
  g_assert_cmpint (merge->status, ==, 0);
  g_assert_nonnull (strstr (merge->err, "WARNING: from /pipeline0/m: sink_1 (perfetto, clock unknown): nothing ties "
                                        "it to the boottime clock; passed through unshifted"));
}

static guint
count_of (const char *haystack,
          const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* Two captures that never meet in time, merged: one WARNING at the end
 * naming both with their spans and the gap, from funnel (which does not
 * move events) and from clock-sync (nothing ties the JSON's clock). The
 * same capture twice says nothing. */
static void
test_inputs_apart_warned (void)
{
  g_autofree char *json = NULL;
  g_autofree char *src = NULL;
  g_autofree char *expected = NULL;
  g_autoptr (Run) funnel = NULL, sync = NULL, same = NULL;

  if (!have_plugins ())
    return;
  json = write_scratch ("apart.json", unknown_clock_json);
  src = g_strdup_printf ("location=%s", json);
  expected = g_strdup_printf ("WARNING: from /pipeline0/m: the inputs do not overlap in time: sink_1 (%s) "
                              "0.001000000 s to 0.001050000 s, sink_0 (" KERNEL ") 1212.465062000 s to "
                              "1213.465171000 s; a gap of 1212.464012000 s between 0.001050000 s and "
                              "1212.465062000 s (",
                              json);

  funnel = RUN ("trace-launch", NULL, "-q", "funnel", "name=m", "!", "fakesink", "ftrace-src", "location=" KERNEL, "!",
                "m.", "json-src", src, "!", "m.");
  g_assert_cmpint (funnel->status, ==, 0);
  g_assert_cmpuint (count_of (funnel->err, "do not overlap"), ==, 1);
  g_assert_nonnull (strstr (funnel->err, expected));
  g_assert_nonnull (strstr (funnel->err, "(funnel does not move events: clock-sync puts inputs of different clocks "
                                         "on one timeline)\n"));

  sync = RUN ("trace-launch", NULL, "-q", "clock-sync", "name=m", "!", "fakesink", "ftrace-src", "location=" KERNEL,
              "!", "m.", "json-src", src, "!", "m.");
  g_assert_cmpint (sync->status, ==, 0);
  g_assert_cmpuint (count_of (sync->err, "do not overlap"), ==, 1);
  g_assert_nonnull (strstr (sync->err, expected));

  same = RUN ("trace-launch", NULL, "-q", "funnel", "name=m", "!", "fakesink", "ftrace-src", "location=" KERNEL, "!",
              "m.", "ftrace-src", "location=" KERNEL, "!", "m.");
  g_assert_cmpint (same->status, ==, 0);
  g_assert_cmpstr (same->err, ==, "");
}

void
add_clocks_tests (void)
{
  g_test_add_func ("/tools/clocks/inputs-apart-warned", test_inputs_apart_warned);
  g_test_add_func ("/tools/clocks/unknown-clock-through-perfetto", test_unknown_clock_through_perfetto);
}
