/* Program-model test for the `rhea-repair` logic (plugins/rhea/)
 *
 * Built from how an instrumented Android program runs, independently of
 * the repair's own rules: a seeded program is a call graph of methods,
 * each instrumented or not, each a sequence of call sites (some in a
 * loop), some wrapped in a try whose catch calls handler methods and goes
 * on, loops again or rethrows, some with a finally block; a method may
 * throw from its own code, by an explicit `throw` (an `athrow`: RheaTrace
 * writes `T:` there when the method is instrumented) or by a runtime
 * exception (no marker), and an explicit throw may be caught in the same
 * method.  Each thread is an uninstrumented message loop that catches
 * whatever reaches it.  RheaTrace's bytecode writes `B:` at entry, `E:`
 * before each return and `T:` before each `athrow` of an instrumented
 * method, so a catch or finally block that rethrows writes a `T:` too.
 *
 * The simulation records the true end of every instrumented call and why
 * it ended: its return, its own throw, an exception whose latest throw
 * was written as a `T:` (the `T:` class), or one thrown by uninstrumented
 * code or by the runtime (the no-marker class).  Several shapes of
 * program (depth, where the try blocks are, call rates, loops that go on
 * after a catch, handlers that call) are run with seeds; the output of
 * the repair is checked for balance and order, and the mean end error of
 * each class is compared with btrace's rule (trace_doctor, restated).
 */
#include <trace/trace.h>

#include <math.h>
#include <string.h>

#include "rhea-private.h"

#define N_THREADS 3
#define US 1000
#define MAX_SITES 6
#define MAX_HANDLER 3
#define NONE G_MAXUINT

/* ---- the program ---------------------------------------------------------- */

typedef struct
{
  const char *name;
  guint levels;         /* depth of the call graph */
  guint per_level;      /* methods on each level */
  double p_instr;       /* a method is instrumented */
  guint max_sites;      /* call sites of a method: 0 to this */
  double p_loop;        /* a call site is a loop of 2 to 4 calls */
  double p_try;         /* a method wraps a range of its sites in a try */
  double p_try_in_loop; /* ... inside the loop: the loop goes on after a catch */
  guint max_handler;    /* calls made by a catch block: 0 to this */
  double p_rethrow;     /* a catch block rethrows */
  double p_finally;     /* a method without a try has a finally block */
  double p_throw;       /* mean probability that a call throws in its own code */
  double p_athrow;      /* a method's own throw is an explicit `throw` */
  double p_self_catch;  /* an explicit throw is caught in the same method */
  double p_entry_catch; /* a message's handler catches around all its calls */
  double self_us;       /* mean own time between two calls */
  double uninstr_us;    /* mean extra own time of an uninstrumented method */
  guint messages;       /* messages each thread's loop handles */
} Shape;

typedef struct
{
  gboolean instrumented;
  guint n_sites;
  guint callee[MAX_SITES];
  guint reps[MAX_SITES];
  gint try_first, try_last; /* sites in the try, or -1 */
  gboolean try_in_loop;
  guint n_handler;
  guint handler[MAX_HANDLER];
  gboolean rethrow;
  gboolean has_finally;
  guint cleanup; /* the finally block's call, or NONE */
  double p_throw;
  gboolean athrow;
  gboolean self_catch;
  double self_us;
} Method;

typedef enum
{
  END_RETURNED,
  END_THREW,         /* its own `T:` and the exception left it */
  END_UNWOUND_T,     /* left by an exception whose latest throw wrote a T: */
  END_UNWOUND_PLAIN, /* left by an exception without any marker */
  END_RUNNING,       /* still running when the capture was cut: it ends at
                      * its thread's last event */
  N_ENDS
} EndClass;

typedef struct
{
  guint thread;
  guint method;
  gint64 begin;
  gint64 end;
  EndClass how;
} TrueCall;

typedef struct
{
  gint64 ts;
  guint thread;
  char marker;
  guint method;
} Mark;

typedef struct
{
  const Shape *shape;
  GRand *rand;
  Method *methods;
  guint n_methods;
  GArray *marks; /* Mark, per thread in time order, merged later */
  GArray *calls; /* TrueCall */
  guint thread;
  gint64 now;
  gboolean marked; /* the exception in flight was last thrown with a T: */
  guint thrower;   /* the depth of the frame that wrote that T: */
  guint depth;     /* of the frame running */
} Sim;

