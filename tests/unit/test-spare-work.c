/* Unit tests: work lent to idle threads (trace_spare_work_*): pieces run
 * until none waits, a withdrawn offer is never called again and its
 * removal waits for a call under way, offers take turns, and a lender
 * waiting on its condition is woken by a notification. */
#include <trace/trace.h>

typedef struct
{
  gint pieces; /* left to do */
  gint done;
} Counter;

static gboolean
do_piece (gpointer data)
{
  Counter *c = data;

  if (g_atomic_int_get (&c->pieces) == 0)
    return FALSE;
  g_atomic_int_add (&c->pieces, -1);
  g_atomic_int_inc (&c->done);
  return TRUE;
}

static void
test_run_until_none (void)
{
  Counter c = { 3, 0 };
  guint id = trace_spare_work_add (do_piece, &c);

  g_assert_cmpuint (id, !=, 0);
  g_assert_true (trace_spare_work_run ());
  g_assert_true (trace_spare_work_run ());
  g_assert_true (trace_spare_work_run ());
  g_assert_false (trace_spare_work_run ());
  g_assert_cmpint (c.done, ==, 3);
  trace_spare_work_remove (id);
  c.pieces = 5;
  g_assert_false (trace_spare_work_run ());
  g_assert_cmpint (c.done, ==, 3);
}

/* Two offers with work waiting: each is called in turn. */
static void
test_turns (void)
{
  Counter a = { 10, 0 }, b = { 10, 0 };
  guint ida = trace_spare_work_add (do_piece, &a);
  guint idb = trace_spare_work_add (do_piece, &b);

  for (guint i = 0; i < 10; i++)
    g_assert_true (trace_spare_work_run ());
  g_assert_cmpint (a.done, ==, 5);
  g_assert_cmpint (b.done, ==, 5);
  trace_spare_work_remove (ida);
  trace_spare_work_remove (idb);
}

/* A piece that holds until the test lets it go. */
typedef struct
{
  gint started;
  gint release;
  gint finished;
} Gate;

static gboolean
held_piece (gpointer data)
{
  Gate *g = data;

  g_atomic_int_set (&g->started, 1);
  while (!g_atomic_int_get (&g->release))
    g_usleep (1000);
  g_atomic_int_set (&g->finished, 1);
  return TRUE;
}

static gpointer
run_once (gpointer data)
{
  return GINT_TO_POINTER (trace_spare_work_run ());
}

static gpointer
remove_offer (gpointer data)
{
  trace_spare_work_remove (GPOINTER_TO_UINT (data));
  return NULL;
}

static void
test_remove_waits_for_a_call (void)
{
  Gate g = { 0 };
  guint id = trace_spare_work_add (held_piece, &g);
  GThread *lender = g_thread_new ("lender", run_once, NULL);
  GThread *remover;

  while (!g_atomic_int_get (&g.started))
    g_usleep (1000);
  remover = g_thread_new ("remover", remove_offer, GUINT_TO_POINTER (id));
  /* the removal cannot end while the piece runs */
  g_usleep (50 * 1000);
  g_assert_false (g_atomic_int_get (&g.finished));
  g_atomic_int_set (&g.release, 1);
  g_thread_join (remover);
  g_assert_true (g_atomic_int_get (&g.finished));
  g_assert_true (GPOINTER_TO_INT (g_thread_join (lender)));
  /* withdrawn: nothing is called any more */
  g_atomic_int_set (&g.finished, 0);
  g_assert_false (trace_spare_work_run ());
  g_assert_false (g_atomic_int_get (&g.finished));
}

typedef struct
{
  GMutex lock;
  GCond cond;
  gint waiting;
  gint returned;
} Lender;

static gboolean
no_own_work (gpointer data)
{
  return FALSE;
}

/* A lender with nothing to do and nothing offered: it waits in
 * trace_spare_work_idle() until a notification. */
static gpointer
wait_for_notify (gpointer data)
{
  Lender *l = data;

  g_mutex_lock (&l->lock);
  g_atomic_int_set (&l->waiting, 1);
  g_assert_false (trace_spare_work_idle (&l->lock, &l->cond, no_own_work, NULL));
  g_atomic_int_set (&l->returned, 1);
  g_mutex_unlock (&l->lock);
  return NULL;
}

static void
test_notify_wakes_lenders (void)
{
  Lender l = { 0 };
  guint before = trace_spare_work_get_n_lenders ();
  gint64 deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  GThread *thread;
  gboolean woken;

  g_mutex_init (&l.lock);
  g_cond_init (&l.cond);
  trace_spare_work_lend (&l.lock, &l.cond);
  g_assert_cmpuint (trace_spare_work_get_n_lenders (), ==, before + 1);
  thread = g_thread_new ("lender", wait_for_notify, &l);
  while (!g_atomic_int_get (&l.waiting))
    g_usleep (1000);
  g_usleep (20 * 1000); /* most likely in its wait by now; either way it must return */
  trace_spare_work_notify ();
  while (!g_atomic_int_get (&l.returned) && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  woken = g_atomic_int_get (&l.returned);
  if (!woken)
    {
      /* let it go, then fail */
      g_mutex_lock (&l.lock);
      g_cond_broadcast (&l.cond);
      g_mutex_unlock (&l.lock);
    }
  g_thread_join (thread);
  g_assert_true (woken);
  trace_spare_work_unlend (&l.cond);
  g_assert_cmpuint (trace_spare_work_get_n_lenders (), ==, before);
  g_mutex_clear (&l.lock);
  g_cond_clear (&l.cond);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spare-work/run-until-none", test_run_until_none);
  g_test_add_func ("/spare-work/turns", test_turns);
  g_test_add_func ("/spare-work/remove-waits-for-a-call", test_remove_waits_for_a_call);
  g_test_add_func ("/spare-work/notify-wakes-lenders", test_notify_wakes_lenders);
  return g_test_run ();
}
