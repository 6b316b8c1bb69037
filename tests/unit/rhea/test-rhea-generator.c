/* Generator test for the `rhea-repair` logic (plugins/rhea/)
 *
 * Simulates method calls with exceptions on several threads (seeded):
 * instrumented methods write `B:` at entry, `E:` at a normal return and
 * `T:` at their own throw, as RheaTrace does; uninstrumented methods
 * write nothing but may throw; an exception leaves every frame without a
 * handler (no marker for them).  The simulation also records the true
 * begin and end of every instrumented call.  The marker stream, merged
 * across threads in time order and cut into batches, goes through the
 * repair; the output must hold every call with its begin, be balanced,
 * and the end of unwound calls must be far closer to the truth than
 * btrace's rule (close an unwound frame at its caller's later return).
 *
 * A second model throws on purpose several frames deep, each
 * caller catching with probability 1/2 and a catcher sometimes calling
 * further methods before its E:; in a variant the exception may escape
 * to the uninstrumented message loop, which only the hold limit or EOS
 * decides.
 */
#include <trace/trace.h>

#include <string.h>

#include "rhea-private.h"

#define N_THREADS 4
#define N_TOP_CALLS 400
#define N_NAMES_PER_DEPTH 60
#define MAX_DEPTH 7
#define US 1000
#define MARK_MAX_TIME (3 * US) /* writing a marker takes 1 to 3 us */

typedef enum
{
  CALL_RETURNED,
  CALL_THREW,   /* ended by its own T: */
  CALL_UNWOUND, /* an exception from below left it */
} CallEnd;

typedef struct
{
  guint thread;
  guint name;
  gint64 begin;
  gint64 end;
  CallEnd how;
} TrueCall;

typedef struct
{
  gint64 ts;
  guint thread;
  char marker; /* 'B', 'E', 'T' */
  guint name;
} Mark;

typedef struct
{
  GRand *rand;
  GArray *marks; /* Mark */
  GArray *calls; /* TrueCall */
  guint thread;
  gint64 now;
} Sim;

static void
advance (Sim *s,
         gint64 min_ns,
         gint64 max_ns)
{
  s->now += g_rand_int_range (s->rand, (gint32) min_ns, (gint32) max_ns + 1);
}

/* A marker at `now`; time moves on, so markers of a thread never share a
 * timestamp and (thread, begin) names a call. */
static void
mark (Sim *s,
      char marker,
      guint name)
{
  Mark m = { s->now, s->thread, marker, name };

  g_array_append_val (s->marks, m);
  advance (s, 1 * US, MARK_MAX_TIME);
}

static void
finish (Sim *s,
        gint call,
        gint64 end,
        CallEnd how)
{
  if (call < 0)
    return;
  g_array_index (s->calls, TrueCall, call).end = end;
  g_array_index (s->calls, TrueCall, call).how = how;
}

static gint
enter (Sim *s,
       guint name,
       gboolean instrumented)
{
  TrueCall c = { s->thread, name, s->now, -1, CALL_RETURNED };

  if (!instrumented)
    return -1;
  g_array_append_val (s->calls, c);
  mark (s, 'B', name);
  return s->calls->len - 1;
}

/* One call and everything below it.  Names repeat (siblings, other
 * calls) but a method never calls itself: a T:m directly followed by E:m
 * with another m open below is ambiguous (docs/rhea-repair.md), the unit
 * tests pin down what the repair does then.  (@catches_all: an instrumented call
 * that catches whatever its callees throw).  Returns TRUE when an
 * exception leaves it. */
static gboolean
sim_call (Sim *s,
          guint depth,
          gboolean catches_all)
{
  gboolean instrumented = catches_all || g_rand_double (s->rand) < 0.85;
  gboolean has_handler = catches_all || g_rand_double (s->rand) < 0.35;
  guint name = depth * N_NAMES_PER_DEPTH + g_rand_int_range (s->rand, 0, N_NAMES_PER_DEPTH);
  gint call = enter (s, name, instrumented);
  guint n_actions = g_rand_int_range (s->rand, 0, depth < MAX_DEPTH ? 5 : 2);

  advance (s, 1 * US, 20 * US);
  for (guint a = 0; a < n_actions; a++)
    {
      double r = g_rand_double (s->rand);

      if (r < 0.07)
        {
          gint64 throw_ts = s->now;

          if (instrumented)
            mark (s, 'T', name);
          if (g_rand_double (s->rand) < 0.3)
            continue; /* caught inside this method */
          finish (s, call, throw_ts, CALL_THREW);
          return TRUE;
        }
      if (r < 0.6 && depth < MAX_DEPTH)
        {
          if (!sim_call (s, depth + 1, FALSE))
            continue;
          advance (s, 0, 2 * US); /* unwinding reaches this frame */
          if (has_handler)
            {
              advance (s, 1 * US, 10 * US);
              continue;
            }
          finish (s, call, s->now, CALL_UNWOUND);
          return TRUE;
        }
      advance (s, 1 * US, 50 * US);
    }
  if (instrumented)
    {
      finish (s, call, s->now, CALL_RETURNED);
      mark (s, 'E', name);
    }
  return FALSE;
}