static double
rand_exp (Sim *s,
          double mean)
{
  return -mean * log (1.0 - g_rand_double (s->rand));
}

static void
advance_us (Sim *s,
            double mean_us)
{
  s->now += 1 + (gint64) (rand_exp (s, mean_us) * US);
}

static guint
pick_on_level (Sim *s,
               guint level)
{
  return level * s->shape->per_level + g_rand_int_range (s->rand, 0, s->shape->per_level);
}

/* A callee one level down, sometimes two. */
static guint
pick_callee (Sim *s,
             guint level)
{
  guint down = level + 1;

  if (down + 1 < s->shape->levels && g_rand_double (s->rand) < 0.3)
    down++;
  return pick_on_level (s, down);
}

static void
make_try (Sim *s,
          Method *m,
          guint level)
{
  const Shape *sh = s->shape;

  m->try_first = g_rand_int_range (s->rand, 0, m->n_sites);
  m->try_last = g_rand_int_range (s->rand, m->try_first, m->n_sites);
  m->try_in_loop = g_rand_double (s->rand) < sh->p_try_in_loop;
  if (m->try_in_loop)
    for (gint i = m->try_first; i <= m->try_last; i++)
      m->reps[i] = MAX (m->reps[i], 2);
  m->n_handler = g_rand_int_range (s->rand, 0, sh->max_handler + 1);
  for (guint i = 0; i < m->n_handler; i++)
    m->handler[i] = pick_on_level (s, g_rand_int_range (s->rand, level + 1, sh->levels));
  m->rethrow = g_rand_double (s->rand) < sh->p_rethrow;
}

static void
make_method (Sim *s,
             Method *m,
             guint level)
{
  const Shape *sh = s->shape;

  m->instrumented = g_rand_double (s->rand) < sh->p_instr;
  m->n_sites = level + 1 < sh->levels ? g_rand_int_range (s->rand, 0, sh->max_sites + 1) : 0;
  for (guint i = 0; i < m->n_sites; i++)
    {
      m->callee[i] = pick_callee (s, level);
      m->reps[i] = g_rand_double (s->rand) < sh->p_loop ? g_rand_int_range (s->rand, 2, 5) : 1;
    }
  m->try_first = m->try_last = -1;
  m->cleanup = NONE;
  if (m->n_sites > 0 && level == 0 && g_rand_double (s->rand) < sh->p_entry_catch)
    {
      make_try (s, m, level);
      m->try_first = 0;
      m->try_last = m->n_sites - 1;
      m->rethrow = FALSE;
    }
  else if (m->n_sites > 0 && g_rand_double (s->rand) < sh->p_try)
    make_try (s, m, level);
  else if (g_rand_double (s->rand) < sh->p_finally)
    {
      m->has_finally = TRUE;
      if (level + 1 < sh->levels && g_rand_boolean (s->rand))
        m->cleanup = pick_on_level (s, sh->levels - 1);
    }
  /* a few methods throw often, most rarely */
  m->p_throw = MIN (rand_exp (s, sh->p_throw), 0.5);
  m->athrow = g_rand_double (s->rand) < sh->p_athrow;
  m->self_catch = m->athrow && g_rand_double (s->rand) < sh->p_self_catch;
  m->self_us = sh->self_us * (0.2 + rand_exp (s, 1.0));
  if (!m->instrumented)
    m->self_us += rand_exp (s, sh->uninstr_us);
}

static void
make_program (Sim *s)
{
  s->n_methods = s->shape->levels * s->shape->per_level;
  s->methods = g_new0 (Method, s->n_methods);
  for (guint i = 0; i < s->n_methods; i++)
    make_method (s, &s->methods[i], i / s->shape->per_level);
}

/* ---- running it ----------------------------------------------------------- */

typedef enum
{
  GO_ON,
  LEAVE_OWN,     /* an exception thrown by this frame's own code */
  LEAVE_PASSING, /* an exception from a callee passing through */
  LEAVE_TRY,     /* caught: go on after the try */
} Flow;

/* Writing a marker takes a fraction of a microsecond. */
static gint64
mark (Sim *s,
      char marker,
      guint method)
{
  Mark m = { s->now, s->thread, marker, method };

  g_array_append_val (s->marks, m);
  s->now += 100 + g_rand_int_range (s->rand, 0, 300);
  return m.ts;
}

