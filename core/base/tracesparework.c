/* tracepipe - work any idle thread of the process may do
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On two cores, json-src's reader, a worker scanning its chunks and
 * perfetto-sink's writer thread are three busy threads on two cores.
 * The scheduler keeps the worker on the reader's core (it wakes there,
 * and its bursts of 0.3 ms are below what the kernel moves between
 * cores), where the two take turns, while the writer's core idles a
 * fifth of the run waiting for batches (docs/performance.md). A thread
 * that would wait lends its time here instead: it runs a piece of work
 * an element offers (json-src: scanning one chunk), then goes back to
 * its own. The work is the same whoever does it.
 */
#include "config.h"

#include "trace/trace.h"

typedef struct
{
  guint id;
  TraceSpareWorkFunc func;
  gpointer data;
  guint running; /* calls under way */
} SpareWork;

typedef struct
{
  GMutex *lock;
  GCond *cond;
} Lender;

static GMutex spare_lock;
static GCond call_ended;
static GPtrArray *works;  /* SpareWork *, under spare_lock */
static GArray *lenders;   /* Lender, under spare_lock */
static guint next_id = 1; /* under spare_lock */
static guint next_work;   /* where run() starts: turns, under spare_lock */
static gint n_works;      /* atomic: run() without the lock when 0 */
static gint serial;       /* atomic: one more at every notify */
static gint n_lenders;    /* atomic: notify() without the lock when 0 */

/**
 * trace_spare_work_add:
 * @func: (scope forever) (closure data): does one piece of the work
 * @data: for @func
 *
 * Offers work to the threads that lend their spare time (a file sink's
 * writer thread, while no batch waits for it): each call of
 * trace_spare_work_run() on such a thread may call @func once. The
 * element that offers it must get the same result whether its pieces
 * are done there, on its own threads or on its streaming thread.
 *
 * Returns: an id for trace_spare_work_remove()
 */
guint
trace_spare_work_add (TraceSpareWorkFunc func,
                      gpointer data)
{
  SpareWork *w;
  guint id;

  g_return_val_if_fail (func != NULL, 0);

  w = g_new0 (SpareWork, 1);
  g_mutex_lock (&spare_lock);
  if (works == NULL)
    works = g_ptr_array_new ();
  w->id = id = next_id++;
  w->func = func;
  w->data = data;
  g_ptr_array_add (works, w);
  g_atomic_int_inc (&n_works);
  g_mutex_unlock (&spare_lock);
  return id;
}

/**
 * trace_spare_work_remove:
 * @id: what trace_spare_work_add() returned
 *
 * Withdraws the work: no call of its function starts after this, and
 * this returns only once the calls under way have returned, so the data
 * may be freed then. Not from the work's own function.
 */
void
trace_spare_work_remove (guint id)
{
  SpareWork *w = NULL;

  g_mutex_lock (&spare_lock);
  for (guint i = 0; works != NULL && i < works->len; i++)
    if (((SpareWork *) works->pdata[i])->id == id)
      {
        w = g_ptr_array_remove_index (works, i);
        g_atomic_int_dec_and_test (&n_works);
        break;
      }
  while (w != NULL && w->running > 0)
    g_cond_wait (&call_ended, &spare_lock);
  g_mutex_unlock (&spare_lock);
  g_return_if_fail (w != NULL);
  g_free (w);
}

/* Calls @w's function once, with the lock released. */
static gboolean
call_work (SpareWork *w)
{
  gboolean did;

  w->running++;
  g_mutex_unlock (&spare_lock);
  did = w->func (w->data);
  g_mutex_lock (&spare_lock);
  if (--w->running == 0)
    g_cond_broadcast (&call_ended);
  return did;
}

/**
 * trace_spare_work_run:
 *
 * Does one piece of the work offered, if any is waiting: for a thread
 * that has nothing to do for a moment. The offers are tried in turns.
 *
 * Returns: whether a piece was done
 */