static gint
mark_compare (gconstpointer a,
              gconstpointer b)
{
  const Mark *ma = a, *mb = b;

  if (ma->ts != mb->ts)
    return ma->ts < mb->ts ? -1 : 1;
  return (gint) ma->thread - (gint) mb->thread;
}

/* ---- the propagation model ------------------------------------------------ */

/* Exceptions thrown several frames deep on purpose: the thrower writes
 * its `T:` or, now and then, is uninstrumented code that writes nothing;
 * the exception goes up and each caller catches it with probability 1/2;
 * a catcher sometimes calls further methods (which return normally)
 * before its own `E:`.  Calls off the exception's path return normally.
 * The top-level call of each message is an instrumented handler; in the
 * escape variant it is a caller like the others, and what it lets through
 * is caught by the thread's uninstrumented message loop (for exceptions
 * with a `T:` only: one without a marker that escapes every instrumented
 * frame leaves no trace at all, docs/rhea-repair.md). */
#define PROP_MAX_DEPTH 6
#define PROP_P_UNMARKED 0.2 /* the thrower is uninstrumented code */
#define PROP_P_CATCH 0.5
#define PROP_P_CATCHER_CALLS 0.5 /* a catcher calls 1 to 3 methods */
#define PROP_MAX_UNWIND (2 * US) /* the unwinder's time per frame */

typedef struct
{
  gboolean escapes; /* the top-level handler may let a T: exception through */
  GArray *unmarked; /* calls unwound by an exception without a T: */
  guint n_escaped;  /* exceptions that escaped to the loop */
} PropModel;

static guint
prop_name (Sim *s,
           guint depth)
{
  return depth * N_NAMES_PER_DEPTH + g_rand_int_range (s->rand, 0, N_NAMES_PER_DEPTH);
}

static void
sim_returning_call (Sim *s,
                    guint depth)
{
  guint name = prop_name (s, depth);
  gint call = enter (s, name, TRUE);

  advance (s, 1 * US, 20 * US);
  if (depth < PROP_MAX_DEPTH && g_rand_double (s->rand) < 0.4)
    {
      sim_returning_call (s, depth + 1);
      advance (s, 1 * US, 10 * US);
    }
  finish (s, call, s->now, CALL_RETURNED);
  mark (s, 'E', name);
}

/* The frame at @depth, on the exception's path, has been left by it:
 * does it catch it?  Its handler then may call further methods. */
static gboolean
prop_catches (Sim *s,
              PropModel *model,
              guint depth,
              gboolean marked)
{
  gboolean top = depth == 0;

  if (g_rand_double (s->rand) >= PROP_P_CATCH && (!top || (model->escapes && marked)))
    return FALSE;
  advance (s, 1 * US, 10 * US); /* the handler */
  if (g_rand_double (s->rand) < PROP_P_CATCHER_CALLS)
    for (guint i = g_rand_int_range (s->rand, 1, 4); i > 0; i--)
      {
        sim_returning_call (s, depth + 1);
        advance (s, 1 * US, 10 * US);
      }
  return TRUE;
}

/* A call on the exception's path: after a few calls that return, it calls
 * the next frame, down to @throw_depth where the exception is thrown (with
 * a `T:` when @marked).  Returns TRUE when the exception leaves it. */