static Flow sim_call (Sim *s,
                      guint method);

/* A throw from @method's own code: an explicit `throw` writes its T: when
 * @method is instrumented; a runtime exception writes nothing. */
static Flow
sim_throw (Sim *s,
           guint method,
           gboolean explicit)
{
  const Method *m = &s->methods[method];

  s->marked = explicit && m->instrumented;
  if (s->marked)
    {
      mark (s, 'T', method);
      s->thrower = s->depth;
    }
  return LEAVE_OWN;
}

static Flow
sim_own_code_throw (Sim *s,
                    guint method)
{
  const Method *m = &s->methods[method];

  if (m->self_catch && g_rand_boolean (s->rand))
    {
      /* try { … throw … } catch in the same method, which goes on */
      if (m->instrumented)
        mark (s, 'T', method);
      advance_us (s, 2);
      return GO_ON;
    }
  return sim_throw (s, method, m->athrow);
}

static Flow
sim_catch (Sim *s,
           guint method)
{
  const Method *m = &s->methods[method];

  advance_us (s, 1);
  for (guint h = 0; h < m->n_handler; h++)
    if (sim_call (s, m->handler[h]) != GO_ON)
      return LEAVE_PASSING;
  if (m->rethrow)
    return sim_throw (s, method, TRUE);
  return m->try_in_loop ? GO_ON : LEAVE_TRY;
}

static Flow
sim_site (Sim *s,
          guint method,
          guint site)
{
  const Method *m = &s->methods[method];
  gboolean in_try = (gint) site >= m->try_first && (gint) site <= m->try_last;

  for (guint r = 0; r < m->reps[site]; r++)
    {
      Flow f = sim_call (s, m->callee[site]);

      if (f == GO_ON)
        {
          advance_us (s, m->self_us / 4);
          continue;
        }
      if (!in_try)
        return LEAVE_PASSING;
      f = sim_catch (s, method);
      if (f != GO_ON)
        return f;
    }
  return GO_ON;
}

/* A finally block: its call, then the exception is thrown on (`athrow`). */
static Flow
sim_finally (Sim *s,
             guint method)
{
  const Method *m = &s->methods[method];

  advance_us (s, 0.5);
  if (m->cleanup != NONE && sim_call (s, m->cleanup) != GO_ON)
    return LEAVE_PASSING;
  return sim_throw (s, method, TRUE);
}

static Flow
sim_body (Sim *s,
          guint method)
{
  const Method *m = &s->methods[method];
  gint throw_at = -1;

  if (g_rand_double (s->rand) < m->p_throw)
    throw_at = g_rand_int_range (s->rand, 0, m->n_sites + 1);
  for (guint site = 0; site <= m->n_sites; site++)
    {
      Flow f;

      advance_us (s, m->self_us);
      if ((gint) site == throw_at && sim_own_code_throw (s, method) != GO_ON)
        return LEAVE_OWN;
      if (site == m->n_sites)
        break;
      f = sim_site (s, method, site);
      if (f == LEAVE_TRY)
        site = (guint) m->try_last;
      else if (f == LEAVE_PASSING && m->has_finally)
        return sim_finally (s, method);
      else if (f != GO_ON)
        return f;
    }
  return GO_ON;
}

/* The exception leaves the frame: the runtime unwinds it in tens of ns. */
static void
record_exit (Sim *s,
             TrueCall *c,
             Flow f)
{
  if (f == GO_ON)
    {
      c->end = mark (s, 'E', c->method);
      c->how = END_RETURNED;
      return;
    }
  c->end = s->now;
  if (s->marked && s->thrower == s->depth)
    c->how = END_THREW;
  else
    c->how = s->marked ? END_UNWOUND_T : END_UNWOUND_PLAIN;
}

static Flow
sim_call (Sim *s,
          guint method)
{
  const Method *m = &s->methods[method];
  TrueCall c = { s->thread, method, 0, 0, END_RETURNED };
  Flow f;

  s->depth++;
  if (m->instrumented)
    c.begin = mark (s, 'B', method);
  f = sim_body (s, method);
  if (f != GO_ON)
    s->now += 20 + g_rand_int_range (s->rand, 0, 60);
  if (m->instrumented)
    {
      record_exit (s, &c, f);
      g_array_append_val (s->calls, c);
    }
  s->depth--;
  return f == LEAVE_OWN ? LEAVE_PASSING : f;
}

