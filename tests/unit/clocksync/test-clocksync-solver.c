/* Unit tests of clock-sync's solver: which offset each input gets from
 * which evidence, and what is reported. Expected offsets are worked out
 * by hand from the marker values in each test. */
#include <trace/trace.h>

#include "clocksync-private.h"

#define S(x) ((gint64) (x) *G_GINT64_CONSTANT (1000000000))
#define MS(x) ((gint64) (x) *1000000)
#define US(x) ((gint64) (x) *1000)

typedef struct
{
  TraceStringPool *pool;
  ClocksyncSolver *solver;
} Fixture;

static void
fixture_setup (Fixture *f,
               gconstpointer data)
{
  f->pool = trace_string_pool_new ();
  f->solver = clocksync_solver_new (f->pool, TRACE_CLOCK_BOOTTIME, S (600));
}

static void
fixture_teardown (Fixture *f,
                  gconstpointer data)
{
  clocksync_solver_free (f->solver);
  trace_string_pool_unref (f->pool);
}

static TraceEvent
pair_marker (TraceClockMarkerKind kind,
             gint64 ts,
             TraceClockDomain domain,
             gint64 other_ts)
{
  TraceEvent ev = { 0 };

  ev.kind = TRACE_EVENT_CLOCK_MARKER;
  ev.ts = ts;
  ev.u.clock.marker = kind;
  ev.u.clock.domain = domain;
  ev.u.clock.other_ts = other_ts;
  return ev;
}

static TraceEvent
sync_marker (Fixture *f,
             const char *id,
             gint64 ts,
             gint64 issue_ts)
{
  TraceEvent ev = { 0 };

  ev.kind = TRACE_EVENT_CLOCK_MARKER;
  ev.ts = ts;
  ev.u.clock.marker = TRACE_CLOCK_MARKER_SYNC_ID;
  ev.u.clock.sync_id = trace_string_pool_intern (f->pool, id);
  ev.u.clock.issue_ts = issue_ts;
  return ev;
}

static const ClocksyncDecision *
decision (Fixture *f,
          guint input)
{
  return clocksync_solver_get_decision (f->solver, input);
}

static void
test_parent_ts_precision (void)
{
  /* The float32 steps FORMATS.md §7 quotes: 2 ms at 20 000 s, 31 ms at
   * 521 289 s, 62 ms at 683 201 s (2^-9, 2^-5, 2^-4 s). */
  g_assert_cmpint (clocksync_parent_ts_precision (G_GINT64_CONSTANT (20445875000000)), ==, 1953125);
  g_assert_cmpint (clocksync_parent_ts_precision (G_GINT64_CONSTANT (521289843750000)), ==, 31250000);
  g_assert_cmpint (clocksync_parent_ts_precision (G_GINT64_CONSTANT (683201375000000)), ==, 62500000);
  /* µs digits a float cannot hold: printed from a double (Chrome). */
  g_assert_cmpint (clocksync_parent_ts_precision (G_GINT64_CONSTANT (20445875123000)), ==, 1000);
  /* Small values: the float is finer than the µs it is printed with. */
  g_assert_cmpint (clocksync_parent_ts_precision (S (12) + MS (500)), ==, 1000);
}

static void
test_format_duration (void)
{
  struct
  {
    gint64 ns;
    gboolean sign;
    const char *text;
  } cases[] = {
    { G_GINT64_CONSTANT (94999850000), TRUE, "+94.99985 s" },
    { 1953125, FALSE, "1.953125 ms" },
    { 250, FALSE, "250 ns" },
    { -MS (5), TRUE, "-5 ms" },
    { 0, TRUE, "+0 ns" },
    { US (2), FALSE, "2 us" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = clocksync_format_duration (cases[i].ns, cases[i].sign);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
test_stream_start_alone (Fixture *f,
                         gconstpointer data)
{
  guint boot = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);

  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, boot)->offset, ==, 0);
  g_assert_cmpint (decision (f, boot)->precision, ==, 0);
  g_assert_cmpint (decision (f, boot)->source, ==, CLOCKSYNC_SOURCE_STREAM_START);
  g_assert_true (decision (f, boot)->on_target);
  g_assert_cmpstr (decision (f, boot)->via, ==, "the stream-start of sink_0 (boottime)");
}

