/* End to end: a RheaTrace (btrace 1.x) raw capture made by a
 * seeded simulation goes through
 *
 *   ftrace-src location=CAPTURE ! rhea-repair ! json-sink location=OUT
 *
 * and OUT, read back with json-glib, is checked against the truth the
 * simulation recorded: every call found with its begin and name, the
 * output balanced, returns and throws ending exactly, and the calls an
 * exception unwound ending far closer to the truth than btrace's own
 * rule (close them at their caller's later return) on the same capture.
 *
 * The simulated app: 4 threads (the main thread's tid is the pid), each
 * running a message loop whose handler catches everything.  Methods are
 * instrumented (they write `B:` at entry, `E:` at a normal return, `T:` at
 * their own throw) or not (they write nothing, and may throw too: no
 * `T:` then); some catch what their callees throw; native leaves write
 * plain `B|pid|name` / `E|pid` atrace.  An exception writes nothing in
 * the frames it passes through: those are the frames to repair.  The
 * last thread dies of an exception nothing catches.
 */
#include <string.h>

#include "timeline-util.h"

#define N_THREADS 4
#define N_MESSAGES 250
#define MAX_DEPTH 6
#define NAMES_PER_DEPTH 40
#define APP_PID 9100
#define BOOT_START_US G_GINT64_CONSTANT (86400000000) /* one day after boot */
#define MONO_BEHIND_US G_GINT64_CONSTANT (3600123456) /* suspended for an hour */

typedef enum
{
  ENDED_BY_RETURN,
  ENDED_BY_THROW,  /* its own T: is its end */
  ENDED_BY_UNWIND, /* an exception from below left it: no marker */
  ENDED_NATIVE,    /* a plain atrace slice */
  N_ENDINGS
} Ending;

/* What leaves a method. */
typedef enum
{
  LEFT_BY_RETURN,
  LEFT_BY_MARKED_THROW,   /* the exception's thrower wrote its T: */
  LEFT_BY_UNMARKED_THROW, /* thrown by uninstrumented code: no T: anywhere */
} Exit;

typedef struct
{
  guint thread;
  guint method;
  gint64 begin_us;
  gint64 end_us;
  Ending how;
  Exit cause; /* for ENDED_BY_UNWIND: which kind of exception */
} Call;

/* One line of the capture: `B`, `E`, `T` markers, `b`/`e` plain atrace. */
typedef struct
{
  gint64 us;
  guint thread;
  char what;
  guint method;
} Line;

typedef struct
{
  GRand *rng;
  GArray *lines; /* Line */
  GArray *calls; /* Call */
  guint thread;
  gint64 now_us;
} App;

static gint64
tid_of (guint thread)
{
  return thread == 0 ? APP_PID : APP_PID + 11 + thread;
}

static char *
method_name (guint method)
{
  return g_strdup_printf ("Screen%u:on%uEvent", method % 9, method);
}

static void
spend (App *app,
       gint64 min_us,
       gint64 max_us)
{
  app->now_us += min_us + g_rand_int_range (app->rng, 0, (gint32) (max_us - min_us) + 1);
}

/* Writing a line takes time: a thread never writes two lines in the same
 * microsecond, so (thread, begin) names one call. */
static void
write_line (App *app,
            char what,
            guint method)
{
  Line l = { app->now_us, app->thread, what, method };

  g_array_append_val (app->lines, l);
  spend (app, 1, 2);
}

static guint
begin_call (App *app,
            guint method,
            Ending how)
{
  Call c = { app->thread, method, app->now_us, -1, how, LEFT_BY_RETURN };

  g_array_append_val (app->calls, c);
  return app->calls->len - 1;
}

static void
end_call (App *app,
          gint call,
          gint64 at_us,
          Ending how,
          Exit cause)
{
  if (call < 0)
    return;
  g_array_index (app->calls, Call, call).end_us = at_us;
  g_array_index (app->calls, Call, call).how = how;
  g_array_index (app->calls, Call, call).cause = cause;
}

static void
native_leaf (App *app,
             guint method)
{
  guint call = begin_call (app, method, ENDED_NATIVE);

  write_line (app, 'b', method);
  spend (app, 1, 30);
  g_array_index (app->calls, Call, call).end_us = app->now_us;
  write_line (app, 'e', method);
}

/* Runs one method and what it calls; says how it was left.
 * Methods of one depth share a name space and depths never mix, so a
 * method never recurses (the ambiguous T:m E:m of recursion is pinned by
 * the unit tests, not here). */
