/* Element tests of clock-sync through the harness: per kind of marker,
 * per pad property, conflicts, inputs nothing ties, the look-ahead bound,
 * memory bounds, EOS, and a launch line. Expected timestamps are the
 * input's plus the offset worked out by hand from the marker values. */
#include "clocksync-test-util.h"

static gint64
lookup_int64 (GVariant *details,
              const char *key)
{
  gint64 v = G_MININT64;

  g_assert_true (g_variant_lookup (details, key, "x", &v));
  return v;
}

static void
assert_string (GVariant *details,
               const char *key,
               const char *expected)
{
  const char *v = NULL;

  g_assert_true (g_variant_lookup (details, key, "&s", &v));
  g_assert_cmpstr (v, ==, expected);
}

static gboolean
lookup_bool (GVariant *details,
             const char *key)
{
  gboolean v = FALSE;

  g_assert_true (g_variant_lookup (details, key, "b", &v));
  return v;
}

static TraceBatch *
new_batch (TraceHarness *h)
{
  return trace_harness_new_batch (h);
}

/* What test_sync_id_pair's element said: on the bus, and in the output's
 * stream-start. */
static void
check_sync_id_messages (TraceHarness *h,
                        gint64 offset)
{
  g_autoptr (GPtrArray) msgs = cs_collect (h);
  g_autoptr (GVariant) d1 = NULL;
  g_autoptr (GPtrArray) infos = NULL, warnings = NULL;
  const TraceStreamInfo *info;

  d1 = cs_decision (msgs, "sink_1");
  g_assert_nonnull (d1);
  g_assert_cmpint (lookup_int64 (d1, "offset"), ==, offset);
  g_assert_cmpint (lookup_int64 (d1, "precision"), ==, US (101));
  assert_string (d1, "source", "sync-id");
  assert_string (d1, "domain", "unknown");
  assert_string (d1, "target", "boottime");
  assert_string (d1, "format", "chrome-json");
  g_assert_true (lookup_bool (d1, "synced"));
  g_assert_false (lookup_bool (d1, "guess"));

  info = trace_harness_get_stream_info (h);
  g_assert_cmpint (info->clock_domain, ==, TRACE_CLOCK_BOOTTIME);
  g_assert_cmpstr (info->format, ==, "merged");
  g_assert_cmpstr (info->clock_source, ==,
                   "clock-sync: sink_0 boottime +0 ns (stream-start); sink_1 unknown +94.99985 s (sync-id)");
  infos = cs_texts (msgs, TRACE_MESSAGE_INFO);
  g_assert_true (cs_texts_contain (infos,
                                   "sink_1 (chrome-json, clock unknown): shifted by +94.99985 s onto the boottime "
                                   "clock, from sync-id, precision 101 us: sync id \"abc\" (sink_0 at "
                                   "100.000000000 s, sink_1 at 5.000200000 s), then the stream-start of sink_0 "
                                   "(boottime)"));
  g_assert_true (cs_texts_contain (infos,
                                   "sink_0 (ftrace, clock boottime): not shifted: on the boottime clock from "
                                   "stream-start, precision 0 ns: the stream-start of sink_0 (boottime)"));
  warnings = cs_texts (msgs, TRACE_MESSAGE_WARNING);
  g_assert_cmpuint (warnings->len, ==, 0);
}

/* An ftrace `name=` marker and a Chrome `c` event with the same id: the
 * Chrome event was issued at 5.0001 s and recorded at 5.0002 s, so the
 * ftrace marker's 100 s is 5.00015 s on the JSON clock. The `c` event is
 * in the JSON's second batch: markers in the look-ahead apply to the
 * whole input, its first batch included. */