static void
test_sync_id_midpoint (Fixture *f,
                       gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint json = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_UNKNOWN);
  TraceEvent a = sync_marker (f, "abc", S (100), 0);
  TraceEvent b = sync_marker (f, "abc", S (5) + US (200), S (5) + US (100));

  g_assert_cmpint (clocksync_solver_add_marker (f->solver, ftrace, &a), ==, CLOCKSYNC_MARKER_USED);
  g_assert_cmpint (clocksync_solver_add_marker (f->solver, json, &b), ==, CLOCKSYNC_MARKER_USED);
  g_assert_cmpint (clocksync_solver_add_marker (f->solver, json, &b), ==, CLOCKSYNC_MARKER_DUPLICATE);
  clocksync_solver_solve (f->solver);
  /* Written between 5.0001 s and 5.0002 s: at 5.00015 s = 100 s boot. */
  g_assert_cmpint (decision (f, json)->offset, ==, S (100) - (S (5) + US (150)));
  /* The bracket (100 us) plus the ftrace line's 1 us. */
  g_assert_cmpint (decision (f, json)->precision, ==, US (101));
  g_assert_cmpint (decision (f, json)->source, ==, CLOCKSYNC_SOURCE_SYNC_ID);
  g_assert_cmpint (decision (f, ftrace)->offset, ==, 0);
  g_assert_cmpuint (clocksync_solver_get_conflicts (f->solver)->len, ==, 0);
}

static void
test_sync_id_without_issue_ts (Fixture *f,
                               gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint json = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_MONOTONIC);
  TraceEvent a = sync_marker (f, "7f3e", S (2000), 0);
  TraceEvent b = sync_marker (f, "7f3e", S (1500), 0);

  clocksync_solver_add_marker (f->solver, json, &b);
  clocksync_solver_add_marker (f->solver, ftrace, &a);
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, json)->offset, ==, S (500));
  g_assert_cmpint (decision (f, json)->source, ==, CLOCKSYNC_SOURCE_SYNC_ID);
  g_assert_cmpint (decision (f, json)->domain, ==, TRACE_CLOCK_MONOTONIC);
}

static void
test_parent_ts_ties_monotonic (Fixture *f,
                               gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint arkts = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_MONOTONIC);
  TraceEvent m = pair_marker (TRACE_CLOCK_MARKER_PARENT_TS, S (30000) + US (100), TRACE_CLOCK_MONOTONIC,
                              G_GINT64_CONSTANT (20445875000000));

  clocksync_solver_add_marker (f->solver, ftrace, &m);
  clocksync_solver_solve (f->solver);
  /* monotonic 20445.875 s = boot 30000.0001 s */
  g_assert_cmpint (decision (f, arkts)->offset, ==, S (30000) + US (100) - G_GINT64_CONSTANT (20445875000000));
  g_assert_cmpint (decision (f, arkts)->precision, ==, 1953125);
  g_assert_cmpint (decision (f, arkts)->source, ==, CLOCKSYNC_SOURCE_PARENT_TS);
  g_assert_cmpstr (decision (f, arkts)->via, ==,
                   "the stream-start of sink_1 (monotonic), "
                   "then the parent_ts marker of sink_0 at 30000.000100000 s (monotonic 20445.875000000 s), "
                   "then the stream-start of sink_0 (boottime)");
}

static void
test_parent_ts_zero_means_same_clock (Fixture *f,
                                      gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint arkts = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_MONOTONIC);
  TraceEvent m = pair_marker (TRACE_CLOCK_MARKER_PARENT_TS, S (123), TRACE_CLOCK_MONOTONIC, 0);

  clocksync_solver_add_marker (f->solver, ftrace, &m);
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, arkts)->offset, ==, 0);
  g_assert_cmpint (decision (f, arkts)->source, ==, CLOCKSYNC_SOURCE_PARENT_TS);
}