/* Each thread: an uninstrumented loop handling messages, catching
 * whatever reaches it; threads start apart and run at the same time. */
static void
simulate_thread (Sim *s,
                 guint thread)
{
  s->thread = thread;
  s->now = 1000000 * (gint64) US + thread * 1777 * US;
  for (guint i = 0; i < s->shape->messages; i++)
    {
      advance_us (s, 200);
      sim_call (s, pick_on_level (s, 0));
    }
}

static gint
mark_compare (gconstpointer a,
              gconstpointer b)
{
  const Mark *ma = a, *mb = b;

  if (ma->ts != mb->ts)
    return ma->ts < mb->ts ? -1 : 1;
  return ma->thread < mb->thread ? -1 : (ma->thread > mb->thread);
}

/* The capture stops while each thread is busy: the last 3 % of its
 * markers are not in it.  Calls begun before the cut and not ended are
 * still running: they end at their thread's last event. */
static void
cut_capture (Sim *s)
{
  gint64 cut[N_THREADS], last[N_THREADS];
  guint n[N_THREADS] = { 0 }, seen[N_THREADS] = { 0 }, w = 0;

  for (guint i = 0; i < s->marks->len; i++)
    n[g_array_index (s->marks, Mark, i).thread]++;
  for (guint i = 0; i < s->marks->len; i++)
    {
      const Mark *m = &g_array_index (s->marks, Mark, i);

      if (seen[m->thread]++ == n[m->thread] * 97 / 100)
        cut[m->thread] = m->ts;
    }
  for (guint i = 0; i < s->marks->len; i++)
    {
      const Mark *m = &g_array_index (s->marks, Mark, i);

      if (m->ts > cut[m->thread])
        continue;
      last[m->thread] = m->ts;
      g_array_index (s->marks, Mark, w++) = *m;
    }
  g_array_set_size (s->marks, w);
  w = 0;
  for (guint i = 0; i < s->calls->len; i++)
    {
      TrueCall *c = &g_array_index (s->calls, TrueCall, i);

      if (c->begin > cut[c->thread])
        continue;
      if (c->end > cut[c->thread])
        {
          c->end = last[c->thread];
          c->how = END_RUNNING;
        }
      g_array_index (s->calls, TrueCall, w++) = *c;
    }
  g_array_set_size (s->calls, w);
}

static void
simulate (Sim *s,
          const Shape *shape,
          guint32 seed)
{
  memset (s, 0, sizeof *s);
  s->shape = shape;
  s->rand = g_rand_new_with_seed (seed);
  s->marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  s->calls = g_array_new (FALSE, FALSE, sizeof (TrueCall));
  make_program (s);
  for (guint t = 0; t < N_THREADS; t++)
    simulate_thread (s, t);
  cut_capture (s);
  /* per thread in time order already: a stable merge by time */
  g_array_sort (s->marks, mark_compare);
}

static void
sim_clear (Sim *s)
{
  g_rand_free (s->rand);
  g_free (s->methods);
  g_array_unref (s->marks);
  g_array_unref (s->calls);
}

/* ---- the capture and the repair ------------------------------------------ */

static gint64
tid_of (guint thread)
{
  return 9100 + 13 * thread;
}

static guint
thread_of (gint64 tid)
{
  g_assert_cmpint ((tid - 9100) % 13, ==, 0);
  return (guint) ((tid - 9100) / 13);
}

/* The markers as RheaTrace writes them: slice begins named `B:…`. */
static GPtrArray *
make_batches (TraceStringPool *pool,
              GArray *marks)
{
  GPtrArray *batches = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_batch_unref);
  TraceBatch *batch = NULL;

  for (guint i = 0; i < marks->len; i++)
    {
      const Mark *m = &g_array_index (marks, Mark, i);
      g_autofree char *text = g_strdup_printf ("%c:app.C%u:m%u", m->marker, m->method % 11, m->method);
      TraceEvent *ev;

      if (batch == NULL || batch->n_events >= 1000)
        {
          batch = trace_batch_new (pool, 1000);
          g_ptr_array_add (batches, batch);
        }
      ev = trace_batch_append (batch, TRACE_EVENT_SLICE_BEGIN, m->ts);
      ev->pid = tid_of (0);
      ev->tid = tid_of (m->thread);
      ev->name = trace_string_pool_intern (pool, text);
    }
  return batches;
}