static void
test_sync_id_pair (void)
{
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceBatch *ftrace = new_batch (h), *json1 = new_batch (h), *json2 = new_batch (h);
  const gint64 offset = S (100) - (S (5) + US (150));
  g_autoptr (TraceBatch) all = NULL;
  const TraceEvent *ev;

  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "chrome-json", TRACE_CLOCK_UNKNOWN);
  cs_add_sync (ftrace, "abc", S (100), 0);
  cs_add_slice (ftrace, 10, S (100) + MS (500), MS (1));
  cs_add_process_name (json1, 20, "app");
  cs_add_slice (json1, 20, S (5) + MS (100), MS (2));
  cs_add_sync (json2, "abc", S (5) + US (200), S (5) + US (100));
  trace_harness_push_to (h, 0, ftrace);
  trace_harness_push_to (h, 1, json1);
  trace_harness_push_to (h, 1, json2);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  g_assert_true (trace_harness_got_eos (h));

  all = trace_harness_take_all (h);
  g_assert_cmpuint (all->n_events, ==, 5);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 10, 0)->ts, ==, S (100) + MS (500));
  ev = cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0);
  g_assert_cmpint (ev->ts, ==, S (5) + MS (100) + offset);
  g_assert_cmpint (ev->u.slice.dur, ==, MS (2));
  /* Names carry no time: they stay at 0. */
  g_assert_cmpint (cs_find (all, TRACE_EVENT_PROCESS_NAME, 20, 0)->ts, ==, 0);
  /* The Chrome event moved with its input, issue_ts too. */
  ev = cs_find (all, TRACE_EVENT_CLOCK_MARKER, TRACE_ID_UNKNOWN, 1);
  g_assert_cmpint (ev->ts, ==, S (100) + US (50));
  g_assert_cmpint (ev->u.clock.issue_ts, ==, S (100) - US (50));

  check_sync_id_messages (h, offset);
}

/* atrace's parent_ts: boot 30000.0001 s is monotonic 20445.875 s (a
 * float32 value: steps of 1.953125 ms there). */
static void
test_parent_ts (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceBatch *ftrace = new_batch (h), *arkts = new_batch (h);
  const gint64 offset = S (30000) + US (100) - G_GINT64_CONSTANT (20445875000000);
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (GVariant) d1 = NULL;
  const TraceEvent *pair;
  const TraceArg *args;

  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "arkts-cpuprofile", TRACE_CLOCK_MONOTONIC);
  cs_add_pair (ftrace, TRACE_CLOCK_MARKER_PARENT_TS, S (30000) + US (100), TRACE_CLOCK_MONOTONIC,
               G_GINT64_CONSTANT (20445875000000));
  cs_add_slice (ftrace, 10, S (30001), MS (1));
  cs_add_slice (arkts, 20, S (20446), MS (3));
  trace_harness_push_to (h, 0, ftrace);
  trace_harness_push_to (h, 1, arkts);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);

  all = trace_harness_take_all (h);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (20446) + offset);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 10, 0)->ts, ==, S (30001));
  msgs = cs_collect (h);
  d1 = cs_decision (msgs, "sink_1");
  g_assert_cmpint (lookup_int64 (d1, "offset"), ==, offset);
  g_assert_cmpint (lookup_int64 (d1, "precision"), ==, 1953125);
  assert_string (d1, "source", "parent_ts");
  /* The decision travels in the stream: a clock pair the sinks write
   * (a Perfetto clock snapshot), first in the output. */
  pair = &all->events[0];
  g_assert_cmpint (pair->kind, ==, TRACE_EVENT_CLOCK_MARKER);
  g_assert_cmpint (pair->u.clock.marker, ==, TRACE_CLOCK_MARKER_PAIR);
  g_assert_cmpint (pair->u.clock.domain, ==, TRACE_CLOCK_MONOTONIC);
  g_assert_cmpint (pair->ts, ==, S (20446) + offset);
  g_assert_cmpint (pair->u.clock.other_ts, ==, S (20446));
  g_assert_cmpstr (trace_batch_get_string (all, pair->name), ==, "clock-sync");
  args = trace_batch_get_args (all, pair);
  g_assert_cmpuint (pair->n_args, ==, 3);
  g_assert_cmpstr (trace_batch_get_string (all, args[0].key), ==, "pad");
  g_assert_cmpstr (trace_batch_get_string (all, args[0].v.s), ==, "sink_1");
  /* ftrace's own marker is untouched: its input is on the target. */
  g_assert_cmpint (cs_find (all, TRACE_EVENT_CLOCK_MARKER, TRACE_ID_UNKNOWN, 1)->u.clock.other_ts, ==,
                   G_GINT64_CONSTANT (20445875000000));
}