static gboolean
sim_throw_path (Sim *s,
                PropModel *model,
                guint depth,
                guint throw_depth,
                gboolean marked)
{
  gboolean is_thrower = depth == throw_depth;
  gboolean instrumented = is_thrower ? marked : depth == 0 || g_rand_double (s->rand) < 0.9;
  guint name = prop_name (s, depth);
  gint call = enter (s, name, instrumented);
  guint n_before = g_rand_int_range (s->rand, 0, 3);

  advance (s, 1 * US, 20 * US);
  for (guint i = 0; i < n_before && depth < PROP_MAX_DEPTH; i++)
    {
      sim_returning_call (s, depth + 1);
      advance (s, 1 * US, 10 * US);
    }
  if (is_thrower)
    {
      finish (s, call, s->now, CALL_THREW);
      if (instrumented)
        mark (s, 'T', name);
      return TRUE;
    }
  if (sim_throw_path (s, model, depth + 1, throw_depth, marked))
    {
      advance (s, 0, PROP_MAX_UNWIND); /* unwinding reaches this frame */
      if (!prop_catches (s, model, depth, marked))
        {
          finish (s, call, s->now, CALL_UNWOUND);
          if (!marked && call >= 0)
            g_array_append_val (model->unmarked, call);
          return TRUE;
        }
    }
  advance (s, 1 * US, 20 * US);
  if (instrumented)
    {
      finish (s, call, s->now, CALL_RETURNED);
      mark (s, 'E', name);
    }
  return FALSE;
}

/* Each thread handles N_TOP_CALLS messages; half of them throw, from 2 to
 * PROP_MAX_DEPTH frames deep. */
static void
simulate_propagation (guint32 seed,
                      PropModel *model,
                      GArray *marks,
                      GArray *calls)
{
  Sim s = { g_rand_new_with_seed (seed), marks, calls, 0, 0 };

  for (s.thread = 0; s.thread < N_THREADS; s.thread++)
    {
      s.now = 1000000 * US + g_rand_int_range (s.rand, 0, 1000) * US;
      for (guint i = 0; i < N_TOP_CALLS; i++)
        {
          if (g_rand_double (s.rand) < 0.5)
            sim_returning_call (&s, 0);
          else
            {
              guint throw_depth = g_rand_int_range (s.rand, 2, PROP_MAX_DEPTH + 1);
              gboolean marked = g_rand_double (s.rand) >= PROP_P_UNMARKED;

              if (sim_throw_path (&s, model, 0, throw_depth, marked))
                model->n_escaped++;
            }
          advance (&s, 10 * US, 100 * US);
        }
    }
  g_array_sort (marks, mark_compare);
  g_rand_free (s.rand);
}

static void
simulate (guint32 seed,
          GArray *marks,
          GArray *calls)
{
  Sim s = { g_rand_new_with_seed (seed), marks, calls, 0, 0 };

  for (s.thread = 0; s.thread < N_THREADS; s.thread++)
    {
      s.now = 1000000 * US + g_rand_int_range (s.rand, 0, 1000) * US;
      /* Each message is dispatched by an instrumented method that
       * catches everything (an app's handler), so every exception is
       * caught by an instrumented frame that later returns... */
      for (guint i = 0; i < N_TOP_CALLS; i++)
        {
          sim_call (&s, 0, TRUE);
          advance (&s, 10 * US, 100 * US);
        }
      /* ...but the last thread's last call lets an exception escape: the
       * thread dies there (its capture ends). */
      if (s.thread == N_THREADS - 1)
        while (!sim_call (&s, 0, FALSE))
          ;
    }
  g_array_sort (marks, mark_compare); /* the capture is in time order */
  g_rand_free (s.rand);
}

/* ---- running the repair ---------------------------------------------------- */

static gint64
tid_of (guint thread)
{
  return thread == 0 ? 5000 : 5000 + 7 * thread;
}

static char *
method_name (guint name)
{
  return g_strdup_printf ("Class%u:method%u", name % 7, name);
}

/* The capture as RheaTrace records it: every marker a slice begin; with
 * @marker_ends each also followed by a plain end (some captures). */
static GPtrArray *
make_batches (TraceStringPool *pool,
              GArray *marks,
              gboolean marker_ends)
{
  GPtrArray *batches = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_batch_unref);
  TraceBatch *batch = NULL;

  for (guint i = 0; i < marks->len; i++)
    {
      const Mark *m = &g_array_index (marks, Mark, i);
      g_autofree char *method = method_name (m->name);
      g_autofree char *text = g_strdup_printf ("%c:%s", m->marker, method);
      TraceEvent *ev;

      if (batch == NULL || batch->n_events >= 777)
        {
          batch = trace_batch_new (pool, 800);
          g_ptr_array_add (batches, batch);
        }
      ev = trace_batch_append (batch, TRACE_EVENT_SLICE_BEGIN, m->ts);
      ev->pid = tid_of (0);
      ev->tid = tid_of (m->thread);
      ev->name = trace_string_pool_intern (pool, text);
      if (marker_ends)
        {
          ev = trace_batch_append (batch, TRACE_EVENT_SLICE_END, m->ts);
          ev->pid = tid_of (0);
          ev->tid = tid_of (m->thread);
        }
    }
  return batches;
}

