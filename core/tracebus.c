/* tracepipe - the bus: messages from elements to the application
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

/**
 * TraceBus:
 *
 * A thread-safe queue of #TraceMessage from the pipeline's elements to
 * the application. Elements post from any thread; a watch delivers the
 * messages in the main context it is attached to, in posting order.
 */
struct _TraceBus
{
  GObject parent_instance;

  GMutex lock;
  GQueue queue;
  GSList *watches; /* GSource*, not owned */
  gboolean flushing;
  guint n_errors; /* ERRORs posted since the last flush: see _trace_bus_get_n_errors() */
};

G_DEFINE_FINAL_TYPE (TraceBus, trace_bus, G_TYPE_OBJECT)

typedef struct
{
  GSource source;
  TraceBus *bus; /* owned */
} BusWatch;

static void
trace_bus_finalize (GObject *object)
{
  TraceBus *self = TRACE_BUS (object);

  g_queue_clear_full (&self->queue, (GDestroyNotify) trace_message_unref);
  g_slist_free (self->watches);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (trace_bus_parent_class)->finalize (object);
}

static void
trace_bus_class_init (TraceBusClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trace_bus_finalize;
}

static void
trace_bus_init (TraceBus *self)
{
  g_mutex_init (&self->lock);
  g_queue_init (&self->queue);
}

/**
 * trace_bus_new:
 *
 * Returns: (transfer full): a new bus
 */
TraceBus *
trace_bus_new (void)
{
  return g_object_new (TRACE_TYPE_BUS, NULL);
}

/**
 * trace_bus_post:
 * @bus: a #TraceBus
 * @message: (transfer full): the message
 *
 * Queues @message and wakes the watches. Safe from any thread.
 */
void
trace_bus_post (TraceBus *bus,
                TraceMessage *message)
{
  g_return_if_fail (TRACE_IS_BUS (bus));
  g_return_if_fail (message != NULL);

  g_mutex_lock (&bus->lock);
  if (bus->flushing)
    {
      g_mutex_unlock (&bus->lock);
      trace_message_unref (message);
      return;
    }
  if (message->type == TRACE_MESSAGE_ERROR)
    bus->n_errors++;
  g_queue_push_tail (&bus->queue, message);
  for (GSList *l = bus->watches; l; l = l->next)
    g_source_set_ready_time (l->data, 0);
  g_mutex_unlock (&bus->lock);
}

/**
 * trace_bus_pop_filtered:
 * @bus: a #TraceBus
 * @types: the types wanted
 *
 * Takes the oldest message of one of @types; messages of other types
 * before it are dropped.
 *
 * Returns: (transfer full) (nullable): the message, or %NULL
 */
TraceMessage *
trace_bus_pop_filtered (TraceBus *bus,
                        TraceMessageType types)
{
  TraceMessage *msg;

  g_return_val_if_fail (TRACE_IS_BUS (bus), NULL);

  g_mutex_lock (&bus->lock);
  while ((msg = g_queue_pop_head (&bus->queue)) != NULL)
    {
      if (msg->type & types)
        break;
      trace_message_unref (msg);
    }
  g_mutex_unlock (&bus->lock);
  return msg;
}

/**
 * trace_bus_pop:
 * @bus: a #TraceBus
 *
 * Returns: (transfer full) (nullable): the oldest message, or %NULL
 */
TraceMessage *
trace_bus_pop (TraceBus *bus)
{
  g_return_val_if_fail (TRACE_IS_BUS (bus), NULL);

  return trace_bus_pop_filtered (bus, TRACE_MESSAGE_ANY);
}

/**
 * trace_bus_set_flushing:
 * @bus: a #TraceBus
 * @flushing: whether to drop messages
 *
 * Drops every queued message and, while @flushing, every message posted.
 * A pipeline flushes its bus when it goes to NULL and stops when it leaves
 * NULL, as GStreamer's does: messages hold references to their elements,
 * so left on the bus they would keep the pipeline alive.
 */
void
trace_bus_set_flushing (TraceBus *bus,
                        gboolean flushing)
{
  g_return_if_fail (TRACE_IS_BUS (bus));

  g_mutex_lock (&bus->lock);
  bus->flushing = flushing;
  if (flushing)
    {
      g_queue_clear_full (&bus->queue, (GDestroyNotify) trace_message_unref);
      bus->n_errors = 0;
    }
  g_mutex_unlock (&bus->lock);
}

/* How many ERRORs were posted since the bus last flushed (the pipeline
 * went to NULL). A watch may already have taken them off the queue, so
 * an element that waits for data (app-sink driving the main context
 * itself) asks this rather than looking at the queue. */