/* realtime_ts: boot 500 s is 1700000000.123 s since the epoch. */
static void
test_realtime_ts (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceBatch *ftrace = new_batch (h), *wall = new_batch (h);
  const gint64 epoch = G_GINT64_CONSTANT (1700000000123) * 1000000;
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (GVariant) d1 = NULL;

  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "chrome-json", TRACE_CLOCK_REALTIME);
  cs_add_pair (ftrace, TRACE_CLOCK_MARKER_REALTIME_TS, S (500), TRACE_CLOCK_REALTIME, epoch);
  cs_add_slice (wall, 20, G_GINT64_CONSTANT (1700000000500) * 1000000, MS (1));
  trace_harness_push_to (h, 0, ftrace);
  trace_harness_push_to (h, 1, wall);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  all = trace_harness_take_all (h);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (500) + MS (377));
  msgs = cs_collect (h);
  d1 = cs_decision (msgs, "sink_1");
  g_assert_cmpint (lookup_int64 (d1, "precision"), ==, MS (1));
  assert_string (d1, "source", "realtime_ts");
}

/* RheaTrace's `monotonic_time:` line: boot 1059724.457403 s is monotonic
 * 1059000 s; an ArkTS profile on monotonic lands 724.457403 s later. */
static void
test_rhea_clock_pair (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceBatch *rhea = new_batch (h), *arkts = new_batch (h);
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (GVariant) d1 = NULL;

  cs_stream_start (h, 0, "rhea", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "arkts-cpuprofile", TRACE_CLOCK_MONOTONIC);
  cs_add_pair (rhea, TRACE_CLOCK_MARKER_PAIR, S (1059724) + US (457403), TRACE_CLOCK_MONOTONIC, S (1059000));
  cs_add_slice (arkts, 20, S (1059001), MS (1));
  trace_harness_push_to (h, 0, rhea);
  trace_harness_push_to (h, 1, arkts);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  all = trace_harness_take_all (h);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (1059725) + US (457403));
  msgs = cs_collect (h);
  d1 = cs_decision (msgs, "sink_1");
  assert_string (d1, "source", "clock-pair");
  g_assert_cmpint (lookup_int64 (d1, "precision"), ==, US (1));
}

static void
test_pad_offset_property (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceBatch *a = new_batch (h), *b = new_batch (h);
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (GVariant) d1 = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  gint64 offset = 0;

  g_object_set (cs_pad (h, "sink_1"), "offset", MS (5), NULL);
  g_object_get (cs_pad (h, "sink_1"), "offset", &offset, NULL);
  g_assert_cmpint (offset, ==, MS (5));
  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "ftrace", TRACE_CLOCK_BOOTTIME);
  /* 10 ms long: the inputs still overlap after the shift (no warning) */
  cs_add_slice (a, 10, S (10), MS (10));
  cs_add_slice (b, 20, S (10), MS (10));
  trace_harness_push_to (h, 0, a);
  trace_harness_push_to (h, 1, b);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  all = trace_harness_take_all (h);
  /* Two inputs on one clock, and no pair marker is needed for that. */
  g_assert_cmpuint (all->n_events, ==, 2);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 10, 0)->ts, ==, S (10));
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (10) + MS (5));
  msgs = cs_collect (h);
  d1 = cs_decision (msgs, "sink_1");
  assert_string (d1, "source", "offset-property");
  g_assert_cmpint (lookup_int64 (d1, "precision"), ==, 0);
  g_assert_cmpstr (trace_harness_get_stream_info (h)->format, ==, "ftrace");
  warnings = cs_texts (msgs, TRACE_MESSAGE_WARNING);
  g_assert_cmpuint (warnings->len, ==, 0);
}

/* A JSON trace that does not say its clock; the user says monotonic, and
 * the ftrace input's clock pair ties monotonic to boot time. */
static void
test_pad_domain_property (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceBatch *ftrace = new_batch (h), *json = new_batch (h);
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (GVariant) d1 = NULL;

  g_object_set (cs_pad (h, "sink_1"), "domain", TRACE_CLOCK_MONOTONIC, NULL);
  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "chrome-json", TRACE_CLOCK_UNKNOWN);
  cs_add_pair (ftrace, TRACE_CLOCK_MARKER_PAIR, S (1000), TRACE_CLOCK_MONOTONIC, S (400));
  cs_add_slice (json, 20, S (401), MS (1));
  trace_harness_push_to (h, 0, ftrace);
  trace_harness_push_to (h, 1, json);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  all = trace_harness_take_all (h);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (1001));
  msgs = cs_collect (h);
  d1 = cs_decision (msgs, "sink_1");
  assert_string (d1, "source", "domain-property");
  assert_string (d1, "domain", "monotonic");
}

