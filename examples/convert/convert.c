/* examples/convert: build `ftrace-src ! filter ! perfetto-sink` in C
 *
 * Usage: convert INPUT OUTPUT.pftrace [TID]
 *
 * Converts an ftrace/atrace/systrace file to a Perfetto trace, keeping
 * only the events of thread TID (default `main`: every process's main
 * thread). The same as
 *
 *   trace-launch ftrace-src location=INPUT ! filter tid=main ! perfetto-sink location=OUTPUT
 *
 * but element by element, with the application watching the bus on its
 * own main loop. Exit status: 0 done, 1 error, 2 bad usage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib-unix.h>
#include <signal.h>
#include <trace/trace.h>

typedef struct
{
  GMainLoop *loop;
  TraceElement *pipeline;
  int exit_status;
} App;

/* Every message of the pipeline comes here, in the main loop's thread,
 * whatever thread posted it. */
static gboolean
on_message (TraceBus *bus,
            TraceMessage *message,
            gpointer user_data)
{
  App *app = user_data;

  switch (message->type)
    {
    case TRACE_MESSAGE_PROGRESS:
      /* Sources post at most ten a second; total is 0 for a pipe. */
      if (message->total > 0)
        g_print ("%s: %3u%% (%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes)\n",
                 message->src_path, (guint) (100 * message->done / message->total),
                 message->done, message->total);
      break;
    case TRACE_MESSAGE_WARNING:
      /* The output is still usable: say what was lost and carry on. */
      g_printerr ("WARNING: from %s: %s%s%s\n", message->src_path,
                  message->location ? message->location : "", message->location ? ": " : "",
                  message->error->message);
      break;
    case TRACE_MESSAGE_ERROR:
      g_printerr ("ERROR: from %s: %s%s%s\n", message->src_path,
                  message->location ? message->location : "", message->location ? ": " : "",
                  message->error->message);
      app->exit_status = 1;
      g_main_loop_quit (app->loop);
      break;
    case TRACE_MESSAGE_EOS:
      /* Only the pipeline's own EOS reaches the bus (a bin keeps its
       * sinks' EOS until all of them finished): the output is complete. */
      g_print ("done\n");
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
    }
  return G_SOURCE_CONTINUE;
}

/* Ctrl-C: end the stream early; the sink still completes a valid file. */
static gboolean
on_sigint (gpointer user_data)
{
  App *app = user_data;

  g_printerr ("interrupted: finishing the output\n");
  trace_pipeline_send_eos (TRACE_PIPELINE (app->pipeline));
  return G_SOURCE_CONTINUE;
}

/* A factory comes from a plugin that may not be installed: say which. */
static TraceElement *
make_element (const char *factory_name)
{
  g_autoptr (GError) error = NULL;
  TraceElement *element = trace_element_factory_make_checked (factory_name, NULL, &error);

  if (element == NULL)
    g_printerr ("ERROR: %s; is the plugin that provides it installed?\n", error->message);
  return element;
}

/* `tid` takes a number or `main`: convert the text as trace-launch does,
 * whatever the property's type, rather than guess that type here. */
static gboolean
set_property_from_text (TraceElement *element,
                        const char *key,
                        const char *text)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (element), key);
  g_auto (GValue) value = G_VALUE_INIT;
  g_autoptr (GError) error = NULL;

  if (pspec == NULL)
    {
      g_printerr ("ERROR: %s has no property \"%s\"\n", trace_element_get_factory_name (element), key);
      return FALSE;
    }
  if (!trace_value_from_string (pspec, text, &value, &error))
    {
      g_printerr ("ERROR: %s\n", error->message);
      return FALSE;
    }
  g_object_set_property (G_OBJECT (element), key, &value);
  return TRUE;
}

/* Builds the pipeline; returns NULL (having said why) if it cannot. */
static TraceElement *
build_pipeline (const char *input,
                const char *output,
                const char *tid)
{
  g_autoptr (TraceElement) pipeline = g_object_ref_sink (trace_pipeline_new ("convert"));
  TraceElement *src, *filter, *sink;
  g_autoptr (GError) error = NULL;

  /* Make all three first, so that every missing one is named. */
  src = make_element ("ftrace-src");
  filter = make_element ("filter");
  sink = make_element ("perfetto-sink");
  if (src == NULL || filter == NULL || sink == NULL)
    {
      /* Unowned (floating) elements are freed by a plain unref. */
      g_clear_object (&src);
      g_clear_object (&filter);
      g_clear_object (&sink);
      return NULL;
    }

  /* The bin takes the floating references: from here on, freeing the
   * pipeline frees them. */
  trace_bin_add_many (TRACE_BIN (pipeline), src, filter, sink, NULL);

  g_object_set (src, "location", input, NULL);
  g_object_set (sink, "location", output, NULL);
  if (!set_property_from_text (filter, "tid", tid))
    return NULL;

  /* Linking checks directions and media types. */
  if (!trace_element_link_many (&error, src, filter, sink, NULL))
    {
      g_printerr ("ERROR: %s\n", error->message);
      return NULL;
    }
  return g_steal_pointer (&pipeline);
}

int
main (int argc,
      char **argv)
{
  App app = { 0 };
  guint watch_id;

  if (argc < 3 || argc > 4)
    {
      g_printerr ("usage: %s INPUT OUTPUT.pftrace [TID]\n", argv[0]);
      return 2;
    }
  /* Registers the core elements and loads the installed plugins (and
   * those on TRACEPIPE_PLUGIN_PATH). */
  trace_init (&argc, &argv);

  app.pipeline = build_pipeline (argv[1], argv[2], argc > 3 ? argv[3] : "main");
  if (app.pipeline == NULL)
    return 1;

  /* The pipeline schedules its sources on the thread-default main
   * context of the thread that made it: the default one here. */
  app.loop = g_main_loop_new (NULL, FALSE);
  watch_id = trace_bus_add_watch (trace_pipeline_get_bus (TRACE_PIPELINE (app.pipeline)), on_message, &app);
  g_unix_signal_add (SIGINT, on_sigint, &app);

  /* NULL -> READY opens the files: a bad path fails here, and the
   * element posted an ERROR saying why, which the loop delivers. */
  if (trace_element_set_state (app.pipeline, TRACE_STATE_PLAYING) == TRACE_STATE_CHANGE_SUCCESS)
    g_main_loop_run (app.loop);
  else
    {
      app.exit_status = 1;
      while (g_main_context_iteration (NULL, FALSE))
        ; /* deliver the ERROR to on_message, which prints it */
    }

  /* PLAYING -> NULL: stops the sources and closes the files; without EOS
   * the sink deletes its temporary file and leaves no partial output. */
  trace_element_set_state (app.pipeline, TRACE_STATE_NULL);
  g_source_remove (watch_id);
  g_object_unref (app.pipeline);
  g_main_loop_unref (app.loop);
  return app.exit_status;
}