static gint64
call_key (guint thread,
          gint64 begin)
{
  return begin * N_THREADS + thread;
}

static void
put_end (GHashTable *ends,
         guint thread,
         gint64 begin,
         gint64 end)
{
  gint64 *key = g_new (gint64, 1);

  *key = call_key (thread, begin);
  g_hash_table_insert (ends, key, g_memdup2 (&end, sizeof end));
}

/* Replays the output per thread: balanced and in time order, each begin
 * once.  Returns the end of each slice by call_key(). */
static GHashTable *
collect_ends (GPtrArray *outputs)
{
  GHashTable *ends = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  GArray *stacks[N_THREADS];
  gint64 last[N_THREADS];

  for (guint t = 0; t < N_THREADS; t++)
    {
      stacks[t] = g_array_new (FALSE, FALSE, sizeof (gint64));
      last[t] = G_MININT64;
    }
  for (guint b = 0; b < outputs->len; b++)
    {
      const TraceBatch *batch = outputs->pdata[b];

      for (guint i = 0; i < batch->n_events; i++)
        {
          const TraceEvent *ev = &batch->events[i];
          guint t = thread_of (ev->tid);

          g_assert_cmpint (ev->ts, >=, last[t]);
          last[t] = ev->ts;
          if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
            {
              g_array_append_val (stacks[t], ev->ts);
              continue;
            }
          g_assert_cmpint (ev->kind, ==, TRACE_EVENT_SLICE_END);
          g_assert_cmpuint (stacks[t]->len, >, 0);
          put_end (ends, t, g_array_index (stacks[t], gint64, stacks[t]->len - 1), ev->ts);
          g_array_set_size (stacks[t], stacks[t]->len - 1);
        }
    }
  for (guint t = 0; t < N_THREADS; t++)
    {
      g_assert_cmpuint (stacks[t]->len, ==, 0);
      g_array_unref (stacks[t]);
    }
  return ends;
}

static GHashTable *
run_repair (GArray *marks,
            RheaRepairStats *stats)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GPtrArray) batches = make_batches (pool, marks);
  g_autoptr (RheaRepair) repair = rhea_repair_new (pool);
  TraceBatch *tail;

  for (guint i = 0; i < batches->len; i++)
    rhea_repair_process (repair, batches->pdata[i]);
  while ((tail = rhea_repair_drain (repair)) != NULL)
    g_ptr_array_add (batches, tail);
  rhea_repair_get_stats (repair, stats);
  return collect_ends (batches);
}

/* ---- btrace's rule --------------------------------------------------------- */

typedef struct
{
  char marker;
  guint method;
  gint64 ts;
} BtLine;

/* Pairs a begin with the pending end of its method nearest to it in time
 * (the top of @pending, which holds ends latest first); a run of ends of
 * the same method right below that one gives the latest of the run, the
 * others are dropped, as trace_doctor's search does. */
static gboolean
bt_take_end (GArray *pending,
             guint method,
             gint64 *end)
{
  for (gint i = (gint) pending->len - 1; i >= 0; i--)
    {
      if (g_array_index (pending, BtLine, i).method != method)
        continue;
      while (i - 1 > 0 && g_array_index (pending, BtLine, i - 1).method == method)
        g_array_remove_index (pending, i--);
      *end = g_array_index (pending, BtLine, i).ts;
      g_array_remove_index (pending, i);
      return TRUE;
    }
  return FALSE;
}

/* One thread's lines from the last back to the first, as trace_doctor's
 * repair_rhea_lines_nosort walks them.  An E: closes the begins directly
 * before it that are not its method at its own time (`CrashTag`), drops
 * the T: of its method directly before it, turns the T: of another method
 * directly before it into that method's end, and is kept as a pending end
 * when what precedes it is not its begin; a begin takes its nearest
 * pending end, or has none: a zero-length `CrashTag` slice. */