guint
_trace_bus_get_n_errors (TraceBus *bus)
{
  guint n;

  g_mutex_lock (&bus->lock);
  n = bus->n_errors;
  g_mutex_unlock (&bus->lock);
  return n;
}

/**
 * trace_bus_have_pending:
 * @bus: a #TraceBus
 *
 * Returns: whether messages are queued
 */
gboolean
trace_bus_have_pending (TraceBus *bus)
{
  gboolean pending;

  g_return_val_if_fail (TRACE_IS_BUS (bus), FALSE);

  g_mutex_lock (&bus->lock);
  pending = !g_queue_is_empty (&bus->queue);
  g_mutex_unlock (&bus->lock);
  return pending;
}

static gboolean
bus_watch_dispatch (GSource *source,
                    GSourceFunc callback,
                    gpointer user_data)
{
  BusWatch *watch = (BusWatch *) source;
  TraceBusFunc func = (TraceBusFunc) callback;
  TraceMessage *msg;

  g_source_set_ready_time (source, -1);
  /* One message per dispatch keeps the loop responsive; re-arm if more. */
  msg = trace_bus_pop (watch->bus);
  if (trace_bus_have_pending (watch->bus))
    g_source_set_ready_time (source, 0);
  if (msg == NULL)
    return G_SOURCE_CONTINUE;
  if (func == NULL)
    {
      trace_message_unref (msg);
      return G_SOURCE_CONTINUE;
    }
  gboolean keep = func (watch->bus, msg, user_data);
  trace_message_unref (msg);
  return keep;
}

static void
bus_watch_finalize (GSource *source)
{
  BusWatch *watch = (BusWatch *) source;

  g_mutex_lock (&watch->bus->lock);
  watch->bus->watches = g_slist_remove (watch->bus->watches, source);
  g_mutex_unlock (&watch->bus->lock);
  g_object_unref (watch->bus);
}

static GSourceFuncs bus_watch_funcs = {
  .dispatch = bus_watch_dispatch,
  .finalize = bus_watch_finalize,
};

/**
 * trace_bus_create_watch:
 * @bus: a #TraceBus
 *
 * Returns: (transfer full): a #GSource whose callback is a #TraceBusFunc
 */
GSource *
trace_bus_create_watch (TraceBus *bus)
{
  GSource *source;
  BusWatch *watch;

  g_return_val_if_fail (TRACE_IS_BUS (bus), NULL);

  source = g_source_new (&bus_watch_funcs, sizeof (BusWatch));
  watch = (BusWatch *) source;
  g_source_set_name (source, "TraceBus watch");
  watch->bus = g_object_ref (bus);
  g_mutex_lock (&bus->lock);
  bus->watches = g_slist_prepend (bus->watches, source);
  g_source_set_ready_time (source, g_queue_is_empty (&bus->queue) ? -1 : 0);
  g_mutex_unlock (&bus->lock);
  return source;
}

/**
 * trace_bus_add_watch_full:
 * @bus: a #TraceBus
 * @context: (nullable): the main context, %NULL for the default
 * @func: (scope notified) (closure user_data) (destroy notify): called for
 *   each message
 * @user_data: data for @func
 * @notify: (nullable): frees @user_data
 *
 * Returns: the id of the watch source in @context
 */
guint
trace_bus_add_watch_full (TraceBus *bus,
                          GMainContext *context,
                          TraceBusFunc func,
                          gpointer user_data,
                          GDestroyNotify notify)
{
  g_autoptr (GSource) source = NULL;

  g_return_val_if_fail (TRACE_IS_BUS (bus), 0);
  g_return_val_if_fail (func != NULL, 0);

  source = trace_bus_create_watch (bus);
  g_source_set_callback (source, (GSourceFunc) func, user_data, notify);
  return g_source_attach (source, context);
}

/**
 * trace_bus_add_watch:
 * @bus: a #TraceBus
 * @func: (scope forever) (closure user_data): called for each message
 * @user_data: data for @func
 *
 * Watches @bus from the thread-default main context. Each message goes to
 * one watch: a bus has one consumer (as in GStreamer), so an application
 * that watches the bus itself runs its own loop rather than
 * trace_pipeline_run().
 *
 * Returns: the id of the watch source
 */
guint
trace_bus_add_watch (TraceBus *bus,
                     TraceBusFunc func,
                     gpointer user_data)
{
  g_return_val_if_fail (TRACE_IS_BUS (bus), 0);
  g_return_val_if_fail (func != NULL, 0);

  return trace_bus_add_watch_full (bus, g_main_context_get_thread_default (), func, user_data, NULL);
}
