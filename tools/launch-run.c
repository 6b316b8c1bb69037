/* tracepipe tools - running a pipeline: shared by trace-launch and trace-convert
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "launch.h"
#include "tool-util.h"

/* Everything these functions print is status: it goes to standard error,
 * so that standard output carries only what a sink writes there
 * (location=-, or no location in a pipe) and `trace-launch … > out` gives
 * a readable file. */

/* SIGINT (Ctrl-C) and SIGTERM (timeout, systemd, CI runners) both stop
 * gracefully the first time: the outputs are finished, and the exit
 * status is 128 + the first signal's number, as the shell reports a
 * process killed by it. Either one a second time aborts. */
static gboolean
on_stop_signal (LaunchState *s,
                int signum)
{
  const char *what = signum == SIGTERM ? "Terminated" : "Interrupt";

  s->n_interrupts++;
  launch_clear_line (s);
  if (s->n_interrupts == 1)
    {
      s->interrupt_exit_code = 128 + signum;
      g_printerr ("%s: stopping the sources and finishing the outputs (%s again to abort)...\n", what,
                  signum == SIGTERM ? "send SIGTERM or press Ctrl-C" : "press Ctrl-C");
      trace_pipeline_send_eos (TRACE_PIPELINE (s->pipeline));
      return G_SOURCE_CONTINUE;
    }
  g_printerr ("%s: aborting; the outputs are not finished.\n", what);
  s->exit_code = s->interrupt_exit_code;
  g_main_loop_quit (s->loop);
  /* A third signal of either kind, should stopping hang, gets the
   * default action: no source may watch either any more. */
  g_source_remove (signum == SIGTERM ? s->sigint_source : s->sigterm_source);
  s->sigint_source = s->sigterm_source = 0;
  return G_SOURCE_REMOVE;
}

static gboolean
on_sigint (gpointer user_data)
{
  return on_stop_signal (user_data, SIGINT);
}

static gboolean
on_sigterm (gpointer user_data)
{
  return on_stop_signal (user_data, SIGTERM);
}

static gboolean
on_sighup (gpointer user_data)
{
  LaunchState *s = user_data;

  tool_dump_dot_to_env_dir (s->pipeline, "SIGHUP");
  return G_SOURCE_CONTINUE;
}

/* When the start fails, the elements posted why; the loop has not run,
 * so the messages are still queued. */
static void
report_start_failure (LaunchState *s)
{
  TraceBus *bus = trace_pipeline_get_bus (TRACE_PIPELINE (s->pipeline));
  TraceMessage *message;

  while ((message = trace_bus_pop (bus)) != NULL)
    {
      launch_handle_message (s, message);
      trace_message_unref (message);
    }
  if (!s->got_error)
    g_printerr ("ERROR: the pipeline could not be started\n");
  s->exit_code = LAUNCH_EXIT_RUNTIME_ERROR;
}

static void
exit_on_signal (int signum)
{
  _exit (128 + signum);
}

/* Once the loop has ended nothing dispatches the signal sources. A
 * signal after that (a second Ctrl-C while the statistics are printed,
 * or while an aborted pipeline goes to NULL) still ends the process at
 * once, as the default action would, but with the exit status the tool
 * documents instead of a death by signal. */
static void
stop_watching_signals (LaunchState *s)
{
  if (s->sigint_source != 0)
    g_source_remove (s->sigint_source);
  if (s->sigterm_source != 0)
    g_source_remove (s->sigterm_source);
  s->sigint_source = s->sigterm_source = 0;
  signal (SIGINT, exit_on_signal);
  signal (SIGTERM, exit_on_signal);
}

static void
run (LaunchState *s)
{
  TraceBus *bus = trace_pipeline_get_bus (TRACE_PIPELINE (s->pipeline));
  guint watch, sighup;

  s->loop = g_main_loop_new (NULL, FALSE);
  s->start_time = g_get_monotonic_time ();
  s->sigint_source = g_unix_signal_add (SIGINT, on_sigint, s);
  s->sigterm_source = g_unix_signal_add (SIGTERM, on_sigterm, s);
  sighup = g_unix_signal_add (SIGHUP, on_sighup, s);
  if (!s->quiet)
    g_printerr ("Setting pipeline to PLAYING ...\n");
  if (trace_element_set_state (s->pipeline, TRACE_STATE_PLAYING) != TRACE_STATE_CHANGE_SUCCESS)
    report_start_failure (s);
  else
    {
      if (!s->quiet)
        g_printerr ("Pipeline is PLAYING ...\n");
      watch = trace_bus_add_watch (bus, launch_on_bus_message, s);
      launch_progress_start (s);
      g_main_loop_run (s->loop);
      launch_progress_stop (s);
      g_source_remove (watch);
    }
  g_source_remove (sighup);
  stop_watching_signals (s);
}