static void
bt_thread (GArray *lines,
           guint thread,
           GHashTable *ends)
{
  g_autoptr (GArray) pending = g_array_new (FALSE, FALSE, sizeof (BtLine));
  gint i = (gint) lines->len - 1;

  while (i >= 0)
    {
      BtLine l = g_array_index (lines, BtLine, i--);
      const BtLine *top = i >= 0 ? &g_array_index (lines, BtLine, i) : NULL;
      gint64 end;

      if (l.marker == 'B')
        {
          put_end (ends, thread, l.ts, bt_take_end (pending, l.method, &end) ? end : l.ts);
          continue;
        }
      if (l.marker != 'E')
        continue;
      for (; top != NULL && top->marker == 'B' && top->method != l.method; top = --i >= 0 ? top - 1 : NULL)
        put_end (ends, thread, top->ts, l.ts);
      for (; top != NULL && top->marker == 'T' && top->method == l.method; top = --i >= 0 ? top - 1 : NULL)
        ;
      if (pending->len > 0 && g_array_index (pending, BtLine, pending->len - 1).method == l.method)
        {
          g_array_append_val (pending, l);
          continue;
        }
      if (top != NULL && top->marker == 'T')
        {
          BtLine t = *top;

          g_array_append_val (pending, l);
          t.marker = 'E';
          g_array_append_val (pending, t);
          top = --i >= 0 ? top - 1 : NULL;
        }
      if (top != NULL && top->marker == 'E')
        {
          g_array_append_val (pending, l);
          g_array_append_val (pending, *top);
          i--;
          continue;
        }
      if (top != NULL && top->marker == 'B' && top->method == l.method)
        {
          put_end (ends, thread, top->ts, l.ts);
          i--;
        }
    }
}

/* btrace's rule as its documentation and FORMATS.md §6.2 state it, read
 * forwards: an E: or T: of a method closes its innermost open frame and
 * every frame above it at its own time (a T: followed on its thread by
 * the E: of the same method was caught inside it); frames never closed
 * get a zero-length slice. */
static void
close_from (GArray *stack,
            guint method,
            guint thread,
            gint64 ts,
            GHashTable *ends)
{
  gint at = (gint) stack->len - 1;

  while (at >= 0 && g_array_index (stack, BtLine, at).method != method)
    at--;
  for (; at >= 0 && (gint) stack->len > at; g_array_set_size (stack, stack->len - 1))
    put_end (ends, thread, g_array_index (stack, BtLine, stack->len - 1).ts, ts);
}

static void
caller_return_thread (GArray *lines,
                      guint thread,
                      GHashTable *ends)
{
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (BtLine));

  for (guint i = 0; i < lines->len; i++)
    {
      const BtLine *l = &g_array_index (lines, BtLine, i);
      const BtLine *next = i + 1 < lines->len ? l + 1 : NULL;

      if (l->marker == 'B')
        g_array_append_val (stack, *l);
      else if (l->marker == 'E' || next == NULL || next->marker != 'E' || next->method != l->method)
        close_from (stack, l->method, thread, l->ts, ends);
    }
  for (guint j = 0; j < stack->len; j++)
    put_end (ends, thread, g_array_index (stack, BtLine, j).ts, g_array_index (stack, BtLine, j).ts);
}

typedef void (*RuleFunc) (GArray *lines,
                          guint thread,
                          GHashTable *ends);

static GHashTable *
apply_rule (GArray *marks,
            RuleFunc rule)
{
  GHashTable *ends = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  for (guint t = 0; t < N_THREADS; t++)
    {
      g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (BtLine));

      for (guint i = 0; i < marks->len; i++)
        {
          const Mark *m = &g_array_index (marks, Mark, i);
          BtLine l = { m->marker, m->method, m->ts };

          if (m->thread == t)
            g_array_append_val (lines, l);
        }
      rule (lines, t, ends);
    }
  return ends;
}

/* ---- scoring ------------------------------------------------------------------ */

enum
{
  RULE_OURS,
  RULE_BTRACE,
  RULE_CALLER_RETURN,
  N_RULES
};

/* Errors per class of call (EndClass), summed over one or more models. */
typedef struct
{
  guint n[N_ENDS];
  guint exact[N_ENDS];
  guint within_1us[N_ENDS];
  double error_sum[N_RULES][N_ENDS];
} Score;

static double
mean_us (const Score *sc,
         guint rule,
         EndClass how)
{
  return sc->n[how] ? sc->error_sum[rule][how] / sc->n[how] / US : 0;
}