static void
test_realtime_ts (Fixture *f,
                  gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint wall = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_REALTIME);
  TraceEvent m = pair_marker (TRACE_CLOCK_MARKER_REALTIME_TS, S (500), TRACE_CLOCK_REALTIME,
                              G_GINT64_CONSTANT (1700000000123) * 1000000);

  clocksync_solver_add_marker (f->solver, ftrace, &m);
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, wall)->offset, ==, S (500) - G_GINT64_CONSTANT (1700000000123) * 1000000);
  g_assert_cmpint (decision (f, wall)->precision, ==, MS (1));
  g_assert_cmpint (decision (f, wall)->source, ==, CLOCKSYNC_SOURCE_REALTIME_TS);
}

static void
test_unusable_and_too_many (Fixture *f,
                            gconstpointer data)
{
  guint in = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  TraceEvent local = pair_marker (TRACE_CLOCK_MARKER_PAIR, S (1), TRACE_CLOCK_FTRACE_LOCAL, S (2));
  TraceEvent mono = pair_marker (TRACE_CLOCK_MARKER_PAIR, S (1), TRACE_CLOCK_MONOTONIC, S (2));
  TraceEvent no_id = sync_marker (f, "", S (1), 0);

  g_assert_cmpint (clocksync_solver_add_marker (f->solver, in, &local), ==, CLOCKSYNC_MARKER_UNUSABLE);
  g_assert_cmpint (clocksync_solver_add_marker (f->solver, in, &no_id), ==, CLOCKSYNC_MARKER_UNUSABLE);
  for (guint i = 0; i < CLOCKSYNC_MAX_MARKERS; i++)
    g_assert_cmpint (clocksync_solver_add_marker (f->solver, in, &mono), ==, CLOCKSYNC_MARKER_USED);
  g_assert_cmpint (clocksync_solver_add_marker (f->solver, in, &mono), ==, CLOCKSYNC_MARKER_TOO_MANY);
}

static void
test_sync_beats_parent_ts (Fixture *f,
                           gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint json = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_MONOTONIC);
  TraceEvent parent = pair_marker (TRACE_CLOCK_MARKER_PARENT_TS, S (1000), TRACE_CLOCK_MONOTONIC, S (400));
  TraceEvent a = sync_marker (f, "s1", S (1010), 0);
  TraceEvent b = sync_marker (f, "s1", S (405), 0);
  GPtrArray *conflicts;
  const ClocksyncConflict *c;

  /* parent_ts says monotonic + 600 s; the sync pair says + 605 s. */
  clocksync_solver_add_marker (f->solver, ftrace, &parent);
  clocksync_solver_add_marker (f->solver, ftrace, &a);
  clocksync_solver_add_marker (f->solver, json, &b);
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, json)->offset, ==, S (605));
  g_assert_cmpint (decision (f, json)->source, ==, CLOCKSYNC_SOURCE_SYNC_ID);
  conflicts = clocksync_solver_get_conflicts (f->solver);
  g_assert_cmpuint (conflicts->len, ==, 1);
  c = g_ptr_array_index (conflicts, 0);
  g_assert_cmpint (c->source, ==, CLOCKSYNC_SOURCE_PARENT_TS);
  g_assert_cmpint (c->winner, ==, CLOCKSYNC_SOURCE_SYNC_ID);
  g_assert_cmpuint (c->input, ==, ftrace);
  g_assert_cmpint (ABS (c->disagreement), ==, S (5));
  g_assert_cmpstr (c->text, ==,
                   "the parent_ts marker of sink_0 at 1000.000000000 s (monotonic 400.000000000 s) disagrees "
                   "by 5 s with sync id \"s1\" (sink_0 at 1010.000000000 s, sink_1 at 405.000000000 s), "
                   "which is trusted more: ignored");
}

static void
test_agreeing_evidence_is_no_conflict (Fixture *f,
                                       gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint json = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_MONOTONIC);
  /* parent_ts quantised to 1.95 ms; the sync pair lands 1 ms away. */
  TraceEvent parent = pair_marker (TRACE_CLOCK_MARKER_PARENT_TS, S (30000), TRACE_CLOCK_MONOTONIC,
                                   G_GINT64_CONSTANT (20445875000000));
  TraceEvent a = sync_marker (f, "s1", S (30001), 0);
  TraceEvent b = sync_marker (f, "s1", G_GINT64_CONSTANT (20446875000000) - MS (1), 0);

  clocksync_solver_add_marker (f->solver, ftrace, &parent);
  clocksync_solver_add_marker (f->solver, ftrace, &a);
  clocksync_solver_add_marker (f->solver, json, &b);
  clocksync_solver_solve (f->solver);
  g_assert_cmpuint (clocksync_solver_get_conflicts (f->solver)->len, ==, 0);
}

