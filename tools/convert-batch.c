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

#include "convert.h"
#include "launch.h"

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
  guint failed;
  guint jobs; /* at once: -j, within what the open-file limit allows */
  gboolean interrupted;
  GPtrArray *children; /* GSubprocess*, running */
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
  g_strv_builder_add_many (argv, "--", in, out, NULL);
  return g_strv_builder_end (argv);
}

static void start_jobs (Batch *b);

/* The last ERROR line of the child, to say why on the summary line. */
static char *
failure_reason (const char *err,
                int status)
{
  g_auto (GStrv) lines = g_strsplit (err ? err : "", "\n", -1);
  const char *reason = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "ERROR: ") || g_str_has_prefix (lines[i], "trace-convert: "))
      reason = lines[i];
  return reason ? g_strdup (reason) : g_strdup_printf ("exit status %d", status);
}

static void
on_child_done (GObject *source,
               GAsyncResult *result,
               gpointer user_data)
{
  GSubprocess *child = G_SUBPROCESS (source);
  Job *job = user_data;
  Batch *b = job->batch;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status;
  double seconds = (g_get_monotonic_time () - job->started) / (double) G_USEC_PER_SEC;

  g_subprocess_communicate_utf8_finish (child, result, NULL, &err, &error);
  status = g_subprocess_get_if_exited (child) ? g_subprocess_get_exit_status (child) : 128 + g_subprocess_get_term_sig (child);
  if (err && *err)
    g_printerr ("%s", err); /* its warnings and errors, which name the file */
  if (status == 0)
    g_printerr ("ok      %s -> %s (%.2f s)\n", job->in, job->out, seconds);
  else
    {
      g_autofree char *reason = failure_reason (err, status);

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
  g_autofree char *folder = NULL;
  g_auto (GStrv) argv = NULL;
  GSubprocess *child;
  Job *job = g_new0 (Job, 1);

  job->batch = b;
  job->in = g_strdup (in);
  job->out = convert_expand_template (b->o->output_template, in);
  job->started = g_get_monotonic_time ();
  folder = g_path_get_dirname (job->out);
  g_mkdir_with_parents (folder, 0777);
  argv = child_argv (b, in, job->out);
  g_subprocess_launcher_set_child_setup (l, child_setup, NULL, NULL);
  child = g_subprocess_launcher_spawnv (l, (const char *const *) argv, &error);
  if (child == NULL)
    {
      g_printerr ("FAILED  %s -> %s: %s\n", job->in, job->out, error->message);
      b->failed++;
      g_free (job->in), g_free (job->out), g_free (job);
      return;
    }
  b->running++;
  g_ptr_array_add (b->children, child);
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
  while (!b->interrupted && b->running < b->jobs && b->next < b->inputs->len)
    start_job (b, b->inputs->pdata[b->next++]);
  if (b->running == 0)
    g_main_loop_quit (b->loop);
}

static gboolean
on_sigint (gpointer user_data)
{
  Batch *b = user_data;

  if (!b->interrupted)
    g_printerr ("Interrupt: finishing the running conversions; starting no more...\n");
  b->interrupted = TRUE;
  for (guint i = 0; i < b->children->len; i++)
    g_subprocess_send_signal (b->children->pdata[i], SIGINT);
  return G_SOURCE_CONTINUE;
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
  guint sigint;

  b.self = g_file_read_link ("/proc/self/exe", NULL);
  if (b.self == NULL)
    b.self = g_strdup ("trace-convert");
  b.jobs = jobs_at_once (o);
  b.children = g_ptr_array_new_with_free_func (g_object_unref);
  b.loop = g_main_loop_new (NULL, FALSE);
  sigint = g_unix_signal_add (SIGINT, on_sigint, &b);
  start_jobs (&b);
  if (b.running > 0)
    g_main_loop_run (b.loop);
  g_source_remove (sigint);
  g_main_loop_unref (b.loop);
  g_ptr_array_unref (b.children);
  g_free (b.self);
  if (b.interrupted)
    return LAUNCH_EXIT_INTERRUPTED;
  return b.failed > 0 ? LAUNCH_EXIT_RUNTIME_ERROR : LAUNCH_EXIT_OK;
}
