/* tracepipe tools - trace-convert -o TEMPLATE IN...: many files, N at a time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>

#include <trace/trace.h>

#include "convert.h"
#include "launch.h"
#include "tool-util.h"

/* Each conversion runs in a child trace-convert: a file that crashes a
 * parser or takes all the memory fails alone, memory is given back after
 * each file, and the child is the very command a user would run by hand
 * (or a batch scheduler runs, one file a job). */
typedef struct
{
  const ConvertOptions *o;
  GPtrArray *inputs;
  char *self;
  guint next;
  guint running;
  guint converted;
  guint stopped; /* by a signal passed on: their outputs were finished */
  guint failed;
  guint jobs;      /* at once: -j, within what the open-file limit allows */
  int stop_signal; /* the first SIGINT, SIGTERM or SIGHUP; 0 while none came */
  gint64 started;
  GPtrArray *running_jobs; /* Job*, borrowed: what the status line shows */
  guint status_timer;      /* on a terminal: the status line's redraw */
  gboolean status_shown;   /* a status line is on the screen */
  GPtrArray *children;     /* GSubprocess*, running */
  GMainLoop *loop;
} Batch;

typedef struct
{
  Batch *batch;
  char *in, *out;
  gint64 started;
} Job;

/**
 * convert_expand_template:
 * @template: an output path with `{name}`
 * @input: an input path
 *
 * Returns: (transfer full): @template with each `{name}` replaced by
 *   @input's file name without its extensions (`a/trace.txt.gz` → `trace`)
 */
char *
convert_expand_template (const char *template,
                         const char *input)
{
  g_autofree char *base = g_path_get_basename (input);
  /* a leading dot (.hidden.txt) is part of the name */
  char *dot = strchr (base + (base[0] == '.'), '.');
  g_autoptr (GString) out = g_string_new (template);

  if (dot != NULL)
    *dot = '\0';
  g_string_replace (out, "{name}", base, 0);
  return g_strdup (out->str);
}

/* Prints one line for each output that is an input (writing it would
 * destroy that input) or that another output is too (one of the two
 * would be lost). Files are compared, not strings: `d/../a.json`, a
 * symlink or a hard link name the same file (trace_location_get_key()). */
static guint
report_shared_files (const char *template,
                     GPtrArray *inputs)
{
  g_autoptr (GHashTable) read = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) written = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint n_pairs = 0;

  for (guint i = 0; i < inputs->len; i++)
    {
      char *key = trace_location_get_key (inputs->pdata[i]);

      if (key != NULL)
        g_hash_table_insert (read, key, inputs->pdata[i]);
    }
  for (guint i = 0; i < inputs->len; i++)
    {
      const char *in = inputs->pdata[i];
      g_autofree char *out = convert_expand_template (template, in);
      char *key = trace_location_get_key (out);
      const char *victim = key ? g_hash_table_lookup (read, key) : NULL;
      const char *other = key ? g_hash_table_lookup (written, key) : NULL;

      if (victim == in)
        g_printerr ("trace-convert: %s would be written over itself (as %s)\n", in, out);
      else if (victim != NULL)
        g_printerr ("trace-convert: %s would be written to %s, which is the input %s: that input would be "
                    "destroyed\n",
                    in, out, victim);
      else if (other != NULL)
        g_printerr ("trace-convert: %s and %s would both be written to %s\n", other, in, out);
      n_pairs += victim != NULL || other != NULL;
      if (key != NULL && other == NULL)
        g_hash_table_insert (written, key, g_strdup (in));
      else
        g_free (key);
    }
  return n_pairs;
}

/**
 * convert_batch_check_outputs:
 * @template: the -o template
 * @inputs: the input files
 *
 * Checks the whole batch before the first job starts: no output may be
 * an input, and no two inputs may have one output.
 *
 * Returns: %TRUE when every output is a file of its own; otherwise each
 *   clash has been printed and nothing may be written
 */
gboolean
convert_batch_check_outputs (const char *template,
                             GPtrArray *inputs)
{
  guint n_pairs = report_shared_files (template, inputs);

  if (n_pairs == 0)
    return TRUE;
  g_printerr ("trace-convert: nothing converted: %u output%s would replace another file of the batch "
              "(change the -o template)\n",
              n_pairs, n_pairs == 1 ? "" : "s");
  return FALSE;
}

static void
child_setup (gpointer user_data)
{
  /* Its own process group: a Ctrl-C reaches the batch only, which passes
   * one SIGINT on to each child (two would abort their outputs). */
  setpgid (0, 0);
}

