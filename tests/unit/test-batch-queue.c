/* Unit tests: the bounded batch queue behind queue, app-sink and a
 * sink's writer thread (core/base/tracebatchqueue.c), alone: a push waits
 * only while max-batches batches wait, events keep their place without
 * counting, a closed queue refuses with EOS unless a failure came first,
 * drain waits for the taker to come back. */
#include "config.h"

#include "tracebatchqueue.h"

static TraceBatch *
make_batch (guint n_events)
{
  TraceStringPool *pool = trace_string_pool_get_default ();
  TraceBatch *batch = trace_batch_new (pool, n_events);

  for (guint i = 0; i < n_events; i++)
    trace_batch_append (batch, TRACE_EVENT_INSTANT, i);
  return batch;
}

typedef struct
{
  TraceBatchQueue *queue;
  guint n_events;
  TraceFlowReturn ret;
} Pusher;

static gpointer
push_thread (gpointer data)
{
  Pusher *p = data;

  p->ret = _trace_batch_queue_push (p->queue, make_batch (p->n_events), TRUE);
  return NULL;
}

/* Gives another thread the time to reach its wait; what the tests check
 * holds whether it did or not. */
static void
wait_a_little (void)
{
  g_usleep (20 * G_TIME_SPAN_MILLISECOND);
}

static void
test_bound_and_wait (void)
{
  TraceBatchQueue q;
  TraceBatchQueueItem item;
  Pusher p = { &q, 3, TRACE_FLOW_ERROR };
  GThread *thread;

  _trace_batch_queue_init (&q, 2);
  g_assert_cmpint (_trace_batch_queue_push (&q, make_batch (1), TRUE), ==, TRACE_FLOW_OK);
  g_assert_true (_trace_batch_queue_is_ready (&q));
  g_assert_cmpint (_trace_batch_queue_push (&q, make_batch (2), TRUE), ==, TRACE_FLOW_OK);
  g_assert_false (_trace_batch_queue_is_ready (&q));
  g_assert_cmpuint (_trace_batch_queue_get_level (&q), ==, 2);

  /* a third push waits until a take makes room */
  thread = g_thread_new ("pusher", push_thread, &p);
  wait_a_little ();
  g_assert_cmpuint (_trace_batch_queue_get_level (&q), ==, 2);
  g_assert_true (_trace_batch_queue_take (&q, NULL, &item));
  g_assert_cmpuint (item.batch->n_events, ==, 1);
  g_assert_null (item.event);
  trace_batch_unref (item.batch);
  g_thread_join (thread);
  g_assert_cmpint (p.ret, ==, TRACE_FLOW_OK);
  g_assert_cmpuint (_trace_batch_queue_get_level (&q), ==, 2);

  /* a pusher that must not wait (it may be the taker) is taken anyway */
  g_assert_cmpint (_trace_batch_queue_push (&q, make_batch (4), FALSE), ==, TRACE_FLOW_OK);
  g_assert_cmpuint (_trace_batch_queue_get_level (&q), ==, 3);
  _trace_batch_queue_clear (&q);
}

static void
test_max_batches_raised (void)
{
  TraceBatchQueue q;
  Pusher p = { &q, 1, TRACE_FLOW_ERROR };
  GThread *thread;

  _trace_batch_queue_init (&q, 1);
  _trace_batch_queue_push (&q, make_batch (1), TRUE);
  thread = g_thread_new ("pusher", push_thread, &p);
  wait_a_little ();
  /* the waiting pusher looks again */
  _trace_batch_queue_set_max_batches (&q, 2);
  g_thread_join (thread);
  g_assert_cmpint (p.ret, ==, TRACE_FLOW_OK);
  g_assert_cmpuint (_trace_batch_queue_get_level (&q), ==, 2);
  _trace_batch_queue_clear (&q);
}

static void
test_events_keep_their_place (void)
{
  TraceBatchQueue q;
  TraceBatchQueueItem item;

  _trace_batch_queue_init (&q, 1);
  _trace_batch_queue_push_event (&q, trace_stream_event_new_stream_start ("test", NULL, TRACE_CLOCK_BOOTTIME, NULL));
  _trace_batch_queue_push (&q, make_batch (5), TRUE);
  _trace_batch_queue_push_event (&q, trace_stream_event_new_eos ());
  /* events hold no memory worth bounding */
  g_assert_cmpuint (_trace_batch_queue_get_level (&q), ==, 1);

  g_assert_true (_trace_batch_queue_take (&q, NULL, &item));
  g_assert_cmpint (item.event->type, ==, TRACE_STREAM_EVENT_STREAM_START);
  trace_stream_event_unref (item.event);
  g_assert_true (_trace_batch_queue_take (&q, NULL, &item));
  g_assert_cmpuint (item.batch->n_events, ==, 5);
  trace_batch_unref (item.batch);
  g_assert_cmpuint (_trace_batch_queue_get_level (&q), ==, 0);
  g_assert_true (_trace_batch_queue_take (&q, NULL, &item));
  g_assert_cmpint (item.event->type, ==, TRACE_STREAM_EVENT_EOS);
  trace_stream_event_unref (item.event);
  _trace_batch_queue_clear (&q);
}