static void
finish (LaunchState *s)
{
  g_autoptr (GError) error = NULL;
  gboolean aborted = s->n_interrupts >= 2;

  if (s->stats && !aborted)
    launch_print_stats (s);
  if (s->verbose && !aborted)
    launch_print_verbose (s);
  if (s->dot_file != NULL && !tool_write_dot (s->pipeline, s->dot_file, &error))
    g_printerr ("WARNING: could not write %s: %s\n", s->dot_file, error->message);
  trace_element_set_state (s->pipeline, TRACE_STATE_NULL);
  if (!s->quiet)
    launch_print_ending (s);
}

/**
 * launch_run:
 * @s: the tool's state, with its options and @s->pipeline set
 *
 * Plays the pipeline until EOS, an error or Ctrl-C, prints what the
 * options asked for and takes the pipeline back to NULL.
 *
 * Returns: the exit code (LAUNCH_EXIT_*)
 */
int
launch_run (LaunchState *s)
{
  run (s);
  finish (s);
  return s->exit_code;
}

/* --- standard input and output as the default locations --- */

static gboolean
location_is_unset (GObject *element)
{
  g_autofree char *location = NULL;

  g_object_get (element, "location", &location, NULL);
  return location == NULL || *location == '\0';
}

static gboolean
location_is_stdio (GObject *element)
{
  g_autofree char *location = NULL;

  g_object_get (element, "location", &location, NULL);
  return g_strcmp0 (location, "-") == 0;
}

/* One file source (or sink) without a location gets "-" when that stream
 * is not a terminal; a terminal gets a message saying what to set. */
static gboolean
default_location (TraceElement *element,
                  gboolean is_src,
                  guint *n_users,
                  GError **error)
{
  const char *stream = is_src ? "standard input" : "standard output";
  const char *name = trace_element_get_name (element);

  if (location_is_stdio (G_OBJECT (element)))
    (*n_users)++;
  if (!location_is_unset (G_OBJECT (element)))
    return TRUE;
  if (isatty (is_src ? STDIN_FILENO : STDOUT_FILENO))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "%s has no location and %s is a terminal: set location=FILE%s", name, stream,
                   is_src ? ", or pipe a trace in (< trace.txt)" : ", or redirect the output (> out.pftrace)");
      return FALSE;
    }
  if (++*n_users > 1)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "%s has no location and another element already uses %s: set location=FILE", name, stream);
      return FALSE;
    }
  g_object_set (element, "location", "-", NULL);
  return TRUE;
}

static gboolean
default_locations_in (TraceBin *bin,
                      guint *n_readers,
                      guint *n_writers,
                      GError **error)
{
  for (const GList *l = trace_bin_get_children (bin); l; l = l->next)
    {
      if (TRACE_IS_BIN (l->data) && !default_locations_in (l->data, n_readers, n_writers, error))
        return FALSE;
      if (TRACE_IS_FILE_SRC (l->data) && !default_location (l->data, TRUE, n_readers, error))
        return FALSE;
      if (TRACE_IS_FILE_SINK (l->data) && !default_location (l->data, FALSE, n_writers, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * launch_default_locations:
 * @pipeline: a parsed pipeline
 * @error: where to say what the user must set
 *
 * Makes the command a filter: a file source without `location` reads
 * standard input and a file sink without one writes standard output,
 * unless that stream is a terminal (then typing a binary trace, or
 * seeing one printed, is never what was meant).
 *
 * Returns: %FALSE when a location must be set
 */
gboolean
launch_default_locations (TraceElement *pipeline,
                          GError **error)
{
  guint n_readers = 0, n_writers = 0;

  return default_locations_in (TRACE_BIN (pipeline), &n_readers, &n_writers, error);
}