static Exit
run_method (App *app,
            guint depth,
            gboolean catches_everything)
{
  gboolean instrumented = catches_everything || g_rand_double (app->rng) < 0.8;
  gboolean catches = catches_everything || g_rand_double (app->rng) < 0.4;
  guint method = depth * NAMES_PER_DEPTH + g_rand_int_range (app->rng, 0, NAMES_PER_DEPTH);
  gint call = instrumented ? (gint) begin_call (app, method, ENDED_BY_RETURN) : -1;
  guint steps = g_rand_int_range (app->rng, 0, depth < MAX_DEPTH ? 5 : 2);

  if (instrumented)
    write_line (app, 'B', method);
  spend (app, 1, 15);
  for (guint i = 0; i < steps; i++)
    {
      double what = g_rand_double (app->rng);

      if (what < 0.08)
        {
          gint64 thrown_at = app->now_us;

          if (instrumented)
            write_line (app, 'T', method);
          if (g_rand_double (app->rng) < 0.25)
            continue; /* a try/catch inside this very method */
          end_call (app, call, thrown_at, ENDED_BY_THROW, LEFT_BY_MARKED_THROW);
          return instrumented ? LEFT_BY_MARKED_THROW : LEFT_BY_UNMARKED_THROW;
        }
      if (what < 0.55 && depth < MAX_DEPTH)
        {
          Exit exit = run_method (app, depth + 1, FALSE);

          if (exit == LEFT_BY_RETURN)
            continue;
          spend (app, 0, 2); /* the unwinder reaches this frame */
          if (!catches)
            {
              end_call (app, call, app->now_us, ENDED_BY_UNWIND, exit);
              return exit;
            }
          spend (app, 1, 10); /* the handler's work */
          continue;
        }
      if (what < 0.7)
        native_leaf (app, 1000 + g_rand_int_range (app->rng, 0, 20));
      else
        spend (app, 1, 40);
    }
  if (instrumented)
    {
      end_call (app, call, app->now_us, ENDED_BY_RETURN, LEFT_BY_RETURN);
      write_line (app, 'E', method);
    }
  return LEFT_BY_RETURN;
}

static gint
line_order (gconstpointer a,
            gconstpointer b)
{
  const Line *x = a, *y = b;

  if (x->us != y->us)
    return x->us < y->us ? -1 : 1;
  return (gint) x->thread - (gint) y->thread;
}

static void
simulate (guint32 seed,
          GArray *lines,
          GArray *calls)
{
  App app = { g_rand_new_with_seed (seed), lines, calls, 0, 0 };

  for (app.thread = 0; app.thread < N_THREADS; app.thread++)
    {
      app.now_us = BOOT_START_US + 100 + g_rand_int_range (app.rng, 0, 500);
      for (guint m = 0; m < N_MESSAGES; m++)
        {
          run_method (&app, 0, TRUE);
          spend (&app, 5, 80);
        }
      if (app.thread == N_THREADS - 1)
        while (run_method (&app, 0, FALSE) == LEFT_BY_RETURN)
          ;
    }
  /* The ring buffer holds the lines of all threads in time order. */
  g_array_sort (lines, line_order);
  g_rand_free (app.rng);
}

/* ---- the capture ------------------------------------------------------------ */

/* The capture as btrace writes it; @n_lines < lines->len: the ring
 * buffer was too small or the app died, there is no TRACE_END. */
static char *
capture_text (GArray *lines,
              guint n_lines)
{
  GString *out = g_string_new (NULL);
  g_autofree char *start = tl_format_us (BOOT_START_US);
  g_autofree char *mono = tl_format_us (BOOT_START_US - MONO_BEHIND_US);
  gint64 last_us = g_array_index (lines, Line, n_lines - 1).us;

  /* TRACE_START: its tid field is the thread that started tracing, the
   * app's main thread; the clock pair comes right after it. */
  g_string_append_printf (out, "512|TRACE_START|%" G_GINT64_FORMAT "|%d|2147483647|2|18316\n",
                          BOOT_START_US * TL_US, APP_PID);
  g_string_append_printf (out, "%s %d: B|%d|monotonic_time: %s\n", start, APP_PID, APP_PID, mono);
  for (guint i = 0; i < n_lines; i++)
    {
      const Line *l = &g_array_index (lines, Line, i);
      g_autofree char *ts = tl_format_us (l->us);
      g_autofree char *name = method_name (l->method);

      g_string_append_printf (out, "%s %" G_GINT64_FORMAT ": ", ts, tid_of (l->thread));
      if (l->what == 'e')
        g_string_append_printf (out, "E|%d\n", APP_PID);
      else if (l->what == 'b')
        g_string_append_printf (out, "B|%d|nativePollOnce%u\n", APP_PID, l->method);
      else
        g_string_append_printf (out, "B|%d|%c:%s\n", APP_PID, l->what, name);
    }
  if (n_lines == lines->len)
    g_string_append_printf (out, "513|TRACE_END|%" G_GINT64_FORMAT "|%d|2147483647|2|18316\n",
                            last_us * TL_US, APP_PID);
  return g_string_free (out, FALSE);
}