/* parent_ts says monotonic + 600 s, the sync pair + 605 s: the pair wins
 * and the parent_ts marker is reported. */
static void
test_conflicting_markers (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceBatch *ftrace = new_batch (h), *json = new_batch (h);
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (GVariant) d1 = NULL;
  g_autoptr (GPtrArray) warnings = NULL;

  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "chrome-json", TRACE_CLOCK_MONOTONIC);
  cs_add_pair (ftrace, TRACE_CLOCK_MARKER_PARENT_TS, S (1000), TRACE_CLOCK_MONOTONIC, S (400));
  cs_add_sync (ftrace, "s1", S (1010), 0);
  cs_add_sync (json, "s1", S (405), 0);
  cs_add_slice (json, 20, S (410), MS (1));
  trace_harness_push_to (h, 0, ftrace);
  trace_harness_push_to (h, 1, json);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  all = trace_harness_take_all (h);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (1015));
  msgs = cs_collect (h);
  d1 = cs_decision (msgs, "sink_1");
  assert_string (d1, "source", "sync-id");
  warnings = cs_texts (msgs, TRACE_MESSAGE_WARNING);
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_true (cs_texts_contain (warnings,
                                   "the parent_ts marker of sink_0 at 1000.000000000 s (monotonic 400.000000000 s) "
                                   "disagrees by 5 s with sync id \"s1\" (sink_0 at 1010.000000000 s, sink_1 at "
                                   "405.000000000 s), which is trusted more: ignored"));
}

/* A JSON trace of unknown clock three hours away from the ftrace one:
 * nothing ties it, it passes through unshifted, and the user is told,
 * and told at the end that the two never meet in time. */
static void
test_no_way_to_sync (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceBatch *ftrace = new_batch (h), *json = new_batch (h);
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (GVariant) d1 = NULL;
  g_autoptr (GPtrArray) warnings = NULL;

  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "chrome-json", TRACE_CLOCK_UNKNOWN);
  cs_add_slice (ftrace, 10, S (100), MS (1));
  cs_add_slice (json, 20, S (10900), MS (1));
  trace_harness_push_to (h, 0, ftrace);
  trace_harness_push_to (h, 1, json);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  all = trace_harness_take_all (h);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (10900));
  msgs = cs_collect (h);
  d1 = cs_decision (msgs, "sink_1");
  assert_string (d1, "source", "none");
  g_assert_false (lookup_bool (d1, "synced"));
  warnings = cs_texts (msgs, TRACE_MESSAGE_WARNING);
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_true (cs_texts_contain (warnings,
                                   "sink_1 (chrome-json, clock unknown): nothing ties it to the boottime clock; "
                                   "passed through unshifted (give its pad an offset or domain property to place "
                                   "it)"));
  g_assert_true (cs_texts_contain (warnings, "the inputs do not overlap in time: sink_0 100.000000000 s to "
                                             "100.001000000 s, sink_1 10900.000000000 s to 10900.001000000 s; a gap "
                                             "of 10799.999000000 s between 100.001000000 s and 10900.000000000 s "
                                             "(captures of different times, or clocks nothing tied: see each input's "
                                             "clock above; a pad's offset or domain property places an input)"));
}

/* btrace's heuristic: a system trace of unknown clock that starts 1 s
 * after a known monotonic reading is taken to be on monotonic. */