static void
test_stream_start_beats_sync (Fixture *f,
                              gconstpointer data)
{
  guint a_in = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint b_in = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_BOOTTIME);
  TraceEvent a = sync_marker (f, "x", S (10), 0);
  TraceEvent b = sync_marker (f, "x", S (13), 0);
  const ClocksyncConflict *c;

  clocksync_solver_add_marker (f->solver, a_in, &a);
  clocksync_solver_add_marker (f->solver, b_in, &b);
  clocksync_solver_solve (f->solver);
  /* Both say boot time: they share a clock, whatever the pair says. */
  g_assert_cmpint (decision (f, b_in)->offset, ==, 0);
  g_assert_cmpuint (clocksync_solver_get_conflicts (f->solver)->len, ==, 1);
  c = g_ptr_array_index (clocksync_solver_get_conflicts (f->solver), 0);
  g_assert_cmpint (c->source, ==, CLOCKSYNC_SOURCE_SYNC_ID);
  g_assert_cmpint (c->winner, ==, CLOCKSYNC_SOURCE_STREAM_START);
}

static void
test_offset_property (Fixture *f,
                      gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint json = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_BOOTTIME);

  /* The property replaces what the stream-start says. */
  clocksync_solver_set_offset_property (f->solver, json, MS (5));
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, json)->offset, ==, MS (5));
  g_assert_cmpint (decision (f, json)->source, ==, CLOCKSYNC_SOURCE_OFFSET_PROPERTY);
  g_assert_cmpint (decision (f, ftrace)->offset, ==, 0);
  g_assert_cmpuint (clocksync_solver_get_conflicts (f->solver)->len, ==, 0);
}

static void
test_marker_beats_offset_property (Fixture *f,
                                   gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint json = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_UNKNOWN);
  TraceEvent a = sync_marker (f, "q", S (50), 0);
  TraceEvent b = sync_marker (f, "q", S (20), 0);
  const ClocksyncConflict *c;

  clocksync_solver_set_offset_property (f->solver, json, MS (5));
  clocksync_solver_add_marker (f->solver, ftrace, &a);
  clocksync_solver_add_marker (f->solver, json, &b);
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, json)->offset, ==, S (30));
  c = g_ptr_array_index (clocksync_solver_get_conflicts (f->solver), 0);
  g_assert_cmpint (c->source, ==, CLOCKSYNC_SOURCE_OFFSET_PROPERTY);
  g_assert_cmpint (c->winner, ==, CLOCKSYNC_SOURCE_SYNC_ID);
  g_assert_cmpstr (c->text, ==,
                   "the offset property of sink_1 (+5 ms) disagrees by 29.995 s with sync id \"q\" "
                   "(sink_0 at 50.000000000 s, sink_1 at 20.000000000 s), which is trusted more: ignored");
}

static void
test_domain_property_with_offset (Fixture *f,
                                  gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint json = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_UNKNOWN);
  TraceEvent m = pair_marker (TRACE_CLOCK_MARKER_PAIR, S (1000), TRACE_CLOCK_MONOTONIC, S (400));

  /* "This input is monotonic, 5 ms late": 5 ms onto monotonic, then
   * monotonic + 600 s onto boot time. */
  clocksync_solver_set_domain_property (f->solver, json, TRACE_CLOCK_MONOTONIC);
  clocksync_solver_set_offset_property (f->solver, json, MS (5));
  clocksync_solver_add_marker (f->solver, ftrace, &m);
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, json)->offset, ==, S (600) + MS (5));
  g_assert_cmpint (decision (f, json)->domain, ==, TRACE_CLOCK_MONOTONIC);
  g_assert_cmpint (decision (f, json)->source, ==, CLOCKSYNC_SOURCE_DOMAIN_PROPERTY);
}