/* ---- btrace's rule -------------------------------------------------------- */

typedef struct
{
  guint method;
  gint64 begin_us;
} Open;

static gint64
call_key (guint thread,
          gint64 begin_us)
{
  return begin_us * N_THREADS + thread;
}

static void
btrace_close (GHashTable *ends,
              guint thread,
              GArray *stack,
              guint down_to,
              gint64 at_us)
{
  while (stack->len > down_to)
    {
      gint64 key = call_key (thread, g_array_index (stack, Open, stack->len - 1).begin_us);

      g_hash_table_insert (ends, g_memdup2 (&key, sizeof key), g_memdup2 (&at_us, sizeof at_us));
      g_array_set_size (stack, stack->len - 1);
    }
}

/* btrace 1.x (trace_doctor.repair_rhea_lines_nosort, FORMATS.md §6.2),
 * run on one thread's markers: E:m ends the innermost open m and every
 * frame opened above it, at E:m's time (the caller's later return); a T:y
 * directly followed by E:y is a throw y caught and is ignored, another
 * T:y ends y there; what is open at the end is a zero-length slice. */
static void
btrace_thread (GArray *lines,
               guint thread,
               GHashTable *ends)
{
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Open));
  g_autoptr (GArray) mine = g_array_new (FALSE, FALSE, sizeof (Line));

  for (guint i = 0; i < lines->len; i++)
    if (g_array_index (lines, Line, i).thread == thread && strchr ("BET", g_array_index (lines, Line, i).what))
      g_array_append_val (mine, g_array_index (lines, Line, i));
  for (guint i = 0; i < mine->len; i++)
    {
      const Line *l = &g_array_index (mine, Line, i);
      const Line *next = i + 1 < mine->len ? &g_array_index (mine, Line, i + 1) : NULL;
      gint at = -1;

      if (l->what == 'B')
        {
          Open o = { l->method, l->us };

          g_array_append_val (stack, o);
          continue;
        }
      if (l->what == 'T' && next && next->what == 'E' && next->method == l->method)
        continue;
      for (gint j = (gint) stack->len - 1; j >= 0 && at < 0; j--)
        if (g_array_index (stack, Open, j).method == l->method)
          at = j;
      if (at >= 0)
        btrace_close (ends, thread, stack, at, l->us);
    }
  for (guint j = 0; j < stack->len; j++)
    {
      gint64 key = call_key (thread, g_array_index (stack, Open, j).begin_us);
      gint64 at_us = g_array_index (stack, Open, j).begin_us;

      g_hash_table_insert (ends, g_memdup2 (&key, sizeof key), g_memdup2 (&at_us, sizeof at_us));
    }
}

static GHashTable *
btrace_ends (GArray *lines)
{
  GHashTable *ends = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  for (guint t = 0; t < N_THREADS; t++)
    btrace_thread (lines, t, ends);
  return ends;
}

/* ---- checking the output ---------------------------------------------------- */

typedef struct
{
  guint n[N_ENDINGS];
  guint exact[N_ENDINGS];
  double error_us[N_ENDINGS];
  /* unwound calls, by the kind of exception that left them */
  guint unwound[3];
  double unwound_error_us[3];
  double btrace_error_us[3];
} Score;

static const char *const expected_repair[N_ENDINGS] = {
  [ENDED_BY_RETURN] = NULL,
  [ENDED_BY_THROW] = "exited-by-throw",
  [ENDED_NATIVE] = NULL,
};