/* Over the calls an exception ended: its own T:, or unwound. */
static double
mean_unwound_us (const Score *sc,
                 guint rule)
{
  double sum = 0;
  guint n = 0;

  for (guint c = END_THREW; c <= END_UNWOUND_PLAIN; c++)
    {
      sum += sc->error_sum[rule][c];
      n += sc->n[c];
    }
  return n ? sum / n / US : 0;
}

static double
share_within_1us (const Score *sc,
                  EndClass how)
{
  return sc->n[how] ? (double) sc->within_1us[how] / sc->n[how] : 1.0;
}

static gint64
end_of (GHashTable *ends,
        const TrueCall *c)
{
  gint64 key = call_key (c->thread, c->begin);
  const gint64 *end = g_hash_table_lookup (ends, &key);

  g_assert_nonnull (end);
  return *end;
}

/* Runs one model through the repair and the two restated btrace rules,
 * and adds its errors to @sc. */
static void
score_model (const Shape *shape,
             guint32 seed,
             Score *sc)
{
  Sim s;
  GHashTable *ends[N_RULES];
  RheaRepairStats stats;

  simulate (&s, shape, seed);
  ends[RULE_OURS] = run_repair (s.marks, &stats);
  ends[RULE_BTRACE] = apply_rule (s.marks, bt_thread);
  ends[RULE_CALLER_RETURN] = apply_rule (s.marks, caller_return_thread);
  /* one slice for each call, by its begin */
  g_assert_cmpuint (g_hash_table_size (ends[RULE_OURS]), ==, s.calls->len);
  for (guint i = 0; i < s.calls->len; i++)
    {
      const TrueCall *c = &g_array_index (s.calls, TrueCall, i);

      sc->n[c->how]++;
      for (guint r = 0; r < N_RULES; r++)
        sc->error_sum[r][c->how] += ABS (end_of (ends[r], c) - c->end);
      sc->within_1us[c->how] += ABS (end_of (ends[RULE_OURS], c) - c->end) <= US;
      sc->exact[c->how] += end_of (ends[RULE_OURS], c) == c->end;
    }
  for (guint r = 0; r < N_RULES; r++)
    g_hash_table_unref (ends[r]);
  sim_clear (&s);
}

static void
print_score (const char *what,
             const Score *sc)
{
  g_test_message ("%-16s | T:-unwound %5u %5.1f%% %7.1f %7.1f %7.1f | no-marker %5u %7.1f %7.1f %7.1f"
                  " | unwound %7.1f %7.1f %7.1f | returned %5.1f%% threw %5.1f%% | running %3u %7.1f",
                  what, sc->n[END_UNWOUND_T], 100 * share_within_1us (sc, END_UNWOUND_T),
                  mean_us (sc, RULE_OURS, END_UNWOUND_T), mean_us (sc, RULE_BTRACE, END_UNWOUND_T),
                  mean_us (sc, RULE_CALLER_RETURN, END_UNWOUND_T), sc->n[END_UNWOUND_PLAIN],
                  mean_us (sc, RULE_OURS, END_UNWOUND_PLAIN), mean_us (sc, RULE_BTRACE, END_UNWOUND_PLAIN),
                  mean_us (sc, RULE_CALLER_RETURN, END_UNWOUND_PLAIN), mean_unwound_us (sc, RULE_OURS),
                  mean_unwound_us (sc, RULE_BTRACE), mean_unwound_us (sc, RULE_CALLER_RETURN),
                  100 * share_within_1us (sc, END_RETURNED), 100 * share_within_1us (sc, END_THREW),
                  sc->n[END_RUNNING], mean_us (sc, RULE_OURS, END_RUNNING));
}

static void
add_score (Score *to,
           const Score *sc)
{
  for (guint c = 0; c < N_ENDS; c++)
    {
      to->n[c] += sc->n[c];
      to->within_1us[c] += sc->within_1us[c];
      to->exact[c] += sc->exact[c];
      for (guint r = 0; r < N_RULES; r++)
        to->error_sum[r][c] += sc->error_sum[r][c];
    }
}

/* ---- the shapes ---------------------------------------------------------------- */