static void
test_guess_nearest_clock (Fixture *f,
                          gconstpointer data)
{
  guint rhea = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint sys = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_UNKNOWN);
  TraceEvent pair = pair_marker (TRACE_CLOCK_MARKER_PAIR, S (1000), TRACE_CLOCK_MONOTONIC, S (400));

  /* btrace's case: the system trace starts near the monotonic reading. */
  clocksync_solver_add_marker (f->solver, rhea, &pair);
  clocksync_solver_note_ts (f->solver, rhea, S (1000));
  clocksync_solver_note_ts (f->solver, sys, S (401));
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, sys)->offset, ==, S (600));
  g_assert_cmpint (decision (f, sys)->source, ==, CLOCKSYNC_SOURCE_GUESS);
  g_assert_true (decision (f, sys)->guess);
  /* the guess's distance plus the pair's microsecond */
  g_assert_cmpint (decision (f, sys)->precision, ==, S (1) + US (1));
  g_assert_cmpstr (decision (f, sys)->via, ==,
                   "a guess that sink_1 runs on the clock of monotonic (first timestamps 1 s apart), "
                   "then the clock pair marker of sink_0 at 1000.000000000 s (monotonic 400.000000000 s), "
                   "then the stream-start of sink_0 (boottime)");
}

static void
test_guess_same_as_other_input (Fixture *f,
                                gconstpointer data)
{
  guint rhea = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint sys = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_UNKNOWN);
  TraceEvent pair = pair_marker (TRACE_CLOCK_MARKER_PAIR, S (1000), TRACE_CLOCK_MONOTONIC, S (400));

  clocksync_solver_add_marker (f->solver, rhea, &pair);
  clocksync_solver_note_ts (f->solver, rhea, S (1000));
  clocksync_solver_note_ts (f->solver, sys, S (1002));
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, sys)->offset, ==, 0);
  g_assert_cmpint (decision (f, sys)->source, ==, CLOCKSYNC_SOURCE_GUESS);
}

static void
test_no_way (Fixture *f,
             gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint json = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_UNKNOWN);

  /* 3 hours apart: beyond the 10 minute window. */
  clocksync_solver_note_ts (f->solver, ftrace, S (100));
  clocksync_solver_note_ts (f->solver, json, S (10900));
  clocksync_solver_solve (f->solver);
  g_assert_false (decision (f, json)->on_target);
  g_assert_cmpint (decision (f, json)->offset, ==, 0);
  g_assert_cmpint (decision (f, json)->source, ==, CLOCKSYNC_SOURCE_NONE);
  g_assert_cmpstr (decision (f, json)->via, ==, "nothing ties it to the boottime clock");
}

static void
test_untied_group_keeps_its_pairs (Fixture *f,
                                   gconstpointer data)
{
  guint a = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_UNKNOWN);
  guint b = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_UNKNOWN);
  TraceEvent ma = sync_marker (f, "k", S (7), 0);
  TraceEvent mb = sync_marker (f, "k", S (3), 0);

  clocksync_solver_add_marker (f->solver, a, &ma);
  clocksync_solver_add_marker (f->solver, b, &mb);
  clocksync_solver_solve (f->solver);
  /* Neither reaches boot time; the first passes through, the second
   * stays with it. */
  g_assert_false (decision (f, a)->on_target);
  g_assert_false (decision (f, b)->on_target);
  g_assert_cmpint (decision (f, a)->offset, ==, 0);
  g_assert_cmpint (decision (f, b)->offset, ==, S (4));
}