static void
check_call (const Call *c,
            GHashTable *index,
            GHashTable *btrace,
            Score *sc)
{
  TlSlice key = { .tid = tid_of (c->thread), .begin = c->begin_us * TL_US };
  const TlSlice *s = g_hash_table_lookup (index, &key);
  g_autofree char *name = c->how == ENDED_NATIVE ? g_strdup_printf ("nativePollOnce%u", c->method)
                                                 : method_name (c->method);
  gint64 bkey = call_key (c->thread, c->begin_us);
  gint64 end_us;

  /* found with its begin, its thread and its name, without its marker */
  if (s == NULL)
    g_error ("the call of %s on tid %" G_GINT64_FORMAT " at %" G_GINT64_FORMAT " us is missing", name,
             key.tid, c->begin_us);
  g_assert_cmpstr (s->name, ==, name);
  g_assert_cmpint (s->pid, ==, APP_PID);
  end_us = s->end / TL_US;
  g_assert_cmpint (s->end % TL_US, ==, 0);
  sc->n[c->how]++;
  sc->exact[c->how] += end_us == c->end_us;
  sc->error_us[c->how] += ABS (end_us - c->end_us);
  if (c->how == ENDED_BY_UNWIND)
    {
      const gint64 *bt = g_hash_table_lookup (btrace, &bkey);

      g_assert_nonnull (bt);
      sc->unwound[c->cause]++;
      sc->unwound_error_us[c->cause] += ABS (end_us - c->end_us);
      sc->btrace_error_us[c->cause] += ABS (*bt - c->end_us);
      /* the repair says what it did */
      g_assert_nonnull (s->repair);
      g_assert_true (g_str_equal (s->repair, "unwound-by-exception") || g_str_equal (s->repair, "closed-at-eos") ||
                     g_str_equal (s->repair, "exited-by-throw"));
    }
  else
    g_assert_cmpstr (s->repair, ==, expected_repair[c->how]);
}

/* Writes the first @n_lines of the capture, runs the pipeline and reads
 * its output back; the slices are asserted balanced on the way. */
static GArray *
repair_capture (GArray *lines,
                guint n_lines,
                TlRun **run)
{
  g_autofree char *capture = tl_tmp_path ("rhea-atrace");
  g_autofree char *out = tl_tmp_path ("repaired.json");
  g_autofree char *text = capture_text (lines, n_lines);
  g_autofree char *desc = NULL;
  g_autoptr (JsonNode) events = NULL;

  tl_write (capture, text);
  desc = g_strdup_printf ("ftrace-src location=\"%s\" ! rhea-repair name=repair ! json-sink location=\"%s\"",
                          capture, out);
  *run = tl_run (desc);
  g_assert_cmpint ((*run)->end->type, ==, TRACE_MESSAGE_EOS);
  events = tl_read_json (out);
  return tl_slices_from_json (events);
}

static double
mean (double sum,
      guint n)
{
  return n ? sum / n : 0;
}

static void
report_score (guint32 seed,
              GArray *lines,
              GArray *calls,
              const Score *sc)
{
  const Exit m = LEFT_BY_MARKED_THROW, u = LEFT_BY_UNMARKED_THROW;

  g_test_message ("seed %u: %u lines, %u calls (%u returned, %u threw, %u unwound, %u native); "
                  "unwound calls' mean end error %.1f us, btrace's rule %.1f us; "
                  "%u unwound by an exception with a T: %.1f us (btrace %.1f us), "
                  "%u by one from uninstrumented code %.1f us (btrace %.1f us)",
                  seed, lines->len, calls->len, sc->n[ENDED_BY_RETURN], sc->n[ENDED_BY_THROW],
                  sc->n[ENDED_BY_UNWIND], sc->n[ENDED_NATIVE],
                  mean (sc->error_us[ENDED_BY_UNWIND], sc->n[ENDED_BY_UNWIND]),
                  mean (sc->btrace_error_us[m] + sc->btrace_error_us[u], sc->n[ENDED_BY_UNWIND]),
                  sc->unwound[m], mean (sc->unwound_error_us[m], sc->unwound[m]),
                  mean (sc->btrace_error_us[m], sc->unwound[m]),
                  sc->unwound[u], mean (sc->unwound_error_us[u], sc->unwound[u]),
                  mean (sc->btrace_error_us[u], sc->unwound[u]));
}

