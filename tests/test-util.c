/* Helpers shared by the test programs. */
#include "test-util.h"

#include <string.h>
#include <sys/resource.h>

static TraceFlowReturn
tsp_chain (TracePad *pad,
           TraceElement *parent,
           TraceBatch *batch)
{
  TestSinkPad *tsp = trace_pad_get_element_private (pad);

  g_mutex_lock (&tsp->lock);
  g_queue_push_tail (&tsp->batches, batch);
  g_mutex_unlock (&tsp->lock);
  return TRACE_FLOW_OK;
}

static gboolean
tsp_event (TracePad *pad,
           TraceElement *parent,
           TraceStreamEvent *event)
{
  TestSinkPad *tsp = trace_pad_get_element_private (pad);

  if (event->type == TRACE_STREAM_EVENT_EOS)
    {
      g_mutex_lock (&tsp->lock);
      tsp->eos = TRUE;
      g_mutex_unlock (&tsp->lock);
    }
  trace_stream_event_unref (event);
  return TRUE;
}

static gboolean
tsp_ready (TracePad *pad,
           TraceElement *parent)
{
  TestSinkPad *tsp = trace_pad_get_element_private (pad);

  return g_atomic_int_get (&tsp->ready);
}

TestSinkPad *
test_sink_pad_new (void)
{
  TestSinkPad *tsp = g_new0 (TestSinkPad, 1);

  tsp->pad = trace_pad_new ("test-sink", TRACE_PAD_SINK, NULL);
  tsp->ready = TRUE;
  g_mutex_init (&tsp->lock);
  g_queue_init (&tsp->batches);
  trace_pad_set_element_private (tsp->pad, tsp);
  trace_pad_set_chain_function (tsp->pad, tsp_chain);
  trace_pad_set_event_function (tsp->pad, tsp_event);
  trace_pad_set_ready_function (tsp->pad, tsp_ready);
  return tsp;
}

void
test_sink_pad_free (TestSinkPad *tsp)
{
  TracePad *peer = trace_pad_get_peer (tsp->pad);

  if (peer)
    trace_pad_unlink (peer, tsp->pad);
  g_queue_clear_full (&tsp->batches, (GDestroyNotify) trace_batch_unref);
  g_object_unref (tsp->pad);
  g_mutex_clear (&tsp->lock);
  g_free (tsp);
}

guint
test_sink_pad_count_events (TestSinkPad *tsp)
{
  guint n = 0;

  g_mutex_lock (&tsp->lock);
  for (GList *l = tsp->batches.head; l; l = l->next)
    n += ((TraceBatch *) l->data)->n_events;
  g_mutex_unlock (&tsp->lock);
  return n;
}

static gboolean
on_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

typedef struct
{
  TraceElement *pipeline;
  TraceMessage *result;
} RunResult;

/* A bus watch, not polling after each iteration: a message posted from a
 * streaming thread wakes the context only through a watch. */
static gboolean
on_bus_message (TraceBus *bus,
                TraceMessage *msg,
                gpointer data)
{
  RunResult *run = data;

  if (run->result == NULL &&
      (msg->type == TRACE_MESSAGE_ERROR || (msg->type == TRACE_MESSAGE_EOS && msg->src == G_OBJECT (run->pipeline))))
    run->result = trace_message_ref (msg);
  return G_SOURCE_CONTINUE;
}

TraceMessage *
test_run_pipeline (TraceElement *pipeline,
                   guint timeout_ms)
{
  TracePipeline *p = TRACE_PIPELINE (pipeline);
  GMainContext *ctx = trace_pipeline_get_context (p);
  gboolean timed_out = FALSE;
  GSource *timer = g_timeout_source_new (timeout_ms);
  GSource *watch = trace_bus_create_watch (trace_pipeline_get_bus (p));
  RunResult run = { pipeline, NULL };

  g_source_set_callback (timer, on_timeout, &timed_out, NULL);
  g_source_attach (timer, ctx);
  g_source_set_callback (watch, (GSourceFunc) on_bus_message, &run, NULL);
  g_source_attach (watch, ctx);
  if (trace_element_set_state (pipeline, TRACE_STATE_PLAYING) != TRACE_STATE_CHANGE_SUCCESS)
    run.result = trace_bus_pop_filtered (trace_pipeline_get_bus (p), TRACE_MESSAGE_ERROR);
  while (run.result == NULL && !timed_out)
    g_main_context_iteration (ctx, TRUE);
  g_source_destroy (watch);
  g_source_unref (watch);
  g_source_destroy (timer);
  g_source_unref (timer);
  return run.result;
}

TraceBatch *
test_make_slices (TraceStringPool *pool,
                  gint64 pid,
                  gint64 tid,
                  gint64 first_ts,
                  guint n_pairs)
{
  TraceBatch *batch = trace_batch_new (pool, 0);
  guint32 name = trace_string_pool_intern (pool, "work");

  for (guint i = 0; i < n_pairs; i++)
    {
      TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_SLICE_BEGIN, first_ts + i * 10);
      ev->pid = pid, ev->tid = tid, ev->name = name;
      ev = trace_batch_append (batch, TRACE_EVENT_SLICE_END, first_ts + i * 10 + 5);
      ev->pid = pid, ev->tid = tid;
    }
  return batch;
}

