/* tracepipe tools - trace-launch's state, shared by its files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/* Exit codes: stable, documented in --help and docs/launch-syntax.md. */
enum
{
  LAUNCH_EXIT_OK = 0,
  LAUNCH_EXIT_RUNTIME_ERROR = 1,
  LAUNCH_EXIT_USAGE = 2,
  LAUNCH_EXIT_INTERRUPTED = 130,
};

typedef struct
{
  char *name;
  guint64 done;
  guint64 total;
} LaunchProgress;

typedef struct
{
  /* options */
  gboolean verbose;
  gboolean quiet;
  gboolean messages;
  gboolean stats;
  gboolean progress;     /* draw the progress line */
  gboolean progress_tty; /* redraw in place; else one line a second */
  char *dot_file;

  TraceElement *pipeline;
  GMainLoop *loop;
  int exit_code;
  guint n_interrupts;
  gboolean got_error;
  gint64 start_time;

  GPtrArray *sources;       /* LaunchProgress*, in the order they first reported */
  GHashTable *posted_stats; /* element path -> GVariant a{sv} from STATS messages */
  guint progress_timer;
  gint64 last_draw;
  gboolean line_on_screen;
} LaunchState;

/* launch-bus.c */
void launch_state_init (LaunchState *s);
void launch_state_clear (LaunchState *s);
gboolean launch_on_bus_message (TraceBus *bus,
                                TraceMessage *message,
                                gpointer user_data);
void launch_handle_message (LaunchState *s,
                            TraceMessage *message);
void launch_progress_start (LaunchState *s);
void launch_progress_stop (LaunchState *s);
void launch_clear_line (LaunchState *s);

/* launch-run.c */
int launch_run (LaunchState *s);
gboolean launch_default_locations (TraceElement *pipeline,
                                   GError **error);

/* launch-report.c */
GPtrArray *launch_pipeline_order (TraceBin *bin);
void launch_print_stats (LaunchState *s);
void launch_print_verbose (LaunchState *s);
void launch_print_ending (LaunchState *s);
char *launch_format_duration (gint64 microseconds);

G_END_DECLS