typedef struct
{
  gint64 begin;
  gint64 end;
  guint32 name;
} OutSlice;

static gint64
call_key (guint thread,
          gint64 begin)
{
  return begin * N_THREADS + thread;
}

static guint
thread_of_tid (gint64 tid)
{
  for (guint t = 0; t < N_THREADS; t++)
    if (tid_of (t) == tid)
      return t;
  g_assert_not_reached ();
}

/* Replays the output per thread: it must be balanced and in time order.
 * Returns the slices by call_key(). */
static GHashTable *
collect_slices (GPtrArray *outputs)
{
  GHashTable *slices = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  GArray *stacks[N_THREADS];
  gint64 last_ts[N_THREADS];

  for (guint t = 0; t < N_THREADS; t++)
    {
      stacks[t] = g_array_new (FALSE, FALSE, sizeof (OutSlice));
      last_ts[t] = G_MININT64;
    }
  for (guint b = 0; b < outputs->len; b++)
    {
      TraceBatch *batch = outputs->pdata[b];

      for (guint i = 0; i < batch->n_events; i++)
        {
          const TraceEvent *ev = &batch->events[i];
          guint t = thread_of_tid (ev->tid);

          g_assert_cmpint (ev->ts, >=, last_ts[t]);
          last_ts[t] = ev->ts;
          if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
            {
              OutSlice s = { ev->ts, -1, ev->name };

              g_array_append_val (stacks[t], s);
            }
          else
            {
              OutSlice *s;
              gint64 *key = g_new (gint64, 1);

              g_assert_cmpint (ev->kind, ==, TRACE_EVENT_SLICE_END);
              g_assert_cmpuint (stacks[t]->len, >, 0);
              s = g_memdup2 (&g_array_index (stacks[t], OutSlice, stacks[t]->len - 1), sizeof *s);
              s->end = ev->ts;
              g_array_set_size (stacks[t], stacks[t]->len - 1);
              *key = call_key (t, s->begin);
              g_assert_false (g_hash_table_contains (slices, key));
              g_hash_table_insert (slices, key, s);
            }
        }
    }
  for (guint t = 0; t < N_THREADS; t++)
    {
      g_assert_cmpuint (stacks[t]->len, ==, 0);
      g_array_unref (stacks[t]);
    }
  return slices;
}

static GHashTable *
run_repair (TraceStringPool *pool,
            GArray *marks,
            gboolean marker_ends,
            guint max_hold,
            RheaRepairStats *stats)
{
  g_autoptr (GPtrArray) inputs = make_batches (pool, marks, marker_ends);
  g_autoptr (GPtrArray) outputs = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_batch_unref);
  g_autoptr (RheaRepair) repair = rhea_repair_new (pool);
  TraceBatch *tail;

  if (max_hold > 0)
    rhea_repair_set_max_hold (repair, max_hold);

  for (guint i = 0; i < inputs->len; i++)
    {
      TraceBatch *batch = trace_batch_ref (inputs->pdata[i]);

      rhea_repair_process (repair, batch);
      g_ptr_array_add (outputs, batch);
    }
  while ((tail = rhea_repair_drain (repair)) != NULL)
    g_ptr_array_add (outputs, tail);
  rhea_repair_get_stats (repair, stats);
  return collect_slices (outputs);
}

/* ---- btrace's rule, for comparison ----------------------------------------- */

typedef struct
{
  guint name;
  gint64 begin;
} BtFrame;

static void
bt_record (GHashTable *ends,
           guint thread,
           gint64 begin,
           gint64 end)
{
  gint64 *key = g_new (gint64, 1);

  *key = call_key (thread, begin);
  g_hash_table_insert (ends, key, g_memdup2 (&end, sizeof end));
}