static void
test_guess_is_reported (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceBatch *rhea = new_batch (h), *sys = new_batch (h);
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (GVariant) d1 = NULL;
  g_autoptr (GPtrArray) warnings = NULL;

  cs_stream_start (h, 0, "rhea", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "ftrace", TRACE_CLOCK_UNKNOWN);
  cs_add_pair (rhea, TRACE_CLOCK_MARKER_PAIR, S (1000), TRACE_CLOCK_MONOTONIC, S (400));
  cs_add_slice (rhea, 10, S (1000), MS (1));
  cs_add_slice (sys, 20, S (401), MS (1));
  trace_harness_push_to (h, 0, rhea);
  trace_harness_push_to (h, 1, sys);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  all = trace_harness_take_all (h);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (1001));
  msgs = cs_collect (h);
  d1 = cs_decision (msgs, "sink_1");
  assert_string (d1, "source", "guess");
  g_assert_true (lookup_bool (d1, "guess"));
  warnings = cs_texts (msgs, TRACE_MESSAGE_WARNING);
  g_assert_true (cs_texts_contain (warnings,
                                   "sink_1 (ftrace, clock unknown): shifted by +600 s onto the boottime clock on a "
                                   "guess, precision 1.000001 s: a guess that sink_1 runs on the clock of monotonic "
                                   "(first timestamps 1 s apart), then the clock pair marker of sink_0 at "
                                   "1000.000000000 s (monotonic 400.000000000 s), then the stream-start of sink_0 "
                                   "(boottime); set the pad's offset or domain property if that is wrong"));
}

/* With a look-ahead of one batch, a parent_ts marker in ftrace's second
 * batch comes too late for the ArkTS input: reported, not applied. */
static void
test_late_marker_not_applied (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, "lookahead", 1, "guess-window", (gint64) -1, NULL);
  TraceBatch *f1 = new_batch (h), *f2 = new_batch (h), *a1 = new_batch (h), *a2 = new_batch (h);
  g_autoptr (TraceBatch) all = NULL;
  g_autoptr (GPtrArray) warnings = NULL;

  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "arkts-cpuprofile", TRACE_CLOCK_MONOTONIC);
  cs_add_slice (f1, 10, S (1000), MS (1));
  cs_add_slice (a1, 20, S (400), MS (1));
  cs_add_pair (f2, TRACE_CLOCK_MARKER_PARENT_TS, S (1001), TRACE_CLOCK_MONOTONIC, S (401));
  cs_add_slice (f2, 10, S (1002), MS (1));
  cs_add_slice (a2, 20, S (402), MS (1));
  trace_harness_push_to (h, 0, f1);
  trace_harness_push_to (h, 1, a1);
  /* Both look-aheads are full: decided, and out. */
  g_assert_cmpuint (trace_harness_get_n_batches_out (h), ==, 2);
  trace_harness_push_to (h, 0, f2);
  trace_harness_push_to (h, 1, a2);
  trace_harness_push_eos_to (h, 1);
  trace_harness_push_eos_to (h, 0);
  g_assert_true (trace_harness_got_eos (h));
  all = trace_harness_take_all (h);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (400));
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 1)->ts, ==, S (402));
  msgs = cs_collect (h);
  warnings = cs_texts (msgs, TRACE_MESSAGE_WARNING);
  /* the third: unshifted, the profile (400 s) never meets the kernel
   * trace (1000 s) */
  g_assert_cmpuint (warnings->len, ==, 3);
  g_assert_true (g_str_has_prefix (warnings->pdata[2], "the inputs do not overlap in time: sink_1 400.000000000 s"));
  g_assert_true (cs_texts_contain (warnings,
                                   "sink_1 (arkts-cpuprofile, clock monotonic): nothing ties it to the boottime "
                                   "clock; passed through unshifted (give its pad an offset or domain property to "
                                   "place it)"));
  g_assert_true (cs_texts_contain (warnings,
                                   "the parent_ts marker of sink_0 at 1001.000000000 s (monotonic 401.000000000 s) "
                                   "came after the look-ahead: it would shift sink_1 by +600 s onto the boottime "
                                   "clock, but markers are not applied backwards"));
}

/* Memory: an input is held back once its look-ahead and its queue are
 * full, until the other input catches up. */
