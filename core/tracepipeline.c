/* tracepipe - the top-level bin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

/**
 * TracePipeline:
 *
 * The top-level bin: it owns the bus every message ends on, the main
 * context its sources are scheduled in, and the string pool its events'
 * ids refer to.
 */
struct _TracePipeline
{
  TraceBin parent_instance;

  TraceBus *bus;
  GMainContext *context;
  TraceStringPool *pool;
};

G_DEFINE_FINAL_TYPE (TracePipeline, trace_pipeline, TRACE_TYPE_BIN)

static void
trace_pipeline_dispose (GObject *object)
{
  TracePipeline *self = TRACE_PIPELINE (object);

  G_OBJECT_CLASS (trace_pipeline_parent_class)->dispose (object);
  if (self->bus)
    trace_bus_set_flushing (self->bus, TRUE);
  g_clear_object (&self->bus);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->pool, trace_string_pool_unref);
}

static TraceStateChangeReturn
trace_pipeline_change_state (TraceElement *element,
                             TraceStateChange transition)
{
  TraceBus *bus = TRACE_PIPELINE (element)->bus;
  TraceStateChangeReturn ret;

  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY)
    {
      g_autoptr (GError) error = NULL;
      TraceElement *first, *second;

      trace_bus_set_flushing (bus, FALSE);
      /* trace_parse_launch() refuses this already; a program that builds
       * its pipeline in C gets the same refusal before anything is
       * opened. */
      if (_trace_file_sink_find_shared_output (TRACE_BIN (element), &first, &second, &error))
        {
          trace_element_post_error_literal (second, error, NULL);
          return TRACE_STATE_CHANGE_FAILURE;
        }
    }
  ret = TRACE_ELEMENT_CLASS (trace_pipeline_parent_class)->change_state (element, transition);
  /* Back to NULL: what the bus holds, or would get, is about a run that
   * is over (its own STATE_CHANGED to NULL included). */
  if (transition == TRACE_STATE_CHANGE_READY_TO_NULL)
    trace_bus_set_flushing (bus, TRUE);
  return ret;
}

static void
trace_pipeline_class_init (TracePipelineClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = trace_pipeline_dispose;
  TRACE_ELEMENT_CLASS (klass)->change_state = trace_pipeline_change_state;
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Pipeline", "Generic/Bin",
                                    "The top-level bin with a bus", "tracepipe");
}

static void
trace_pipeline_init (TracePipeline *self)
{
  self->bus = trace_bus_new ();
  self->context = g_main_context_ref_thread_default ();
  self->pool = trace_string_pool_new ();
}

/**
 * trace_pipeline_new:
 * @name: (nullable): its name, `pipeline0` and so on if %NULL
 *
 * The pipeline runs in the thread-default main context of the thread that
 * makes it, unless trace_pipeline_set_context() says otherwise.
 *
 * Returns: (transfer floating): a new pipeline
 */
TraceElement *
trace_pipeline_new (const char *name)
{
  static gint counter;
  g_autofree char *generated = NULL;

  if (name == NULL)
    name = generated = g_strdup_printf ("pipeline%d", g_atomic_int_add (&counter, 1));
  return g_object_new (TRACE_TYPE_PIPELINE, "name", name, NULL);
}

/**
 * trace_pipeline_get_bus:
 * @pipeline: a #TracePipeline
 *
 * Returns: (transfer none): its bus
 */
TraceBus *
trace_pipeline_get_bus (TracePipeline *pipeline)
{
  g_return_val_if_fail (TRACE_IS_PIPELINE (pipeline), NULL);

  return pipeline->bus;
}

/**
 * trace_pipeline_get_context:
 * @pipeline: a #TracePipeline
 *
 * Returns: (transfer none): the main context its sources run in
 */
GMainContext *
trace_pipeline_get_context (TracePipeline *pipeline)
{
  g_return_val_if_fail (TRACE_IS_PIPELINE (pipeline), NULL);

  return pipeline->context;
}

/**
 * trace_pipeline_set_context:
 * @pipeline: a #TracePipeline in the NULL state
 * @context: the main context to run in
 */
void
trace_pipeline_set_context (TracePipeline *pipeline,
                            GMainContext *context)
{
  g_return_if_fail (TRACE_IS_PIPELINE (pipeline));
  g_return_if_fail (trace_element_get_state (TRACE_ELEMENT (pipeline)) == TRACE_STATE_NULL);

  g_clear_pointer (&pipeline->context, g_main_context_unref);
  pipeline->context = g_main_context_ref (context ? context : g_main_context_default ());
}

