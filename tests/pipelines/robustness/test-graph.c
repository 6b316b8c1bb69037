/* tracepipe tests - the shape of the pipeline: cycles, long chains, many pads
 *
 * A loop of links is a description error (exit
 * 2) naming its elements, never a crash or a hang. Descriptions of
 * thousands of elements or pads build and run in time linear in their
 * size: the /robustness/scale/ tests run under meson's default timeout
 * (the separate `robustness-scale` test), which the former cubic costs
 * (23 s for 2 000 elements, 43 s for 3 000 pads) could not meet; the
 * figures are in bench/run's `scale` rows, not measured here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>

#include "robustness.h"

#define CHAIN_LENGTH 10000
#define MANY_PADS 3000

typedef struct
{
  const char *description;
  const char *cycle; /* the loop as the message gives it */
  const char *link;  /* the link that would close it */
} CycleCase;

static const CycleCase cycle_cases[] = {
  { "fakesrc ! funnel name=f ! f.", "(f ! f)", "f:src to f:sink_1" },
  { "fakesrc ! funnel name=f ! tee name=t t. ! f. t. ! fakesink", "(f ! t ! f)", "t:src_0 to f:sink_1" },
  { "fakesrc ! funnel name=f ! queue ! clock-sync ! f.", "(f ! queue0 ! clock-sync0 ! f)", "clock-sync0:src to f:sink_1" },
  { "identity name=a ! a.", "(a ! a)", "a:src to a:sink" },
};

/* Exit 2 at once (never SIGSEGV, or a hang that ignores Ctrl-C), the
 * message names the loop, nothing runs. */
static void
test_cycle (gconstpointer data)
{
  const CycleCase *c = data;
  g_autofree char *expected = g_strdup_printf ("cannot link %s: it would make a cycle %s; "
                                               "events must flow one way, from the sources to the sinks",
                                               c->link, c->cycle);
  g_autoptr (GBytes) input = g_bytes_new_static (c->description, strlen (c->description));
  g_autoptr (RbResult) r = rb_run (RB_SETUP_NONE, input, (const char *const[]){ "-f", "-", NULL });

  g_assert_cmpint (r->status, ==, 2);
  g_assert_true (g_str_has_prefix (r->err, "ERROR: invalid pipeline description: -:1:"));
  g_assert_nonnull (strstr (r->err, expected));
  g_assert_null (strstr (r->err, "PLAYING"));
}

/* A description file written at test time. */
static char *
write_description (const char *dir,
                   GString *text)
{
  char *path = g_build_filename (dir, "pipeline.launch", NULL);

  rb_write_file (path, text->str, text->len);
  return path;
}

/* fakesrc ! identity × 10 000 ! json-sink: builds, runs, and every
 * element passes on every event (identity9999 is the last one). */
static void
test_long_chain (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autoptr (GString) text = g_string_new ("fakesrc num-events=1000 kinds=slices");
  g_autofree char *file = NULL;
  g_autoptr (RbResult) r = NULL;
  guint64 produced;

  for (guint i = 0; i < CHAIN_LENGTH; i++)
    g_string_append (text, " ! identity");
  g_string_append_printf (text, " ! json-sink location=\"%s\"\n", out);
  file = write_description (dir, text);
  r = RB_RUN ("-q", "--stats", "-f", file);
  g_assert_cmpint (r->status, ==, 0);
  rb_assert_messages (r->err, "");
  produced = rb_stat (r->err, "fakesrc0", "events-out");
  g_assert_cmpuint (produced, >, 0);
  g_assert_cmpuint (rb_stat (r->err, "identity0", "events-in"), ==, produced);
  g_assert_cmpuint (rb_stat (r->err, "identity9999", "events-out"), ==, produced);
  g_assert_cmpuint (rb_stat (r->err, "json-sink0", "events-in"), ==, produced);
  g_assert_cmpuint (rb_json_trace_events (out), ==, rb_stat (r->err, "json-sink0", "json-events"));
  rb_scratch_cleanup (dir);
}

/* 3 000 sources into one funnel (3 000 request pads): every event of
 * every source reaches the sink. */
static void
test_many_funnel_pads (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autoptr (GString) text = g_string_new ("funnel name=f ! fakesink\n");
  g_autofree char *file = NULL;
  g_autoptr (RbResult) r = NULL;
  g_autofree char *last = g_strdup_printf ("fakesrc%u", MANY_PADS - 1);
  guint64 produced;

  for (guint i = 0; i < MANY_PADS; i++)
    g_string_append (text, "fakesrc num-events=20 ! f.\n");
  file = write_description (dir, text);
  r = RB_RUN ("-q", "--stats", "-f", file);
  g_assert_cmpint (r->status, ==, 0);
  rb_assert_messages (r->err, "");
  produced = rb_stat (r->err, last, "events-out");
  g_assert_cmpuint (produced, >, 0);
  g_assert_cmpuint (rb_stat (r->err, "fakesink0", "events-in"), ==, produced * MANY_PADS);
  rb_scratch_cleanup (dir);
}