static GStrv
child_argv (Batch *b,
            const char *in,
            const char *out)
{
  g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();

  g_strv_builder_add_many (argv, b->self, "-q", NULL);
  if (b->o->main_thread)
    g_strv_builder_add (argv, "--main-thread");
  if (b->o->start)
    g_strv_builder_add_many (argv, "--start", b->o->start, NULL);
  if (b->o->end)
    g_strv_builder_add_many (argv, "--end", b->o->end, NULL);
  if (b->o->filter)
    g_strv_builder_add_many (argv, "--filter", b->o->filter, NULL);
  if (b->o->to)
    g_strv_builder_add_many (argv, "--to", b->o->to, NULL);
  g_strv_builder_add_many (argv, "--", in, out, NULL);
  return g_strv_builder_end (argv);
}

static void start_jobs (Batch *b);

/* --- the status line, on a terminal: what runs, how long it has --- */

#define STATUS_INTERVAL_MS 500

static void
clear_status (Batch *b)
{
  if (!b->status_shown)
    return;
  fputs ("\r\033[K", stderr);
  b->status_shown = FALSE;
}

static gboolean
draw_status (gpointer user_data)
{
  Batch *b = user_data;
  gint64 now = g_get_monotonic_time ();
  g_autoptr (GString) line = g_string_new (NULL);
  g_autofree char *elapsed = launch_format_duration (now - b->started);

  g_string_append_printf (line, "%u of %u done", b->converted + b->stopped + b->failed, b->inputs->len);
  if (b->failed > 0)
    g_string_append_printf (line, ", %u failed", b->failed);
  for (guint i = 0; i < b->running_jobs->len; i++)
    {
      Job *job = b->running_jobs->pdata[i];
      g_autofree char *name = g_path_get_basename (job->in);
      g_autofree char *took = launch_format_duration (now - job->started);

      g_string_append_printf (line, "%s%s %s", i ? ", " : " | running: ", name, took);
    }
  g_string_append_printf (line, " | %s", elapsed);
  fprintf (stderr, "\r%s\033[K", line->str);
  fflush (stderr);
  b->status_shown = TRUE;
  return G_SOURCE_CONTINUE;
}

/* Prints what the child said (its warnings name the file), but its last
 * ERROR line, which the FAILED line carries instead: each error once.
 * Returns: (transfer full): why the child failed */
static char *
print_child_messages (const char *err,
                      int status)
{
  g_auto (GStrv) lines = g_strsplit (err ? err : "", "\n", -1);
  gint reason = -1;

  for (guint i = 0; status != 0 && lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "ERROR: ") || g_str_has_prefix (lines[i], "trace-convert: "))
      reason = i;
  for (guint i = 0; lines[i] != NULL; i++)
    if ((gint) i != reason && (*lines[i] != '\0' || lines[i + 1] != NULL))
      g_printerr ("%s\n", lines[i]);
  return reason >= 0 ? g_strdup (lines[reason]) : g_strdup_printf ("exit status %d", status);
}

static void
on_child_done (GObject *source,
               GAsyncResult *result,
               gpointer user_data)
{
  GSubprocess *child = G_SUBPROCESS (source);
  Job *job = user_data;
  Batch *b = job->batch;
  g_autofree char *err = NULL, *reason = NULL;
  g_autoptr (GError) error = NULL;
  int status;
  double seconds = (g_get_monotonic_time () - job->started) / (double) G_USEC_PER_SEC;

  g_subprocess_communicate_utf8_finish (child, result, NULL, &err, &error);
  status = g_subprocess_get_if_exited (child) ? g_subprocess_get_exit_status (child) : 128 + g_subprocess_get_term_sig (child);
  clear_status (b);
  g_ptr_array_remove (b->running_jobs, job);
  reason = print_child_messages (err, status);
  if (status == 0)
    {
      g_printerr ("ok      %s -> %s (%.2f s)\n", job->in, job->out, seconds);
      b->converted++;
    }
  else if (b->stop_signal != 0 && status == 128 + SIGINT)
    {
      g_printerr ("stopped %s -> %s: interrupted; the output holds what was read until then\n", job->in, job->out);
      b->stopped++;
    }
  else
    {
      g_printerr ("FAILED  %s -> %s: %s\n", job->in, job->out, reason);
      b->failed++;
    }
  g_ptr_array_remove (b->children, child);
  b->running--;
  g_free (job->in), g_free (job->out), g_free (job);
  start_jobs (b);
}

static void
start_job (Batch *b,
           const char *in)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;
  GSubprocess *child = NULL;
  Job *job = g_new0 (Job, 1);

  job->batch = b;
  job->in = g_strdup (in);
  job->out = convert_expand_template (b->o->output_template, in);
  job->started = g_get_monotonic_time ();
  argv = child_argv (b, in, job->out);
  g_subprocess_launcher_set_child_setup (l, child_setup, NULL, NULL);
  if (tool_make_output_folder (job->out, &error))
    child = g_subprocess_launcher_spawnv (l, (const char *const *) argv, &error);
  if (child == NULL)
    {
      clear_status (b);
      g_printerr ("FAILED  %s -> %s: %s\n", job->in, job->out, error->message);
      b->failed++;
      g_free (job->in), g_free (job->out), g_free (job);
      return;
    }
  b->running++;
  g_ptr_array_add (b->children, child);
  g_ptr_array_add (b->running_jobs, job);
  if (b->status_timer != 0)
    draw_status (b); /* at once: a file that takes a while shows from its start */
  g_subprocess_communicate_utf8_async (child, NULL, NULL, on_child_done, job);
}