static void
test_close_and_fail (void)
{
  TraceBatchQueue q;
  TraceBatchQueueItem item;

  _trace_batch_queue_init (&q, 4);
  _trace_batch_queue_push (&q, make_batch (1), TRUE);
  _trace_batch_queue_close (&q);
  /* closed: refused with EOS, ready (a push would not wait), nothing taken */
  g_assert_cmpint (_trace_batch_queue_push (&q, make_batch (1), TRUE), ==, TRACE_FLOW_EOS);
  _trace_batch_queue_push_event (&q, trace_stream_event_new_eos ());
  g_assert_true (_trace_batch_queue_is_ready (&q));
  g_assert_false (_trace_batch_queue_take (&q, NULL, &item));
  _trace_batch_queue_flush (&q);
  g_assert_cmpuint (_trace_batch_queue_get_level (&q), ==, 0);

  /* a failure replaces EOS; closing again keeps the failure */
  _trace_batch_queue_fail (&q, TRACE_FLOW_ERROR);
  _trace_batch_queue_close (&q);
  g_assert_cmpint (_trace_batch_queue_push (&q, make_batch (1), TRUE), ==, TRACE_FLOW_ERROR);

  /* open again: taken */
  _trace_batch_queue_open (&q);
  g_assert_cmpint (_trace_batch_queue_push (&q, make_batch (1), TRUE), ==, TRACE_FLOW_OK);
  _trace_batch_queue_clear (&q);
}

/* A closed queue wakes a pusher waiting for room, and a taker waiting
 * for an item. */
static gpointer
take_thread (gpointer data)
{
  TraceBatchQueueItem item;

  return GINT_TO_POINTER (_trace_batch_queue_take (data, NULL, &item));
}

static void
test_close_wakes_waiters (void)
{
  TraceBatchQueue q;
  Pusher p = { &q, 1, TRACE_FLOW_OK };
  GThread *pusher, *taker;

  _trace_batch_queue_init (&q, 1);
  taker = g_thread_new ("taker", take_thread, &q);
  wait_a_little ();
  _trace_batch_queue_close (&q);
  g_assert_false (GPOINTER_TO_INT (g_thread_join (taker)));

  _trace_batch_queue_open (&q);
  _trace_batch_queue_push (&q, make_batch (1), TRUE);
  pusher = g_thread_new ("pusher", push_thread, &p);
  wait_a_little ();
  _trace_batch_queue_close (&q);
  g_thread_join (pusher);
  g_assert_cmpint (p.ret, ==, TRACE_FLOW_EOS);
  _trace_batch_queue_clear (&q);
}

typedef struct
{
  TraceBatchQueue *queue;
  gint handled; /* batches the taker was done with */
} Taker;

static gpointer
slow_taker (gpointer data)
{
  Taker *t = data;
  TraceBatchQueueItem item;

  while (_trace_batch_queue_take (t->queue, NULL, &item))
    {
      wait_a_little ();
      trace_batch_unref (item.batch);
      g_atomic_int_inc (&t->handled);
    }
  return NULL;
}

/* Drain returns once the taker came back for more after the last item,
 * not merely once the list is empty. */
static void
test_drain_waits_for_taker (void)
{
  TraceBatchQueue q;
  Taker t = { &q, 0 };
  GThread *thread;

  _trace_batch_queue_init (&q, 2);
  thread = g_thread_new ("taker", slow_taker, &t);
  for (guint i = 0; i < 3; i++)
    _trace_batch_queue_push (&q, make_batch (1), TRUE);
  _trace_batch_queue_drain (&q);
  g_assert_cmpint (g_atomic_int_get (&t.handled), ==, 3);
  _trace_batch_queue_close (&q);
  g_thread_join (thread);
  _trace_batch_queue_clear (&q);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/batch-queue/bound-and-wait", test_bound_and_wait);
  g_test_add_func ("/batch-queue/max-batches-raised", test_max_batches_raised);
  g_test_add_func ("/batch-queue/events-keep-their-place", test_events_keep_their_place);
  g_test_add_func ("/batch-queue/close-and-fail", test_close_and_fail);
  g_test_add_func ("/batch-queue/close-wakes-waiters", test_close_wakes_waiters);
  g_test_add_func ("/batch-queue/drain-waits-for-taker", test_drain_waits_for_taker);
  return g_test_run ();
}