/* Tuned on seeds 1 to 3; the tests run other seeds. */
static const Shape shapes[] = {
  /* name lv pl instr sites loop try inloop hnd reth fin throw athrow self entry self_us unin msgs */
  { "balanced", 6, 12, 0.8, 3, 0.2, 0.3, 0.3, 2, 0.2, 0.2, 0.03, 0.6, 0.2, 0.9, 10, 40, 150 },
  { "deep", 11, 8, 0.85, 2, 0.1, 0.15, 0.2, 1, 0.3, 0.3, 0.02, 0.5, 0.1, 0.9, 6, 30, 120 },
  { "shallow-busy", 4, 20, 0.7, 5, 0.4, 0.5, 0.5, 3, 0.1, 0.1, 0.05, 0.7, 0.3, 0.9, 15, 80, 120 },
  { "loops-retry", 7, 10, 0.9, 3, 0.5, 0.4, 0.8, 2, 0.05, 0.1, 0.04, 0.4, 0.1, 0.9, 8, 50, 120 },
  { "runtime-exc", 6, 14, 0.75, 3, 0.2, 0.35, 0.3, 3, 0.2, 0.3, 0.04, 0.2, 0.05, 0.9, 12, 60, 150 },
  { "thread-pool", 5, 12, 0.8, 3, 0.2, 0.25, 0.3, 2, 0.2, 0.2, 0.03, 0.5, 0.1, 0.0, 10, 40, 150 },
};

/* Every shape with seeds @first to @first + 2: each model's output is
 * balanced and in order with one slice per call (score_model()), and a
 * call that returned or threw ends where its E: or T: is.  The checks
 * on the sums are in check_family(). */
static Score
run_family (guint32 first)
{
  Score all = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    for (guint32 seed = first; seed < first + 3; seed++)
      {
        Score sc = { 0 };
        g_autofree char *what = g_strdup_printf ("%s %u", shapes[i].name, seed);

        score_model (&shapes[i], seed, &sc);
        print_score (what, &sc);
        g_assert_cmpuint (sc.exact[END_RETURNED], ==, sc.n[END_RETURNED]);
        /* at its T: (the model's end comes after the unwinding) */
        g_assert_cmpuint (sc.within_1us[END_THREW], ==, sc.n[END_THREW]);
        add_score (&all, &sc);
      }
  print_score ("all", &all);
  return all;
}

/* Summed over the models: most frames a T: exception left end within 1 us
 * of the truth, and the frames an exception left end closer than with
 * btrace's documented rule (the enclosing frame's end); against
 * trace_doctor's pairing, the mean of the frames an exception without a
 * marker left is at most @plain times its, and that of every frame an
 * exception left at most @all times its (the figures are in
 * docs/rhea-repair.md). */
static void
check_family (guint32 first,
              double plain,
              double all_unwound)
{
  Score all = run_family (first);

  g_assert_cmpfloat (share_within_1us (&all, END_UNWOUND_T), >=, 0.85);
  g_assert_cmpfloat (mean_us (&all, RULE_OURS, END_UNWOUND_PLAIN), <,
                     mean_us (&all, RULE_CALLER_RETURN, END_UNWOUND_PLAIN) * 0.7);
  g_assert_cmpfloat (mean_unwound_us (&all, RULE_OURS), <, mean_unwound_us (&all, RULE_CALLER_RETURN) / 2);
  g_assert_cmpfloat (mean_us (&all, RULE_OURS, END_UNWOUND_PLAIN), <=, mean_us (&all, RULE_BTRACE, END_UNWOUND_PLAIN) * plain);
  g_assert_cmpfloat (mean_unwound_us (&all, RULE_OURS), <=, mean_unwound_us (&all, RULE_BTRACE) * all_unwound);
}

/* Loop-heavy shapes here (loops-retry 13 holds more than max-hold):
 * frames an exception without a marker left long before are still open
 * when their begins must go out, and end no earlier than that. */
static void
test_family_11 (void)
{
  check_family (11, 2.6, 1.8);
}

static void
test_family_21 (void)
{
  check_family (21, 0.6, 0.45);
}

/* Seeds never looked at while the repair's rules were chosen. */
static void
test_family_held_out (void)
{
  check_family (31, 1.0, 0.6);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rhea/programs/seeds-11-13", test_family_11);
  g_test_add_func ("/rhea/programs/seeds-21-23", test_family_21);
  g_test_add_func ("/rhea/programs/held-out-seeds-31-33", test_family_held_out);
  return g_test_run ();
}