/* btrace 1.x (trace_doctor, FORMATS.md §6.2) restated forwards: an E:m
 * pairs with the innermost open m and closes every frame above it at
 * E:m's time (their caller's later return); a T:y ends y at the T:, but a
 * T:m directly followed by E:m is a throw caught inside m and ignored;
 * frames still open at the end get a zero-length slice.  Returns the end
 * btrace gives each call, by call_key(). */
static GHashTable *
btrace_rule (GArray *marks)
{
  GHashTable *ends = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  GArray *stacks[N_THREADS];

  for (guint t = 0; t < N_THREADS; t++)
    stacks[t] = g_array_new (FALSE, FALSE, sizeof (BtFrame));
  for (guint i = 0; i < marks->len; i++)
    {
      const Mark *m = &g_array_index (marks, Mark, i);
      GArray *st = stacks[m->thread];
      gint at = -1;

      if (m->marker == 'B')
        {
          BtFrame f = { m->name, m->ts };

          g_array_append_val (st, f);
          continue;
        }
      if (m->marker == 'T')
        {
          /* settled by what follows it on the thread */
          for (guint j = i + 1; j < marks->len; j++)
            {
              const Mark *next = &g_array_index (marks, Mark, j);

              if (next->thread != m->thread)
                continue;
              if (next->marker == 'E' && next->name == m->name)
                m = NULL; /* caught inside */
              break;
            }
          if (m == NULL)
            continue;
        }
      for (gint j = (gint) st->len - 1; j >= 0 && at < 0; j--)
        if (g_array_index (st, BtFrame, j).name == m->name)
          at = j;
      if (at < 0)
        continue;
      while ((gint) st->len > at)
        {
          bt_record (ends, m->thread, g_array_index (st, BtFrame, st->len - 1).begin, m->ts);
          g_array_set_size (st, st->len - 1);
        }
    }
  for (guint t = 0; t < N_THREADS; t++)
    {
      for (guint j = 0; j < stacks[t]->len; j++)
        {
          gint64 begin = g_array_index (stacks[t], BtFrame, j).begin;

          bt_record (ends, t, begin, begin);
        }
      g_array_unref (stacks[t]);
    }
  return ends;
}

/* ---- the test ----------------------------------------------------------------- */

typedef struct
{
  guint n[3];
  guint exact[3];
  double error_sum[3];
  double btrace_error_sum[3];
} Score;

static void
score_calls (TraceStringPool *pool,
             GArray *calls,
             GHashTable *slices,
             GHashTable *btrace,
             Score *score)
{
  memset (score, 0, sizeof *score);
  for (guint i = 0; i < calls->len; i++)
    {
      const TrueCall *c = &g_array_index (calls, TrueCall, i);
      gint64 key = call_key (c->thread, c->begin);
      const OutSlice *s = g_hash_table_lookup (slices, &key);
      const gint64 *bt_end = g_hash_table_lookup (btrace, &key);
      g_autofree char *name = method_name (c->name);

      /* every call is found, with its begin and its name */
      g_assert_nonnull (s);
      g_assert_cmpstr (trace_string_pool_get (pool, s->name), ==, name);
      g_assert_nonnull (bt_end);
      g_assert_cmpint (s->end, >=, s->begin);
      score->n[c->how]++;
      score->exact[c->how] += s->end == c->end;
      score->error_sum[c->how] += ABS (s->end - c->end);
      score->btrace_error_sum[c->how] += ABS (*bt_end - c->end);
    }
}

