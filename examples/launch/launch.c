/* examples/launch: a pipeline from a launch string, and its statistics
 *
 * Usage: launch INPUT OUTPUT.pftrace
 *        launch --pipeline 'DESCRIPTION'
 *
 * The first form runs
 *   ftrace-src location=INPUT ! filter tid=main ! perfetto-sink location=OUTPUT
 * the second any description trace-launch would take. At the end it
 * prints what each element counted (its STATS message): events in and
 * out, events dropped, lines skipped by reason.
 * Exit status: 0 done, 1 error, 2 bad usage or description.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <trace/trace.h>

typedef struct
{
  GMainLoop *loop;
  GPtrArray *stats; /* TraceMessage*, in the order they came */
  int exit_status;
} App;

static gboolean
on_message (TraceBus *bus,
            TraceMessage *message,
            gpointer user_data)
{
  App *app = user_data;

  switch (message->type)
    {
    case TRACE_MESSAGE_STATS:
      /* Each element posts one when its stream ends: sources once they
       * read everything, filters and sinks at EOS. All of them come
       * before the pipeline's EOS. Keep them for the end. */
      g_ptr_array_add (app->stats, trace_message_ref (message));
      break;
    case TRACE_MESSAGE_WARNING:
    case TRACE_MESSAGE_ERROR:
      {
        /* One line: the type, the element's path, file:line, the text. */
        g_autofree char *text = trace_message_to_string (message);
        g_printerr ("%s\n", text);
        if (message->type == TRACE_MESSAGE_ERROR)
          {
            app->exit_status = 1;
            g_main_loop_quit (app->loop);
          }
        break;
      }
    case TRACE_MESSAGE_EOS:
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
    }
  return G_SOURCE_CONTINUE;
}

/* STATS details are an `a{sv}` dictionary: print every counter. */
static void
print_stats (GPtrArray *stats)
{
  for (guint i = 0; i < stats->len; i++)
    {
      TraceMessage *message = stats->pdata[i];
      GVariantIter iter;
      const char *key;
      GVariant *value;

      g_print ("%s\n", message->src_path);
      g_variant_iter_init (&iter, message->details);
      while (g_variant_iter_loop (&iter, "{&sv}", &key, &value))
        {
          g_autofree char *text = g_variant_print (value, FALSE);
          g_print ("  %s = %s\n", key, text);
        }
    }
}

/* A path inside a launch string: double-quoted, with `"` and `\`
 * escaped, so blanks and `!` in file names are harmless. */
static char *
quote (const char *text)
{
  GString *out = g_string_new ("\"");

  for (const char *c = text; *c; c++)
    {
      if (*c == '"' || *c == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *c);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

static char *
description_from_args (int argc,
                       char **argv)
{
  g_autofree char *input = NULL, *output = NULL;

  if (argc == 3 && strcmp (argv[1], "--pipeline") == 0)
    return g_strdup (argv[2]);
  if (argc != 3)
    return NULL;
  input = quote (argv[1]);
  output = quote (argv[2]);
  return g_strdup_printf ("ftrace-src location=%s ! filter tid=main ! perfetto-sink location=%s",
                          input, output);
}

int
main (int argc,
      char **argv)
{
  App app = { 0 };
  g_autofree char *description = description_from_args (argc, argv);
  g_autoptr (TraceElement) pipeline = NULL;
  g_autoptr (GError) error = NULL;
  guint watch_id;

  if (description == NULL)
    {
      g_printerr ("usage: %s INPUT OUTPUT.pftrace\n"
                  "       %s --pipeline 'DESCRIPTION'\n",
                  argv[0], argv[0]);
      return 2;
    }
  trace_init (&argc, &argv);

  /* Everything is created and linked before this returns, or nothing:
   * the error says where (`1:1: no element "ftrce-src" (did you mean
   * "ftrace-src"?)`). A missing plugin shows up here. */
  pipeline = trace_parse_launch (description, &error);
  if (pipeline == NULL)
    {
      g_printerr ("ERROR: %s\n", error->message);
      return 2;
    }

  app.loop = g_main_loop_new (NULL, FALSE);
  app.stats = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_message_unref);
  watch_id = trace_bus_add_watch (trace_pipeline_get_bus (TRACE_PIPELINE (pipeline)), on_message, &app);

  if (trace_element_set_state (pipeline, TRACE_STATE_PLAYING) == TRACE_STATE_CHANGE_SUCCESS)
    g_main_loop_run (app.loop);
  else
    {
      app.exit_status = 1;
      while (g_main_context_iteration (NULL, FALSE))
        ; /* deliver the ERROR that says why */
    }
  trace_element_set_state (pipeline, TRACE_STATE_NULL);

  if (app.exit_status == 0)
    print_stats (app.stats);
  g_source_remove (watch_id);
  g_ptr_array_unref (app.stats);
  g_main_loop_unref (app.loop);
  return app.exit_status;
}