gboolean
trace_spare_work_run (void)
{
  gboolean did = FALSE;

  if (g_atomic_int_get (&n_works) == 0)
    return FALSE;
  g_mutex_lock (&spare_lock);
  for (guint tried = 0; !did && works != NULL && tried < works->len; tried++)
    {
      guint i = next_work++ % works->len;

      did = call_work (works->pdata[i]);
    }
  g_mutex_unlock (&spare_lock);
  return did;
}

/**
 * trace_spare_work_lend:
 * @lock: the mutex @cond is waited on with
 * @cond: what the thread waits on when it has nothing to do
 *
 * Says that a thread calls trace_spare_work_idle() with @lock and @cond
 * whenever it has nothing to do of its own: the calling thread, or one
 * it is about to start (call this before starting it, so that an element
 * started right after counts it). Elements count the lenders when they
 * decide how many threads of their own to start.
 */
void
trace_spare_work_lend (GMutex *lock,
                       GCond *cond)
{
  Lender l = { lock, cond };

  g_return_if_fail (lock != NULL && cond != NULL);

  g_mutex_lock (&spare_lock);
  if (lenders == NULL)
    lenders = g_array_new (FALSE, FALSE, sizeof (Lender));
  g_array_append_val (lenders, l);
  g_atomic_int_inc (&n_lenders);
  g_mutex_unlock (&spare_lock);
}

/**
 * trace_spare_work_unlend:
 * @cond: what was given to trace_spare_work_lend()
 *
 * The thread no longer lends its time (it is about to end).
 */
void
trace_spare_work_unlend (GCond *cond)
{
  g_mutex_lock (&spare_lock);
  for (guint i = 0; lenders != NULL && i < lenders->len; i++)
    if (g_array_index (lenders, Lender, i).cond == cond)
      {
        g_array_remove_index_fast (lenders, i);
        g_atomic_int_dec_and_test (&n_lenders);
        break;
      }
  g_mutex_unlock (&spare_lock);
}

/**
 * trace_spare_work_notify:
 *
 * Wakes the lenders that wait: a piece of work was just offered (a lender
 * that is busy finds it when it next has nothing to do). Without lenders
 * it takes no lock, so an element may call it for every piece it queues.
 */
void
trace_spare_work_notify (void)
{
  if (g_atomic_int_get (&n_lenders) == 0)
    return;
  g_atomic_int_inc (&serial);
  g_mutex_lock (&spare_lock);
  for (guint i = 0; lenders != NULL && i < lenders->len; i++)
    {
      Lender *l = &g_array_index (lenders, Lender, i);

      g_mutex_lock (l->lock);
      g_cond_broadcast (l->cond);
      g_mutex_unlock (l->lock);
    }
  g_mutex_unlock (&spare_lock);
}

/**
 * trace_spare_work_get_n_lenders:
 *
 * Returns: how many threads of the process lend their spare time now
 */
guint
trace_spare_work_get_n_lenders (void)
{
  return (guint) g_atomic_int_get (&n_lenders);
}

/**
 * trace_spare_work_idle:
 * @lock: the lender's mutex, held
 * @cond: the lender's condition (as given to trace_spare_work_lend())
 * @has_own_work: (scope call): whether the lender has work of its own
 *   again; called with @lock held
 * @data: for @has_own_work
 *
 * What a lender calls when it has nothing to do of its own: with @lock
 * released, one piece of the work offered; if there was none, it waits
 * on @cond, unless its own work came or work was offered while @lock was
 * released (so neither wake-up is lost). Returns with @lock held; the
 * caller looks at its own work again.
 *
 * Returns: whether a piece was done
 */
gboolean
trace_spare_work_idle (GMutex *lock,
                       GCond *cond,
                       gboolean (*has_own_work) (gpointer data),
                       gpointer data)
{
  gint before = g_atomic_int_get (&serial);
  gboolean did;

  g_mutex_unlock (lock);
  did = trace_spare_work_run ();
  g_mutex_lock (lock);
  if (!did && !has_own_work (data) && before == g_atomic_int_get (&serial))
    g_cond_wait (cond, lock);
  return did;
}