static void
test_late_markers (Fixture *f,
                   gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint arkts = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_MONOTONIC);
  TraceEvent first = pair_marker (TRACE_CLOCK_MARKER_PAIR, S (1000), TRACE_CLOCK_MONOTONIC, S (400));
  TraceEvent same = pair_marker (TRACE_CLOCK_MARKER_PAIR, S (1100), TRACE_CLOCK_MONOTONIC, S (500));
  TraceEvent moved = pair_marker (TRACE_CLOCK_MARKER_PAIR, S (1200), TRACE_CLOCK_MONOTONIC, S (590));
  g_autofree char *quiet = NULL, *loud = NULL;

  clocksync_solver_add_marker (f->solver, ftrace, &first);
  clocksync_solver_solve (f->solver);
  g_assert_cmpint (decision (f, arkts)->offset, ==, S (600));
  /* A later pair that agrees says nothing new. */
  quiet = clocksync_solver_check_late_marker (f->solver, ftrace, &same);
  g_assert_null (quiet);
  /* One 10 s off (a suspend between the two) is reported. */
  loud = clocksync_solver_check_late_marker (f->solver, ftrace, &moved);
  g_assert_cmpstr (loud, ==,
                   "the clock pair marker of sink_0 at 1200.000000000 s (monotonic 590.000000000 s) came after "
                   "the look-ahead: it would shift sink_0 by -10 s, -10 s from the +0 ns applied "
                   "(from stream-start); not applied backwards");
}

static void
test_late_marker_ties_untied_input (Fixture *f,
                                    gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint arkts = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_MONOTONIC);
  TraceEvent late = pair_marker (TRACE_CLOCK_MARKER_PARENT_TS, S (1000), TRACE_CLOCK_MONOTONIC, S (400));
  g_autofree char *text = NULL;

  clocksync_solver_solve (f->solver);
  g_assert_false (decision (f, arkts)->on_target);
  text = clocksync_solver_check_late_marker (f->solver, ftrace, &late);
  g_assert_cmpstr (text, ==,
                   "the parent_ts marker of sink_0 at 1000.000000000 s (monotonic 400.000000000 s) came after "
                   "the look-ahead: it would shift sink_1 by +600 s onto the boottime clock, but markers are "
                   "not applied backwards");
}

static void
test_late_sync_pair (Fixture *f,
                     gconstpointer data)
{
  guint ftrace = clocksync_solver_add_input (f->solver, "sink_0", TRACE_CLOCK_BOOTTIME);
  guint json = clocksync_solver_add_input (f->solver, "sink_1", TRACE_CLOCK_UNKNOWN);
  TraceEvent a = sync_marker (f, "late", S (50), 0);
  TraceEvent b = sync_marker (f, "late", S (20), 0);
  g_autofree char *first = NULL, *second = NULL;

  clocksync_solver_solve (f->solver);
  /* Half a pair says nothing yet; the other half completes it. */
  first = clocksync_solver_check_late_marker (f->solver, ftrace, &a);
  g_assert_null (first);
  second = clocksync_solver_check_late_marker (f->solver, json, &b);
  g_assert_nonnull (second);
  g_assert_true (g_str_has_suffix (second, "it would shift sink_1 by +30 s onto the boottime clock, but markers "
                                           "are not applied backwards"));
}

static TraceEvent *
append_marker (TraceBatch *b,
               TraceClockMarkerKind kind,
               gint64 ts,
               TraceClockDomain domain,
               gint64 other_ts,
               gint64 issue_ts)
{
  TraceEvent *ev = trace_batch_append (b, TRACE_EVENT_CLOCK_MARKER, ts);

  ev->u.clock.marker = kind;
  ev->u.clock.domain = domain;
  ev->u.clock.other_ts = other_ts;
  ev->u.clock.issue_ts = issue_ts;
  return ev;
}