static void
check_seed (guint32 seed)
{
  g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (Call));
  g_autoptr (TlRun) run = NULL;
  g_autoptr (GArray) slices = NULL;
  g_autoptr (GHashTable) index = NULL, btrace = NULL;
  const Exit m = LEFT_BY_MARKED_THROW, u = LEFT_BY_UNMARKED_THROW;
  Score sc = { 0 };

  simulate (seed, lines, calls);
  slices = repair_capture (lines, lines->len, &run);
  index = tl_slices_index (slices);
  btrace = btrace_ends (lines);
  /* one slice per call, nothing made up */
  g_assert_cmpuint (slices->len, ==, calls->len);
  for (guint i = 0; i < calls->len; i++)
    check_call (&g_array_index (calls, Call, i), index, btrace, &sc);
  report_score (seed, lines, calls, &sc);

  /* the simulation exercised every case */
  for (guint h = 0; h < N_ENDINGS; h++)
    g_assert_cmpuint (sc.n[h], >, 30);
  g_assert_cmpuint (sc.unwound[m], >, 30);
  g_assert_cmpuint (sc.unwound[u], >, 10);
  /* a return or a throw is where a call ends: exact */
  g_assert_cmpuint (sc.exact[ENDED_BY_RETURN], ==, sc.n[ENDED_BY_RETURN]);
  g_assert_cmpuint (sc.exact[ENDED_BY_THROW], ==, sc.n[ENDED_BY_THROW]);
  g_assert_cmpuint (sc.exact[ENDED_NATIVE], ==, sc.n[ENDED_NATIVE]);
  /* far below btrace's rule: overall, and most where a T: tells where
   * the exception came from (what is left there is the unwinding time,
   * and frames without markers under two throws: they end at the T: of
   * the nearer thrower, not at the later one that really left them) */
  g_assert_cmpfloat (sc.error_us[ENDED_BY_UNWIND] * 3, <, sc.btrace_error_us[m] + sc.btrace_error_us[u]);
  g_assert_cmpfloat (sc.unwound_error_us[m] * 5, <, sc.btrace_error_us[m]);

  /* what the element reported */
  g_assert_cmpint (tl_run_stat (run, "repair", "methods"), ==, calls->len - sc.n[ENDED_NATIVE]);
  g_assert_cmpint (tl_run_stat (run, "repair", "unmatched-returns"), ==, 0);
  g_assert_cmpint (tl_run_stat (run, "repair", "unmatched-ends"), ==, 0);
  g_assert_cmpint (tl_run_stat (run, "repair", "unwound"), >, 0);
  g_assert_nonnull (tl_run_find (run, TRACE_MESSAGE_WARNING, "repair", "unwound by an exception"));
  /* a complete capture: no cut-off warning from the source */
  g_assert_null (tl_run_find (run, TRACE_MESSAGE_WARNING, "ftrace-src0", "cut off"));
  tl_tmp_cleanup ();
}

static void
test_generated_captures (void)
{
  check_seed (3);
  check_seed (2025);
}

/* A capture cut at 60 % of its lines (no TRACE_END): the calls that began
 * before the cut are all there; those that ended before it end exactly
 * where they ended; those still running are closed within what the
 * capture holds of their thread, and marked as repaired. */
static void
test_cut_off_capture (void)
{
  g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (Call));
  g_autoptr (TlRun) run = NULL;
  g_autoptr (GArray) slices = NULL;
  g_autoptr (GHashTable) index = NULL;
  gint64 last_us[N_THREADS] = { 0 };
  guint n_lines, begun = 0, running = 0;
  gint64 cut_us;

  simulate (77, lines, calls);
  n_lines = lines->len * 6 / 10;
  cut_us = g_array_index (lines, Line, n_lines - 1).us;
  while (n_lines < lines->len && g_array_index (lines, Line, n_lines).us == cut_us)
    n_lines++; /* the whole microsecond, so "before the cut" is a time */
  for (guint i = 0; i < n_lines; i++)
    last_us[g_array_index (lines, Line, i).thread] = g_array_index (lines, Line, i).us;
  slices = repair_capture (lines, n_lines, &run);
  index = tl_slices_index (slices);

  for (guint i = 0; i < calls->len; i++)
    {
      const Call *c = &g_array_index (calls, Call, i);
      TlSlice key = { .tid = tid_of (c->thread), .begin = c->begin_us * TL_US };
      const TlSlice *s = g_hash_table_lookup (index, &key);

      if (c->begin_us > cut_us)
        {
          g_assert_null (s);
          continue;
        }
      g_assert_nonnull (s);
      begun++;
      if (c->end_us <= cut_us && c->how != ENDED_BY_UNWIND)
        g_assert_cmpint (s->end, ==, c->end_us * TL_US);
      else if (c->end_us > cut_us)
        {
          running++;
          g_assert_cmpint (s->end, <=, last_us[c->thread] * TL_US);
          g_assert_nonnull (s->repair);
        }
    }
  g_test_message ("cut at %u of %u lines: %u calls begun, %u still running", n_lines, lines->len, begun, running);
  g_assert_cmpuint (slices->len, ==, begun);
  g_assert_cmpuint (running, >=, N_THREADS - 1);
  g_assert_cmpint (tl_run_stat (run, "repair", "closed-at-eos"), >, 0);
  g_assert_nonnull (tl_run_find (run, TRACE_MESSAGE_WARNING, "ftrace-src0", "cut off"));
  tl_tmp_cleanup ();
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/timeline/rhea-repair/generated-captures", test_generated_captures);
  g_test_add_func ("/timeline/rhea-repair/cut-off-capture", test_cut_off_capture);
  return g_test_run ();
}