/**
 * trace_pipeline_get_string_pool:
 * @pipeline: a #TracePipeline
 *
 * Returns: (transfer none): the pool its elements intern strings in
 */
TraceStringPool *
trace_pipeline_get_string_pool (TracePipeline *pipeline)
{
  g_return_val_if_fail (TRACE_IS_PIPELINE (pipeline), NULL);

  return pipeline->pool;
}

/**
 * trace_pipeline_send_eos:
 * @pipeline: a #TracePipeline
 *
 * Ends the conversion early and cleanly: every source stops and sends
 * EOS, so the sinks complete valid files. What `trace-launch` does on
 * the first Ctrl-C.
 */
void
trace_pipeline_send_eos (TracePipeline *pipeline)
{
  g_return_if_fail (TRACE_IS_PIPELINE (pipeline));

  trace_element_send_eos (TRACE_ELEMENT (pipeline));
}

typedef struct
{
  TracePipeline *pipeline;
  GMainLoop *loop;
  GError *error;
} RunData;

static gboolean
run_bus_func (TraceBus *bus,
              TraceMessage *message,
              gpointer user_data)
{
  RunData *run = user_data;

  if (message->type == TRACE_MESSAGE_ERROR && run->error == NULL)
    {
      run->error = g_error_copy (message->error);
      if (message->location)
        g_prefix_error (&run->error, "%s: ", message->location);
      g_prefix_error (&run->error, "%s: ", message->src_path ? message->src_path : "pipeline");
      g_main_loop_quit (run->loop);
    }
  else if (message->type == TRACE_MESSAGE_WARNING)
    g_printerr ("WARNING: from %s: %s%s%s\n", message->src_path ? message->src_path : "pipeline",
                message->location ? message->location : "", message->location ? ": " : "",
                message->error ? message->error->message : "");
  else if (message->type == TRACE_MESSAGE_EOS && message->src == G_OBJECT (run->pipeline))
    g_main_loop_quit (run->loop);
  return G_SOURCE_CONTINUE;
}

/**
 * trace_pipeline_run:
 * @pipeline: a #TracePipeline in the NULL state
 * @error: where to put the first ERROR posted
 *
 * Runs the pipeline to the end on a #GMainLoop of its context: sets it
 * PLAYING, waits for EOS or an error, and sets it back to NULL. A
 * convenience for applications that need nothing else from the bus: it
 * watches the bus itself, so messages do not also reach a watch of the
 * application's; the WARNINGs it carries (lines a source skipped, events
 * a sink dropped) are printed to standard error as `trace-launch` prints
 * them, `WARNING: from /pipeline0/src: FILE: …`. An application that
 * wants them otherwise runs its own loop and bus watch.
 *
 * Returns: %TRUE when every sink finished
 */
gboolean
trace_pipeline_run (TracePipeline *pipeline,
                    GError **error)
{
  RunData run = { pipeline, NULL, NULL };
  gboolean started;
  g_autoptr (GSource) watch = NULL;

  g_return_val_if_fail (TRACE_IS_PIPELINE (pipeline), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  watch = trace_bus_create_watch (pipeline->bus);
  run.loop = g_main_loop_new (pipeline->context, FALSE);
  g_source_set_callback (watch, (GSourceFunc) run_bus_func, &run, NULL);
  g_source_attach (watch, pipeline->context);
  started = trace_element_set_state (TRACE_ELEMENT (pipeline), TRACE_STATE_PLAYING) == TRACE_STATE_CHANGE_SUCCESS;
  if (started)
    g_main_loop_run (run.loop);
  else
    {
      /* The element that refused posted why: deliver it. */
      while (run.error == NULL && g_main_context_iteration (pipeline->context, FALSE))
        ;
    }
  g_source_destroy (watch);
  trace_element_set_state (TRACE_ELEMENT (pipeline), TRACE_STATE_NULL);
  g_main_loop_unref (run.loop);
  if (run.error)
    {
      g_propagate_error (error, run.error);
      return FALSE;
    }
  if (!started)
    {
      g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_STATE_CHANGE, "the pipeline could not be started");
      return FALSE;
    }
  return TRUE;
}