static void
check_seed (guint32 seed,
            gboolean marker_ends)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GArray) marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (TrueCall));
  g_autoptr (GHashTable) slices = NULL, btrace = NULL;
  RheaRepairStats stats;
  Score sc;
  double ours, theirs;

  simulate (seed, marks, calls);
  slices = run_repair (pool, marks, marker_ends, 0, &stats);
  btrace = btrace_rule (marks);
  /* one output slice per instrumented call, nothing more */
  g_assert_cmpuint (g_hash_table_size (slices), ==, calls->len);
  score_calls (pool, calls, slices, btrace, &sc);

  ours = sc.error_sum[CALL_UNWOUND] / sc.n[CALL_UNWOUND];
  theirs = sc.btrace_error_sum[CALL_UNWOUND] / sc.n[CALL_UNWOUND];
  g_test_message ("seed %u%s: %u calls (%u returned, %u threw, %u unwound); "
                  "unwound mean end error %.1f us (btrace's rule %.1f us); "
                  "exact ends: returned %u, threw %u",
                  seed, marker_ends ? " with marker ends" : "", calls->len,
                  sc.n[CALL_RETURNED], sc.n[CALL_THREW], sc.n[CALL_UNWOUND],
                  ours / US, theirs / US, sc.exact[CALL_RETURNED], sc.exact[CALL_THREW]);

  /* the simulation must exercise every case */
  g_assert_cmpuint (sc.n[CALL_UNWOUND], >, 100);
  g_assert_cmpuint (sc.n[CALL_THREW], >, 100);
  g_assert_cmpuint (stats.unwound, >, 0);
  g_assert_cmpuint (stats.throws_caught, >, 0);
  /* far below btrace's rule (about a fifth on these seeds: what is left
   * is the work a catcher does after an unmarked exception, which the
   * stack can only attribute to the frame the exception left) */
  g_assert_cmpfloat (ours * 4, <, theirs);
  /* a return or a throw is where the call ended: exact */
  g_assert_cmpuint (sc.exact[CALL_RETURNED], ==, sc.n[CALL_RETURNED]);
  g_assert_cmpuint (sc.exact[CALL_THREW], ==, sc.n[CALL_THREW]);
  if (marker_ends)
    g_assert_cmpuint (stats.marker_ends, ==, marks->len);
  else
    g_assert_cmpuint (stats.marker_ends, ==, 0);
  g_assert_cmpuint (stats.unmatched_ends, ==, 0);
}

static void
test_generator (void)
{
  static const guint32 seeds[] = { 1, 7, 2024 };

  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    check_seed (seeds[i], FALSE);
}

static void
test_generator_marker_ends (void)
{
  check_seed (42, TRUE);
}

typedef struct
{
  guint n;
  double ours;   /* sums of absolute end errors */
  double theirs; /* btrace's rule */
  gint64 worst;
  guint late; /* ended later than the T: and the unwinding account for */
} UnwoundErrors;

/* The end errors of the unwound calls, by the kind of exception that left
 * them: [0] with a T:, [1] without (@model->unmarked). */
static void
unwound_errors (GArray *calls,
                PropModel *model,
                GHashTable *slices,
                GHashTable *btrace,
                UnwoundErrors errors[2])
{
  g_autofree guint8 *unmarked = g_new0 (guint8, calls->len);

  memset (errors, 0, 2 * sizeof *errors);
  for (guint i = 0; i < model->unmarked->len; i++)
    unmarked[g_array_index (model->unmarked, gint, i)] = 1;
  for (guint i = 0; i < calls->len; i++)
    {
      const TrueCall *c = &g_array_index (calls, TrueCall, i);
      gint64 key = call_key (c->thread, c->begin);
      const OutSlice *s = g_hash_table_lookup (slices, &key);
      UnwoundErrors *e = &errors[unmarked[i]];

      if (c->how != CALL_UNWOUND)
        continue;
      e->n++;
      e->ours += ABS (s->end - c->end);
      e->theirs += ABS (*(gint64 *) g_hash_table_lookup (btrace, &key) - c->end);
      e->worst = MAX (e->worst, ABS (s->end - c->end));
      e->late += ABS (s->end - c->end) > MARK_MAX_TIME + PROP_MAX_DEPTH * PROP_MAX_UNWIND;
    }
}

/* One seed of the propagation model, repaired with @max_hold (0: the
 * default). */