static void
test_memory_bounded (void)
{
  g_autoptr (TraceHarness) h = cs_harness_new (2, "lookahead", 2, "max-queued", 2, NULL);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  guint pushed = 0;

  trace_harness_push_to (h, 1, cs_slices (pool, 20, S (1)));
  while (trace_harness_input_is_ready (h, 0))
    {
      trace_harness_push_to (h, 0, cs_slices (pool, 10, S (1) + pushed));
      pushed++;
      g_assert_cmpuint (pushed, <=, 3);
    }
  /* One batch went into the look-ahead, two wait in the queue. */
  g_assert_cmpuint (pushed, ==, 3);
  g_assert_cmpuint (trace_harness_get_n_batches_out (h), ==, 0);
  g_assert_true (trace_harness_input_is_ready (h, 1));
  /* The slow input fills its look-ahead: decided, the look-aheads flow. */
  trace_harness_push_to (h, 1, cs_slices (pool, 20, S (2)));
  g_assert_cmpuint (trace_harness_get_n_batches_out (h), ==, 4);
  g_assert_true (trace_harness_input_is_ready (h, 0));
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  g_assert_true (trace_harness_got_eos (h));
  g_assert_cmpuint (trace_harness_get_n_batches_out (h), ==, 5);
}

static void
test_eos_after_all_inputs (void)
{
  g_autoptr (TraceHarness) h = cs_harness_new (3, NULL);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  g_autoptr (TraceBatch) all = NULL;

  trace_harness_push_to (h, 0, cs_slices (pool, 10, S (1)));
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 2);
  g_assert_false (trace_harness_got_eos (h));
  trace_harness_push_to (h, 1, cs_slices (pool, 20, S (2)));
  g_assert_false (trace_harness_got_eos (h));
  trace_harness_push_eos_to (h, 1);
  g_assert_true (trace_harness_got_eos (h));
  all = trace_harness_take_all (h);
  g_assert_cmpuint (all->n_events, ==, 2);
}

/* Batches of the look-ahead leave earliest first, across inputs; within
 * an input, in their order. */
static void
test_interleaves_batches (void)
{
  g_autoptr (TraceHarness) h = cs_harness_new (2, "lookahead", 4, NULL);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  const gint64 starts[] = { S (10), S (20), S (30), S (40) };

  trace_harness_push_to (h, 0, cs_slices (pool, 10, S (10)));
  trace_harness_push_to (h, 1, cs_slices (pool, 20, S (20)));
  trace_harness_push_to (h, 0, cs_slices (pool, 10, S (30)));
  trace_harness_push_to (h, 1, cs_slices (pool, 20, S (40)));
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    {
      g_autoptr (TraceBatch) b = trace_harness_pull (h);

      g_assert_nonnull (b);
      g_assert_cmpint (b->events[0].ts, ==, starts[i]);
    }
}

/* target=monotonic: the boot-time input moves back by 600 s. */
static void
test_target_monotonic (void)
{
  g_autoptr (TraceHarness) h = cs_harness_new (2, "target", TRACE_CLOCK_MONOTONIC, NULL);
  TraceBatch *ftrace = new_batch (h), *arkts = new_batch (h);
  g_autoptr (TraceBatch) all = NULL;
  const TraceEvent *pair;

  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "arkts-cpuprofile", TRACE_CLOCK_MONOTONIC);
  cs_add_pair (ftrace, TRACE_CLOCK_MARKER_PARENT_TS, S (1000), TRACE_CLOCK_MONOTONIC, S (400));
  cs_add_slice (ftrace, 10, S (1000) + MS (1), MS (1));
  cs_add_slice (arkts, 20, S (400) + MS (2), MS (1));
  trace_harness_push_to (h, 0, ftrace);
  trace_harness_push_to (h, 1, arkts);
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  g_assert_cmpint (trace_harness_get_stream_info (h)->clock_domain, ==, TRACE_CLOCK_MONOTONIC);
  all = trace_harness_take_all (h);
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 10, 0)->ts, ==, S (400) + MS (1));
  g_assert_cmpint (cs_find (all, TRACE_EVENT_SLICE_COMPLETE, 20, 0)->ts, ==, S (400) + MS (2));
  /* The pair the element adds ties boot time to the output's clock. */
  pair = &all->events[0];
  g_assert_cmpint (pair->u.clock.marker, ==, TRACE_CLOCK_MARKER_PAIR);
  g_assert_cmpint (pair->u.clock.domain, ==, TRACE_CLOCK_BOOTTIME);
  g_assert_cmpint (pair->ts, ==, S (400));
  g_assert_cmpint (pair->u.clock.other_ts, ==, S (1000));
  /* ftrace's own parent_ts marker moved to monotonic time, and still
   * says the monotonic reading it was written with. */
  pair = cs_find (all, TRACE_EVENT_CLOCK_MARKER, TRACE_ID_UNKNOWN, 1);
  g_assert_cmpint (pair->u.clock.marker, ==, TRACE_CLOCK_MARKER_PARENT_TS);
  g_assert_cmpint (pair->ts, ==, S (400));
  g_assert_cmpint (pair->u.clock.other_ts, ==, S (400));
}

