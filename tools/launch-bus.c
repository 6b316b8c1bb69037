/* tracepipe tools - trace-launch: bus messages and the progress line
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "launch.h"
#include "tool-util.h"

/* At most four redraws a second on a terminal: faster is flicker, and
 * every redraw costs a write on a slow link. */
#define PROGRESS_INTERVAL_MS 250
/* Without a terminal (--progress into a file or pipe), one line a second. */
#define PROGRESS_PLAIN_INTERVAL_US G_USEC_PER_SEC

static void
launch_progress_free (gpointer data)
{
  LaunchProgress *p = data;

  g_free (p->name);
  g_free (p);
}

void
launch_state_init (LaunchState *s)
{
  memset (s, 0, sizeof *s);
  s->sources = g_ptr_array_new_with_free_func (launch_progress_free);
  s->posted_stats = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_variant_unref);
}

void
launch_state_clear (LaunchState *s)
{
  launch_progress_stop (s);
  g_clear_pointer (&s->sources, g_ptr_array_unref);
  g_clear_pointer (&s->posted_stats, g_hash_table_unref);
  g_clear_pointer (&s->loop, g_main_loop_unref);
  g_clear_object (&s->pipeline);
  g_clear_pointer (&s->dot_file, g_free);
}

/* --- the progress line --- */

void
launch_clear_line (LaunchState *s)
{
  if (!s->line_on_screen)
    return;
  fputs ("\r\033[K", stderr);
  fflush (stderr);
  s->line_on_screen = FALSE;
}

static void
append_bytes (GString *out,
              guint64 bytes)
{
  g_autofree char *size = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);

  g_string_append (out, size);
}

/* 1234567 -> "1.23M": the progress line must stay short. */
static void
append_count (GString *out,
              double n)
{
  if (n >= 1e9)
    g_string_append_printf (out, "%.2fG", n / 1e9);
  else if (n >= 1e6)
    g_string_append_printf (out, "%.2fM", n / 1e6);
  else if (n >= 1e4)
    g_string_append_printf (out, "%.1fk", n / 1e3);
  else
    g_string_append_printf (out, "%.0f", n);
}

/* What left the sources: the events through the src pads of every
 * element without sink pads. Asking TraceBaseSrc for its count missed
 * auto-src, which runs the source that does the work inside itself, and
 * showed "0 events" for the whole run; the pads count for any source. */
static guint64
events_produced (TraceBin *bin)
{
  guint64 events = 0;

  for (const GList *l = trace_bin_get_children (bin); l; l = l->next)
    {
      if (trace_element_get_n_sink_pads (l->data) > 0)
        continue;
      for (const GList *p = trace_element_get_pads (l->data); p; p = p->next)
        {
          TracePadStats stats;

          trace_pad_get_stats (p->data, &stats);
          events += stats.events;
        }
    }
  return events;
}

/* " | ETA 0:01:05": the time left if reading goes on at its average rate,
 * from the bytes read of every source; none while a source has no known
 * size (a pipe) or nothing was read yet. */
static void
append_eta (GString *out,
            LaunchState *s,
            gint64 elapsed)
{
  guint64 done = 0, total = 0;
  gint64 left;

  for (guint i = 0; i < s->sources->len; i++)
    {
      LaunchProgress *p = g_ptr_array_index (s->sources, i);

      if (p->total == 0)
        return;
      done += MIN (p->done, p->total), total += p->total;
    }
  if (done == 0 || done >= total || elapsed <= 0)
    return;
  left = (gint64) ((double) elapsed * (total - done) / done / G_USEC_PER_SEC + 0.5);
  g_string_append_printf (out, " | ETA %" G_GINT64_FORMAT ":%02d:%02d", left / 3600, (int) (left / 60 % 60),
                          (int) (left % 60));
}

static char *
progress_text (LaunchState *s)
{
  GString *out = g_string_new (NULL);
  gint64 elapsed = g_get_monotonic_time () - s->start_time;
  guint64 events = events_produced (TRACE_BIN (s->pipeline));
  g_autofree char *duration = launch_format_duration (elapsed);

  for (guint i = 0; i < s->sources->len; i++)
    {
      LaunchProgress *p = g_ptr_array_index (s->sources, i);

      g_string_append_printf (out, "%s%s: ", i ? ", " : "", p->name);
      append_bytes (out, p->done);
      if (p->total > 0)
        {
          g_string_append (out, " / ");
          append_bytes (out, p->total);
          g_string_append_printf (out, " (%u%%)", (guint) (100.0 * p->done / p->total));
        }
    }
  g_string_append (out, out->len ? " | " : "");
  append_count (out, (double) events);
  g_string_append (out, " events, ");
  append_count (out, elapsed > 0 ? events * (double) G_USEC_PER_SEC / elapsed : 0);
  g_string_append (out, "/s");
  append_eta (out, s, elapsed);
  g_string_append_printf (out, " | %s", duration);
  return g_string_free (out, FALSE);
}