/* One source into 3 000 tee branches: each branch gets everything. */
static void
test_many_tee_pads (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autoptr (GString) text = g_string_new ("fakesrc num-events=100 ! tee name=t\n");
  g_autofree char *file = NULL;
  g_autoptr (RbResult) r = NULL;
  g_autofree char *last = g_strdup_printf ("fakesink%u", MANY_PADS - 1);
  guint64 produced;

  for (guint i = 0; i < MANY_PADS; i++)
    g_string_append (text, "t. ! fakesink\n");
  file = write_description (dir, text);
  r = RB_RUN ("-q", "--stats", "-f", file);
  g_assert_cmpint (r->status, ==, 0);
  produced = rb_stat (r->err, "fakesrc0", "events-out");
  g_assert_cmpuint (produced, >, 0);
  g_assert_cmpuint (rb_stat (r->err, "fakesink0", "events-in"), ==, produced);
  g_assert_cmpuint (rb_stat (r->err, last, "events-in"), ==, produced);
  rb_scratch_cleanup (dir);
}

/* Ctrl-C in a 10 000-element pipeline: the first one finishes the
 * output (exit 130) as in a short one. */
static void
test_long_chain_interrupt (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autoptr (GString) text = g_string_new ("fakesrc num-events=-1 kinds=slices");
  g_autofree char *file = NULL;
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;
  RbChild *child;

  for (guint i = 0; i < CHAIN_LENGTH; i++)
    g_string_append (text, " ! identity");
  g_string_append_printf (text, " ! json-sink location=\"%s\"\n", out);
  file = write_description (dir, text);
  child = rb_start (200, (const char *const[]){ "--stats", "-f", file, NULL });
  rb_child_signal (child, SIGINT);
  r = rb_child_finish (child);
  g_assert_cmpint (r->status, ==, 130);
  g_assert_nonnull (strstr (r->err, "Interrupt: stopping the sources and finishing the outputs"));
  g_assert_cmpuint (rb_stat (r->err, "json-sink0", "events-in"), ==, rb_stat (r->err, "fakesrc0", "events-out"));
  g_assert_cmpuint (rb_json_trace_events (out), ==, rb_stat (r->err, "json-sink0", "json-events"));
  g_remove (file);
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "out.json");
  rb_scratch_cleanup (dir);
}

/* A tee without branches behind a queue: the queue's thread got the tee's
 * NOT_LINKED, told upstream ERROR, and nobody posted one: the run never
 * ended (found by the launch-graph fuzz target). Now the queue says why. */
static void
test_queue_into_branchless_tee (void)
{
  g_autoptr (RbResult) r = RB_RUN ("-q", "fakesrc", "num-events=8", "!", "queue", "!", "tee");

  g_assert_cmpint (r->status, ==, 1);
  rb_assert_messages (r->err, "ERROR: from /pipeline0/queue0: streaming stopped: the stream after the queue reaches an "
                              "element with nowhere to send it (not linked)\n");
}

/* A funnel or an aggregator that nothing feeds waited for ever, and
 * SIGTERM could not end it (no source to stop): the merge of no input is
 * empty, so its output ends as it starts, with a WARNING. */
static void
test_merge_without_input (gconstpointer data)
{
  const char *element = data;
  g_autoptr (RbResult) r = RB_RUN (element, "!", "fakesink");
  g_autofree char *expected = g_strdup_printf ("WARNING: from /pipeline0/%s0: %s0 has no input: its output ends at once",
                                               element, element);

  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->err, expected));
  g_assert_nonnull (strstr (r->err, "Got EOS from /pipeline0."));
}

/* A tee without a branch behind a tee whose other branch goes on: data
 * to it goes nowhere (NOT_LINKED, the first tee carries on), and at the
 * end the pipeline waited for ever for the branchless tee, which the bin
 * counts among its sinks (found by the launch-graph fuzz target). */
static void
test_branchless_tee_behind_a_tee (void)
{
  g_autoptr (RbResult) r = RB_RUN ("fakesrc", "num-events=8", "!", "tee", "name=t", "t.", "!", "fakesink", "t.", "!",
                                   "funnel", "!", "tee");

  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->err, "Got EOS from /pipeline0."));
}

void
rb_add_graph_tests (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cycle_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/robustness/cycle/%u", i);

      g_test_add_data_func (path, &cycle_cases[i], test_cycle);
    }
  g_test_add_func ("/robustness/graph/queue-into-branchless-tee", test_queue_into_branchless_tee);
  g_test_add_data_func ("/robustness/graph/funnel-without-input", "funnel", test_merge_without_input);
  g_test_add_func ("/robustness/graph/branchless-tee-behind-a-tee", test_branchless_tee_behind_a_tee);
  g_test_add_data_func ("/robustness/graph/clock-sync-without-input", "clock-sync", test_merge_without_input);
  g_test_add_func ("/robustness/scale/chain-10000", test_long_chain);
  g_test_add_func ("/robustness/scale/funnel-3000-pads", test_many_funnel_pads);
  g_test_add_func ("/robustness/scale/tee-3000-pads", test_many_tee_pads);
  g_test_add_func ("/robustness/scale/chain-10000-interrupt", test_long_chain_interrupt);
}