static void
test_late_stream_start (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, "lookahead", 1, NULL);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  g_autoptr (GPtrArray) warnings = NULL;

  cs_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  cs_stream_start (h, 1, "chrome-json", TRACE_CLOCK_BOOTTIME);
  trace_harness_push_to (h, 0, cs_slices (pool, 10, S (1)));
  trace_harness_push_to (h, 1, cs_slices (pool, 20, S (1)));
  cs_stream_start (h, 1, "chrome-json", TRACE_CLOCK_MONOTONIC);
  msgs = cs_collect (h);
  warnings = cs_texts (msgs, TRACE_MESSAGE_WARNING);
  g_assert_true (cs_texts_contain (warnings,
                                   "sink_1 announced its clock (monotonic) after the clocks were decided: it keeps "
                                   "the offset decided for boottime (+0 ns)"));
}

static void
test_empty_input_is_not_reported (void)
{
  g_autoptr (GPtrArray) msgs = NULL;
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  g_autoptr (GPtrArray) warnings = NULL;

  cs_stream_start (h, 1, "chrome-json", TRACE_CLOCK_UNKNOWN);
  trace_harness_push_to (h, 0, cs_slices (pool, 10, S (1)));
  trace_harness_push_eos_to (h, 1);
  trace_harness_push_eos_to (h, 0);
  g_assert_true (trace_harness_got_eos (h));
  msgs = cs_collect (h);
  warnings = cs_texts (msgs, TRACE_MESSAGE_WARNING);
  g_assert_cmpuint (warnings->len, ==, 0);
}

/* The merged stream's flags, after @a and @b merged (both on boottime,
 * so nothing else decides). */
static TraceStreamFlags
merged_flags (TraceStreamFlags a,
              TraceStreamFlags b)
{
  g_autoptr (TraceHarness) h = cs_harness_new (2, NULL);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  TraceStreamInfo info = { .format = "test", .clock_domain = TRACE_CLOCK_BOOTTIME, .flags = a };

  g_assert_true (trace_harness_play (h));
  trace_harness_set_stream_info (h, 0, &info);
  info.flags = b;
  trace_harness_set_stream_info (h, 1, &info);
  trace_harness_push_to (h, 0, cs_slices (pool, 10, S (1)));
  trace_harness_push_to (h, 1, cs_slices (pool, 20, S (1)));
  trace_harness_push_eos_to (h, 0);
  trace_harness_push_eos_to (h, 1);
  g_assert_true (trace_harness_got_eos (h));
  return trace_harness_get_stream_info (h)->flags;
}

/* What holds of one input's threads holds of the merge; how an input was
 * read (its order, its kernel events, its thread time) holds of the
 * merge only when it holds of each input. */
static void
test_stream_flags_merged (void)
{
  const TraceStreamFlags json = TRACE_STREAM_FLAG_MAIN_THREADS_NAMED | TRACE_STREAM_FLAG_JSON_ORDER;
  const TraceStreamFlags perfetto = TRACE_STREAM_FLAG_MAIN_THREADS_NAMED | TRACE_STREAM_FLAG_SEQUENCE_ORDER |
                                    TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS | TRACE_STREAM_FLAG_NATIVE_THREAD_TIME;

  g_assert_cmpint (merged_flags (json, json), ==, json);
  g_assert_cmpint (merged_flags (perfetto, perfetto), ==, perfetto);
  g_assert_cmpint (merged_flags (json, perfetto), ==, TRACE_STREAM_FLAG_MAIN_THREADS_NAMED);
  g_assert_cmpint (merged_flags (TRACE_STREAM_FLAG_NONE, json), ==, TRACE_STREAM_FLAG_MAIN_THREADS_NAMED);
}