static guint
terminal_width (void)
{
  struct winsize ws;

  if (ioctl (STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return 80;
}

static void
draw_progress (LaunchState *s)
{
  g_autofree char *text = progress_text (s);
  gint64 now = g_get_monotonic_time ();

  if (!s->progress_tty)
    {
      if (now - s->last_draw < PROGRESS_PLAIN_INTERVAL_US)
        return;
      fprintf (stderr, "%s\n", text);
    }
  else
    {
      /* A line that wraps could not be redrawn with '\r'; cut it. */
      guint width = terminal_width () - 1;

      if (g_utf8_strlen (text, -1) > width)
        *g_utf8_offset_to_pointer (text, width) = '\0';
      fprintf (stderr, "\r%s\033[K", text);
      s->line_on_screen = TRUE;
    }
  fflush (stderr);
  s->last_draw = now;
}

static gboolean
on_progress_timer (gpointer user_data)
{
  draw_progress (user_data);
  return G_SOURCE_CONTINUE;
}

void
launch_progress_start (LaunchState *s)
{
  if (!s->progress || s->progress_timer != 0)
    return;
  s->progress_timer = g_timeout_add (PROGRESS_INTERVAL_MS, on_progress_timer, s);
}

void
launch_progress_stop (LaunchState *s)
{
  if (s->progress_timer != 0)
    g_source_remove (s->progress_timer);
  s->progress_timer = 0;
  launch_clear_line (s);
}

/* The pipeline's child that holds @element: the name the user wrote
 * (auto-src0, not the ftrace-src0 it made inside). */
static const char *
top_level_name (LaunchState *s,
                TraceElement *element)
{
  TraceElement *parent;

  while ((parent = trace_element_get_parent (element)) && parent != TRACE_ELEMENT (s->pipeline))
    element = parent;
  return trace_element_get_name (element);
}

/* A source of a file is shown by the file it reads (`<stdin>` for
 * standard input), which is what the user named; any other by the name
 * of its element in the pipeline. */
static const char *
progress_label (LaunchState *s,
                TraceMessage *message)
{
  if (message->src == NULL || !TRACE_IS_ELEMENT (message->src))
    return message->src_path;
  if (TRACE_IS_FILE_SRC (message->src))
    return trace_file_src_get_display_name (TRACE_FILE_SRC (message->src));
  return top_level_name (s, TRACE_ELEMENT (message->src));
}

static void
update_progress (LaunchState *s,
                 TraceMessage *message)
{
  const char *name = progress_label (s, message);
  LaunchProgress *p = NULL;

  if (name == NULL)
    return;
  for (guint i = 0; i < s->sources->len && p == NULL; i++)
    if (strcmp (((LaunchProgress *) g_ptr_array_index (s->sources, i))->name, name) == 0)
      p = g_ptr_array_index (s->sources, i);
  if (p == NULL)
    {
      p = g_new0 (LaunchProgress, 1);
      p->name = g_strdup (name);
      g_ptr_array_add (s->sources, p);
    }
  p->done = message->done;
  p->total = message->total;
}

/* --- messages --- */

static void
print_problem (LaunchState *s,
               const char *label,
               TraceMessage *message)
{
  launch_clear_line (s);
  g_printerr ("%s: from %s: %s%s%s\n", label, message->src_path ? message->src_path : "(unknown)",
              message->location ? message->location : "", message->location ? ": " : "",
              message->error ? message->error->message : "(no message)");
  if (s->verbose && message->debug != NULL)
    g_printerr ("Additional debug info:\n%s\n", message->debug);
}

static void
handle_error (LaunchState *s,
              TraceMessage *message)
{
  print_problem (s, "ERROR", message);
  tool_dump_dot_to_env_dir (s->pipeline, "error");
  if (!s->got_error)
    {
      s->got_error = TRUE;
      s->exit_code = LAUNCH_EXIT_RUNTIME_ERROR;
    }
  if (s->loop != NULL)
    g_main_loop_quit (s->loop);
}

static void
handle_state_changed (LaunchState *s,
                      TraceMessage *message)
{
  g_autofree char *tag = NULL;

  if (message->src != G_OBJECT (s->pipeline))
    return;
  tag = g_strdup_printf ("%s_%s", trace_state_to_string (message->old_state),
                         trace_state_to_string (message->new_state));
  tool_dump_dot_to_env_dir (s->pipeline, tag);
}

static void
handle_eos (LaunchState *s,
            TraceMessage *message)
{
  if (message->src != G_OBJECT (s->pipeline))
    return;
  if (!s->quiet)
    {
      launch_clear_line (s);
      g_printerr ("Got EOS from %s.\n", message->src_path ? message->src_path : "the pipeline");
    }
  if (!s->got_error)
    s->exit_code = s->n_interrupts > 0 ? s->interrupt_exit_code : LAUNCH_EXIT_OK;
  if (s->loop != NULL)
    g_main_loop_quit (s->loop);
}

/**
 * launch_handle_message:
 * @s: the tool's state
 * @message: a bus message
 *
 * Prints what the user asked to see and ends the main loop at EOS or on
 * the first error.
 */
void
launch_handle_message (LaunchState *s,
                       TraceMessage *message)
{
  if (s->messages)
    {
      g_autofree char *text = trace_message_to_string (message);

      launch_clear_line (s);
      g_printerr ("Got message: %s\n", text);
    }
  switch (message->type)
    {
    case TRACE_MESSAGE_ERROR:
      handle_error (s, message);
      break;
    case TRACE_MESSAGE_WARNING:
      print_problem (s, "WARNING", message);
      tool_dump_dot_to_env_dir (s->pipeline, "warning");
      break;
    case TRACE_MESSAGE_INFO:
      if (!s->quiet)
        print_problem (s, "INFO", message);
      break;
    case TRACE_MESSAGE_EOS:
      handle_eos (s, message);
      break;
    case TRACE_MESSAGE_STATE_CHANGED:
      handle_state_changed (s, message);
      break;
    case TRACE_MESSAGE_PROGRESS:
      update_progress (s, message);
      break;
    case TRACE_MESSAGE_STATS:
      if (message->details != NULL && message->src_path != NULL)
        g_hash_table_replace (s->posted_stats, g_strdup (message->src_path), g_variant_ref (message->details));
      break;
    default:
      break;
    }
}

gboolean
launch_on_bus_message (TraceBus *bus,
                       TraceMessage *message,
                       gpointer user_data)
{
  launch_handle_message (user_data, message);
  return G_SOURCE_CONTINUE;
}