/* Descriptors a running job holds in this process (its stderr pipe, and
 * those spawning it takes for a moment), and those kept for the rest. */
#define FDS_PER_JOB 4
#define FDS_RESERVED 32

/* -j (or the cores), capped by the open-file limit: past it, spawning
 * fails with "Too many open files" for every job beyond. */
static guint
jobs_at_once (const ConvertOptions *o)
{
  guint want = o->jobs > 0 ? (guint) o->jobs : g_get_num_processors ();
  struct rlimit lim;
  guint64 cap;

  if (getrlimit (RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
    return want;
  cap = lim.rlim_cur > FDS_RESERVED + FDS_PER_JOB ? (lim.rlim_cur - FDS_RESERVED) / FDS_PER_JOB : 1;
  if (want <= cap)
    return want;
  g_printerr ("trace-convert: running %" G_GUINT64_FORMAT " conversions at once, not %u: the open-file limit "
              "(ulimit -n) is %" G_GUINT64_FORMAT "\n",
              cap, want, (guint64) lim.rlim_cur);
  return (guint) cap;
}

static void
start_jobs (Batch *b)
{
  while (b->stop_signal == 0 && b->running < b->jobs && b->next < b->inputs->len)
    start_job (b, b->inputs->pdata[b->next++]);
  if (b->running == 0)
    g_main_loop_quit (b->loop);
}

/* SIGINT (Ctrl-C), SIGTERM (a scheduler, a timeout) and SIGHUP (the
 * terminal closed) all stop the batch the same way: the running
 * conversions are told as by Ctrl-C (their own process group hears
 * nothing else) and finish their outputs, no more start, and the batch
 * reports its end only once all of them have. A second signal is passed
 * on too, and aborts them. */
static gboolean
on_stop_signal (Batch *b,
                int signum)
{
  if (b->stop_signal == 0)
    {
      clear_status (b);
      g_printerr ("%s: finishing the running conversions; starting no more...\n", g_strsignal (signum));
      b->stop_signal = signum;
    }
  for (guint i = 0; i < b->children->len; i++)
    g_subprocess_send_signal (b->children->pdata[i], SIGINT);
  return G_SOURCE_CONTINUE;
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
  return on_stop_signal (user_data, SIGHUP);
}

/* The batch's last line: what became of every input. */
static void
print_summary (Batch *b)
{
  guint not_started = b->inputs->len - b->next;
  double seconds = (g_get_monotonic_time () - b->started) / (double) G_USEC_PER_SEC;

  g_printerr ("%u converted, %u stopped, %u failed, %u not started (%.2f s)\n", b->converted, b->stopped, b->failed,
              not_started, seconds);
}

/**
 * convert_batch:
 * @o: the options, with `output_template`
 * @inputs: the input files
 *
 * Converts each input to its output, -j at a time, one line each on
 * standard output.
 *
 * Returns: the exit code: 1 when any failed
 */
int
convert_batch (const ConvertOptions *o,
               GPtrArray *inputs)
{
  Batch b = { .o = o, .inputs = inputs };
  guint watches[3];

  b.self = g_file_read_link ("/proc/self/exe", NULL);
  if (b.self == NULL)
    b.self = g_strdup ("trace-convert");
  b.jobs = jobs_at_once (o);
  b.children = g_ptr_array_new_with_free_func (g_object_unref);
  b.loop = g_main_loop_new (NULL, FALSE);
  b.started = g_get_monotonic_time ();
  b.running_jobs = g_ptr_array_new ();
  if (!o->quiet && isatty (STDERR_FILENO))
    b.status_timer = g_timeout_add (STATUS_INTERVAL_MS, draw_status, &b);
  watches[0] = g_unix_signal_add (SIGINT, on_sigint, &b);
  watches[1] = g_unix_signal_add (SIGTERM, on_sigterm, &b);
  watches[2] = g_unix_signal_add (SIGHUP, on_sighup, &b);
  start_jobs (&b);
  if (b.running > 0)
    g_main_loop_run (b.loop);
  if (b.status_timer != 0)
    g_source_remove (b.status_timer);
  clear_status (&b);
  g_ptr_array_unref (b.running_jobs);
  print_summary (&b);
  for (guint i = 0; i < G_N_ELEMENTS (watches); i++)
    g_source_remove (watches[i]);
  g_main_loop_unref (b.loop);
  g_ptr_array_unref (b.children);
  g_free (b.self);
  if (b.stop_signal != 0)
    return 128 + b.stop_signal;
  return b.failed > 0 ? LAUNCH_EXIT_RUNTIME_ERROR : LAUNCH_EXIT_OK;
}