static void
check_propagation (guint32 seed,
                   gboolean escapes,
                   guint max_hold)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GArray) marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (TrueCall));
  g_autoptr (GArray) unmarked = g_array_new (FALSE, FALSE, sizeof (gint));
  g_autoptr (GHashTable) slices = NULL, btrace = NULL;
  PropModel model = { escapes, unmarked, 0 };
  RheaRepairStats stats;
  UnwoundErrors by_kind[2];
  Score sc;
  double ours, theirs;

  simulate_propagation (seed, &model, marks, calls);
  slices = run_repair (pool, marks, FALSE, max_hold, &stats);
  btrace = btrace_rule (marks);
  /* every call found once, by its begin, with its name (score_calls());
   * nothing left open: the output is balanced (collect_slices()) and no
   * frame waited for the end of the stream */
  g_assert_cmpuint (g_hash_table_size (slices), ==, calls->len);
  score_calls (pool, calls, slices, btrace, &sc);
  g_assert_cmpuint (stats.closed_at_eos, ==, 0);
  unwound_errors (calls, &model, slices, btrace, by_kind);

  ours = sc.error_sum[CALL_UNWOUND] / sc.n[CALL_UNWOUND];
  theirs = sc.btrace_error_sum[CALL_UNWOUND] / sc.n[CALL_UNWOUND];
  g_test_message ("propagation seed %u%s, max-hold %u: %u calls (%u returned, %u threw, %u unwound); "
                  "unwound mean end error %.1f us (btrace's rule %.1f us); "
                  "%u unwound by a T: %.1f us, worst %.1f us, %u beyond the unwinding (btrace %.1f us); "
                  "%u by an exception without T: %.1f us (btrace %.1f us); "
                  "%u escaped to the loop, %" G_GUINT64_FORMAT " hold overflows, max held %u",
                  seed, escapes ? " with escapes" : "", max_hold ? max_hold : RHEA_REPAIR_DEFAULT_MAX_HOLD,
                  calls->len, sc.n[CALL_RETURNED], sc.n[CALL_THREW], sc.n[CALL_UNWOUND], ours / US,
                  theirs / US, by_kind[0].n, by_kind[0].ours / by_kind[0].n / US,
                  (double) by_kind[0].worst / US, by_kind[0].late, by_kind[0].theirs / by_kind[0].n / US, by_kind[1].n,
                  by_kind[1].ours / by_kind[1].n / US, by_kind[1].theirs / by_kind[1].n / US,
                  model.n_escaped, stats.hold_overflows, stats.max_held);

  /* the simulation exercises both kinds of exception */
  g_assert_cmpuint (by_kind[0].n, >, 100);
  g_assert_cmpuint (by_kind[1].n, >, 30);
  /* the target: a quarter of btrace's error or less */
  g_assert_cmpfloat (ours * 4, <=, theirs);
  /* a frame a T: exception left ends at that T:, whatever its catcher
   * did next: off by the time to write the T: and the unwinding only;
   * but for the rare frame taken to have ended before a call it made for
   * the first time (the call was known from a frame below), and, where
   * nothing below returned (EOS, the hold limit), a frame under the T:
   * whose call above was not one its method was seen making before it
   * began (it ends earlier, inside itself) */
  g_assert_cmpuint (by_kind[0].late * 100, <=, by_kind[0].n * 3);
  g_assert_cmpuint (sc.exact[CALL_RETURNED], ==, sc.n[CALL_RETURNED]);
  g_assert_cmpuint (sc.exact[CALL_THREW], ==, sc.n[CALL_THREW]);
  /* every catcher was found within the hold (no late E:) */
  g_assert_cmpuint (stats.unmatched_returns + stats.unmatched_throws + stats.unmatched_ends, ==, 0);
  if (!escapes)
    g_assert_cmpuint (model.n_escaped, ==, 0);
  else
    g_assert_cmpuint (model.n_escaped, >, 10);
  /* an escape is only decided by the hold limit (or EOS) */
  if (escapes && max_hold > 0)
    {
      g_assert_cmpuint (stats.hold_overflows, >, 0);
      g_assert_cmpuint (stats.hold_overflows, <=, model.n_escaped);
      /* one event adds itself and the ends it makes (one per frame) */
      g_assert_cmpuint (stats.max_held, <=, max_hold + PROP_MAX_DEPTH + 1);
    }
  else
    g_assert_cmpuint (stats.hold_overflows, ==, 0);
}

/* Each caller catches with probability 1/2, the top-level handler always. */
static void
test_generator_propagation (void)
{
  static const guint32 seeds[] = { 3, 15, 2026 };

  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    check_propagation (seeds[i], FALSE, 0);
}

/* T: exceptions escape to the message loop too: nothing below the thrower
 * ever says who caught them.  With the default hold they are decided at
 * EOS; with a small one (still above what a catcher does before its E:)
 * by the hold limit, with the same ends. */
static void
test_generator_escapes (void)
{
  static const guint32 seeds[] = { 5, 99 };

  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      check_propagation (seeds[i], TRUE, 0);
      check_propagation (seeds[i], TRUE, 64);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rhea/generator/markers", test_generator);
  g_test_add_func ("/rhea/generator/marker-ends", test_generator_marker_ends);
  g_test_add_func ("/rhea/generator/propagation", test_generator_propagation);
  g_test_add_func ("/rhea/generator/escapes", test_generator_escapes);
  return g_test_run ();
}