/* An input on monotonic moved by +600 s onto boot time. */
static void
test_shift_batch (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) b = trace_batch_new (pool, 8);
  TraceEvent *ev;

  trace_batch_append (b, TRACE_EVENT_PROCESS_NAME, 0);
  trace_batch_append (b, TRACE_EVENT_THREAD_NAME, S (2));
  ev = trace_batch_append (b, TRACE_EVENT_SLICE_COMPLETE, S (3));
  ev->u.slice.dur = MS (7);
  append_marker (b, TRACE_CLOCK_MARKER_SYNC_ID, S (4), TRACE_CLOCK_MONOTONIC, 0, S (4) - US (10));
  append_marker (b, TRACE_CLOCK_MARKER_SYNC_ID, S (5), TRACE_CLOCK_UNKNOWN, 0, 0);
  append_marker (b, TRACE_CLOCK_MARKER_PAIR, S (6), TRACE_CLOCK_MONOTONIC, S (6), 0);
  append_marker (b, TRACE_CLOCK_MARKER_REALTIME_TS, S (7), TRACE_CLOCK_REALTIME, S (1700000000), 0);
  trace_batch_append (b, TRACE_EVENT_INSTANT, G_MAXINT64 - 10);
  /* Names do not say where a batch starts. */
  g_assert_cmpint (clocksync_batch_start (b), ==, S (3));

  clocksync_shift_batch (b, S (600), TRACE_CLOCK_MONOTONIC, TRACE_CLOCK_BOOTTIME);
  /* A name at 0 has no time; one with a time moves. */
  g_assert_cmpint (b->events[0].ts, ==, 0);
  g_assert_cmpint (b->events[1].ts, ==, S (602));
  g_assert_cmpint (b->events[2].ts, ==, S (603));
  g_assert_cmpint (b->events[2].u.slice.dur, ==, MS (7));
  /* A sync's issue_ts is in the stream's clock; so is its domain. */
  g_assert_cmpint (b->events[3].ts, ==, S (604));
  g_assert_cmpint (b->events[3].u.clock.issue_ts, ==, S (604) - US (10));
  g_assert_cmpint (b->events[3].u.clock.domain, ==, TRACE_CLOCK_BOOTTIME);
  /* issue_ts 0 means none: it stays 0. */
  g_assert_cmpint (b->events[4].u.clock.issue_ts, ==, 0);
  g_assert_cmpint (b->events[4].u.clock.domain, ==, TRACE_CLOCK_UNKNOWN);
  /* A pair naming the stream's own clock is about the stream: it moves. */
  g_assert_cmpint (b->events[5].u.clock.other_ts, ==, S (606));
  g_assert_cmpint (b->events[5].u.clock.domain, ==, TRACE_CLOCK_BOOTTIME);
  /* One naming another clock keeps that clock's reading. */
  g_assert_cmpint (b->events[6].ts, ==, S (607));
  g_assert_cmpint (b->events[6].u.clock.other_ts, ==, S (1700000000));
  g_assert_cmpint (b->events[6].u.clock.domain, ==, TRACE_CLOCK_REALTIME);
  /* No wrap-around at the end of the range. */
  g_assert_cmpint (b->events[7].ts, ==, G_MAXINT64);
}

#define ADD(path, func) \
  g_test_add ("/clocksync/solver/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/clocksync/parent-ts-precision", test_parent_ts_precision);
  g_test_add_func ("/clocksync/format-duration", test_format_duration);
  g_test_add_func ("/clocksync/shift-batch", test_shift_batch);
  ADD ("stream-start-alone", test_stream_start_alone);
  ADD ("sync-id-midpoint", test_sync_id_midpoint);
  ADD ("sync-id-without-issue-ts", test_sync_id_without_issue_ts);
  ADD ("parent-ts-ties-monotonic", test_parent_ts_ties_monotonic);
  ADD ("parent-ts-zero-means-same-clock", test_parent_ts_zero_means_same_clock);
  ADD ("realtime-ts", test_realtime_ts);
  ADD ("unusable-and-too-many", test_unusable_and_too_many);
  ADD ("sync-beats-parent-ts", test_sync_beats_parent_ts);
  ADD ("agreeing-evidence-is-no-conflict", test_agreeing_evidence_is_no_conflict);
  ADD ("stream-start-beats-sync", test_stream_start_beats_sync);
  ADD ("offset-property", test_offset_property);
  ADD ("marker-beats-offset-property", test_marker_beats_offset_property);
  ADD ("domain-property-with-offset", test_domain_property_with_offset);
  ADD ("guess-nearest-clock", test_guess_nearest_clock);
  ADD ("guess-same-as-other-input", test_guess_same_as_other_input);
  ADD ("no-way", test_no_way);
  ADD ("untied-group-keeps-its-pairs", test_untied_group_keeps_its_pairs);
  ADD ("late-markers", test_late_markers);
  ADD ("late-marker-ties-untied-input", test_late_marker_ties_untied_input);
  ADD ("late-sync-pair", test_late_sync_pair);
  return g_test_run ();
}