void
test_add_arg_text (TraceBatch *batch,
                   TraceEvent *event,
                   const char *key,
                   const char *value)
{
  trace_batch_add_arg_text (batch, event, trace_string_pool_intern (batch->pool, key), value, strlen (value));
}

/* collectsink: a sink that appends every event it receives to the batch
 * set as the object data "collect" (a test reads it after EOS). */
#define TEST_TYPE_COLLECT_SINK (test_collect_sink_get_type ())
G_DECLARE_FINAL_TYPE (TestCollectSink, test_collect_sink, TEST, COLLECT_SINK, TraceBaseSink)
struct _TestCollectSink
{
  TraceBaseSink parent_instance;
};
G_DEFINE_FINAL_TYPE (TestCollectSink, test_collect_sink, TRACE_TYPE_BASE_SINK)

static TraceFlowReturn
collect_render (TraceBaseSink *sink,
                TraceBatch *batch,
                GError **error)
{
  TraceBatch *all = g_object_get_data (G_OBJECT (sink), "collect");

  if (all)
    for (guint i = 0; i < batch->n_events; i++)
      trace_batch_append_event (all, &batch->events[i], batch);
  return TRACE_FLOW_OK;
}

static void
test_collect_sink_class_init (TestCollectSinkClass *klass)
{
  TRACE_BASE_SINK_CLASS (klass)->render = collect_render;
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Collect", "Sink/Test",
                                    "Collects events for a test", "tests");
}

static void
test_collect_sink_init (TestCollectSink *self)
{
}

void
test_register_collect_sink (void)
{
  trace_element_register (NULL, "collectsink", TRACE_RANK_NONE, TEST_TYPE_COLLECT_SINK);
}

void
test_limit_address_space (gsize spare)
{
  g_autofree char *status = NULL;
  const char *line;
  struct rlimit as;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, "\nVmSize:");
  g_assert_nonnull (line);
  as.rlim_cur = as.rlim_max = g_ascii_strtoull (line + strlen ("\nVmSize:"), NULL, 10) * 1024 + spare;
  g_assert_cmpint (setrlimit (RLIMIT_AS, &as), ==, 0);
}

static const char *watched_needle;
static guint watched_count;

static GLogWriterOutput
watch_debug_messages (GLogLevelFlags level,
                      const GLogField *fields,
                      gsize n_fields,
                      gpointer user_data)
{
  if (!(level & G_LOG_LEVEL_DEBUG))
    return g_log_writer_default (level, fields, n_fields, user_data);
  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0 &&
        strstr (fields[i].value, watched_needle) != NULL)
      g_atomic_int_inc (&watched_count);
  return G_LOG_WRITER_HANDLED;
}

void
test_watch_debug_messages (const char *needle)
{
  watched_needle = needle;
  g_log_set_writer_func (watch_debug_messages, NULL, NULL);
  g_log_set_debug_enabled (TRUE);
}

guint
test_get_watched_debug_messages (void)
{
  return g_atomic_int_get (&watched_count);
}

void
test_reset_watched_debug_messages (void)
{
  g_atomic_int_set (&watched_count, 0);
}

gboolean
test_under_valgrind (void)
{
  const char *preload = g_getenv ("LD_PRELOAD");

  return preload != NULL && strstr (preload, "vgpreload") != NULL;
}

struct _TestLender
{
  GMutex lock;
  GCond cond;
  gboolean stop;
  guint pieces;
  GThread *thread;
};

static gboolean
lender_stopping (gpointer data)
{
  return ((TestLender *) data)->stop;
}

static gpointer
lender_loop (gpointer data)
{
  TestLender *l = data;

  g_mutex_lock (&l->lock);
  while (!l->stop)
    l->pieces += trace_spare_work_idle (&l->lock, &l->cond, lender_stopping, l);
  g_mutex_unlock (&l->lock);
  return NULL;
}

TestLender *
test_lender_start (void)
{
  TestLender *l = g_new0 (TestLender, 1);

  g_mutex_init (&l->lock);
  g_cond_init (&l->cond);
  trace_spare_work_lend (&l->lock, &l->cond);
  l->thread = g_thread_new ("test-lender", lender_loop, l);
  return l;
}

guint
test_lender_get_pieces (TestLender *l)
{
  guint n;

  g_mutex_lock (&l->lock);
  n = l->pieces;
  g_mutex_unlock (&l->lock);
  return n;
}

guint
test_lender_stop (TestLender *l)
{
  guint n;

  trace_spare_work_unlend (&l->cond);
  g_mutex_lock (&l->lock);
  l->stop = TRUE;
  g_cond_broadcast (&l->cond);
  g_mutex_unlock (&l->lock);
  g_thread_join (l->thread);
  n = l->pieces;
  g_mutex_clear (&l->lock);
  g_cond_clear (&l->cond);
  g_free (l);
  return n;
}