static void
test_bad_target (void)
{
  g_autoptr (TraceHarness) h = cs_harness_new (1, "target", TRACE_CLOCK_PROCESS, NULL);
  g_autoptr (TraceMessage) error = NULL;

  g_assert_false (trace_harness_play (h));
  error = trace_harness_pop_message (h, TRACE_MESSAGE_ERROR);
  g_assert_nonnull (error);
  g_assert_cmpstr (error->error->message, ==,
                   "target must be a clock every input can share: boottime, monotonic, monotonic-raw or "
                   "realtime, not process");
}

static guint64
run_and_count (const char *description,
               TraceElement **out_pipeline)
{
  g_autoptr (GError) error = NULL;
  TraceElement *p = trace_parse_launch (description, &error);
  g_autoptr (TraceMessage) end = NULL;
  guint64 events = 0;

  g_assert_no_error (error);
  *out_pipeline = p;
  end = test_run_pipeline (p, 20000);
  g_assert_cmpint (end->type, ==, TRACE_MESSAGE_EOS);
  g_object_get (trace_bin_get_by_name (TRACE_BIN (p), "out"), "events", &events, NULL);
  trace_element_set_state (p, TRACE_STATE_NULL);
  return events;
}

/* `PAD::KEY=VALUE` from a launch line reaches the request pad, and the
 * merge passes every event of both sources (as many as a funnel). */
static void
test_launch_pad_property (void)
{
  g_autoptr (TraceElement) merged = NULL, funneled = NULL;
  guint64 n_merged, n_funneled;
  TraceElement *m;
  gint64 offset = 0;
  TraceClockDomain domain = TRACE_CLOCK_UNKNOWN;

  n_merged = run_and_count ("clock-sync name=m sink_1::offset=5ms sink_1::domain=boottime ! fakesink name=out "
                            "fakesrc num-events=100 ! m. fakesrc num-events=50 ! m.",
                            &merged);
  m = trace_bin_get_by_name (TRACE_BIN (merged), "m");
  g_object_get (trace_element_get_static_pad (m, "sink_1"), "offset", &offset, "domain", &domain, NULL);
  g_assert_cmpint (offset, ==, MS (5));
  g_assert_cmpint (domain, ==, TRACE_CLOCK_BOOTTIME);
  n_funneled = run_and_count ("funnel name=m ! fakesink name=out "
                              "fakesrc num-events=100 ! m. fakesrc num-events=50 ! m.",
                              &funneled);
  g_assert_cmpuint (n_funneled, >=, 150);
  g_assert_cmpuint (n_merged, ==, n_funneled);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/clocksync/element/sync-id-pair", test_sync_id_pair);
  g_test_add_func ("/clocksync/element/parent-ts", test_parent_ts);
  g_test_add_func ("/clocksync/element/realtime-ts", test_realtime_ts);
  g_test_add_func ("/clocksync/element/rhea-clock-pair", test_rhea_clock_pair);
  g_test_add_func ("/clocksync/element/pad-offset-property", test_pad_offset_property);
  g_test_add_func ("/clocksync/element/pad-domain-property", test_pad_domain_property);
  g_test_add_func ("/clocksync/element/conflicting-markers", test_conflicting_markers);
  g_test_add_func ("/clocksync/element/no-way-to-sync", test_no_way_to_sync);
  g_test_add_func ("/clocksync/element/guess-is-reported", test_guess_is_reported);
  g_test_add_func ("/clocksync/element/late-marker-not-applied", test_late_marker_not_applied);
  g_test_add_func ("/clocksync/element/memory-bounded", test_memory_bounded);
  g_test_add_func ("/clocksync/element/eos-after-all-inputs", test_eos_after_all_inputs);
  g_test_add_func ("/clocksync/element/interleaves-batches", test_interleaves_batches);
  g_test_add_func ("/clocksync/element/target-monotonic", test_target_monotonic);
  g_test_add_func ("/clocksync/element/late-stream-start", test_late_stream_start);
  g_test_add_func ("/clocksync/element/empty-input-is-not-reported", test_empty_input_is_not_reported);
  g_test_add_func ("/clocksync/element/stream-flags-merged", test_stream_flags_merged);
  g_test_add_func ("/clocksync/element/bad-target", test_bad_target);
  g_test_add_func ("/clocksync/element/launch-pad-property", test_launch_pad_property);
  return g_test_run ();
}
