/* tracepipe - deterministic synthetic trace inputs for the benchmark
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   gen-synth systrace OUT --mb N --seed S [--waking]
 *   gen-synth json     OUT --mb N --seed S
 *   gen-synth chrome   OUT --mb N --seed S
 *
 * systrace: ftrace text with the TGID column ("# tracer: nop" header):
 *   sched_switch, sched_wakeup (or sched_waking) and tracing_mark_write
 *   B|pid|name, E|pid, C|pid|name|value over 50 threads of 5 processes.
 * json: a Chrome trace in array form: M metadata naming processes and
 *   threads, then B/E/X/C events with fractional microsecond timestamps.
 * chrome: a Chrome trace shaped like one Chrome saves (object form, args
 *   objects with nested values, X with dur and tts/tdur, instants, flows
 *   v1 and v2, counters, metadata); see gen_chrome().  A kind of its own,
 *   so the other two kinds' bytes stay those of format version 1.
 *
 * Both outputs have strictly increasing timestamps, B/E properly nested per
 * thread (at most MAX_DEPTH deep), X slices that end before the next event
 * of their thread, and every slice closed at the end.  The output is N MiB
 * (2^20 bytes) within one line, byte-identical for the same seed and size
 * on every platform: the generator uses only integer arithmetic and its own
 * PRNG.  The number of events written goes to stderr as
 * "OUT: <events> events, <bytes> bytes".  The file is written under a
 * temporary name and renamed when complete, so a cache never sees half a
 * file.
 *
 * This file has the output, the threads and main(); gen-synth.h what the
 * formats share; each format is in a file of its own.
 */
#include "gen-synth.h"

/* Sets @error from errno as "PATH: WHAT: reason"; returns FALSE. */
static gboolean
set_io_error (GError **error,
              const char *path,
              const char *what)
{
  int saved = errno;

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
               "%s: %s: %s", path, what, g_strerror (saved));
  return FALSE;
}

gboolean
output_open (Output *out,
             const char *path,
             GError **error)
{
  int fd;

  out->path = path;
  out->tmp_path = g_strconcat (path, ".tmp-XXXXXX", NULL);
  fd = g_mkstemp (out->tmp_path);
  if (fd < 0)
    return set_io_error (error, out->tmp_path, "cannot create");
  if (!(out->fp = fdopen (fd, "wb")))
    {
      set_io_error (error, out->tmp_path, "cannot open");
      close (fd);
      g_unlink (out->tmp_path);
      return FALSE;
    }
  /* mkstemp creates 0600; give the file the mode open() would. */
  {
    mode_t mask = umask (0);
    umask (mask);
    fchmod (fd, 0666 & ~mask);
  }
  /* Our own buffer already batches writes into big chunks. */
  setvbuf (out->fp, NULL, _IONBF, 0);
  out->buf = g_malloc (OUT_BUFFER_SIZE);
  out->len = 0;
  out->total = 0;
  return TRUE;
}

/* A write error is kept in @out, so that the generators need no error
 * paths: they stop when out->error is set, and output_close() reports it.
 */
void
output_flush (Output *out)
{
  if (out->len > 0 && !out->error && fwrite (out->buf, 1, out->len, out->fp) != out->len)
    set_io_error (&out->error, out->tmp_path, "write failed");
  out->len = 0;
}

/* Flushes, closes and renames into place; on failure removes the file. */
gboolean
output_close (Output *out,
              GError **error)
{
  gboolean ok;

  output_flush (out);
  ok = !out->error;
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&out->error));
  if (fclose (out->fp) != 0 && ok)
    ok = set_io_error (error, out->tmp_path, "close failed");
  if (ok && g_rename (out->tmp_path, out->path) != 0)
    ok = set_io_error (error, out->path, "cannot rename the finished file into place");
  if (!ok)
    g_unlink (out->tmp_path);
  g_clear_pointer (&out->tmp_path, g_free);
  g_clear_pointer (&out->buf, g_free);
  return ok;
}

/* For the JSON formats' tables: escapes only what they can contain: '"' and '\\'. */
char *
json_escape (const char *s)
{
  GString *str = g_string_new (NULL);

  for (; *s; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_c (str, '\\');
      g_string_append_c (str, *s);
    }
  return g_string_free (str, FALSE);
}

void
threads_init (Thread *threads)
{
  for (int p = 0; p < N_PROCESSES; p++)
    for (int i = 0; i < THREADS_PER_PROCESS; i++)
      {
        Thread *th = &threads[p * THREADS_PER_PROCESS + i];
        int n;

        memset (th, 0, sizeof *th);
        th->tgid = processes[p].tgid;
        /* The main thread's tid is the pid, as on Linux. */
        th->tid = i == 0 ? th->tgid : th->tgid + 3 + i * 11;
        th->prio = i % 4 == 1 ? 110 : 120;
        th->comm = processes[p].comms[i];
        g_assert (strlen (th->comm) <= COMM_MAX);
        /* The kernel's "%16s-%-5d (%5d) " task column. */
        n = g_snprintf (th->prefix, sizeof th->prefix, "%16s-%-5d (%5d) ",
                        th->comm, th->tid, th->tgid);
        g_assert (n > 0 && (gsize) n < sizeof th->prefix);
        th->prefix_len = (gsize) n;
      }
}

/* ------------------------------------------------------------------ main */

static double opt_mb = 200;
static gint64 opt_seed = 1;
static gboolean opt_waking;
static gboolean opt_version;

static const GOptionEntry entries[] = {
  { "mb", 0, 0, G_OPTION_ARG_DOUBLE, &opt_mb, "Output size in MiB (default 200)", "N" },
  { "seed", 0, 0, G_OPTION_ARG_INT64, &opt_seed, "PRNG seed (default 1)", "S" },
  { "waking", 0, 0, G_OPTION_ARG_NONE, &opt_waking, "systrace: sched_waking instead of sched_wakeup", NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, &opt_version, "Print the output format version and exit", NULL },
  G_OPTION_ENTRY_NULL
};

static gboolean
parse_args (int *argc,
            char ***argv,
            GError **error)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("systrace|json|chrome OUT");

  g_option_context_set_summary (ctx, "Writes a deterministic synthetic trace for the tracepipe benchmark.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, argc, argv, error))
    return FALSE;
  if (opt_version)
    return TRUE;
  if (*argc != 3 || (strcmp ((*argv)[1], "systrace") != 0 && strcmp ((*argv)[1], "json") != 0 && strcmp ((*argv)[1], "chrome") != 0))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                   "expected \"systrace OUT\", \"json OUT\" or \"chrome OUT\"");
      return FALSE;
    }
  if (!(opt_mb > 0 && opt_mb <= 1024 * 1024))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--mb must be in (0, 1048576], not %g", opt_mb);
      return FALSE;
    }
  return TRUE;
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  Output out = { 0 };
  guint64 target, events;

  if (!parse_args (&argc, &argv, &error))
    {
      g_printerr ("gen-synth: %s\n", error->message);
      return 2;
    }
  if (opt_version)
    {
      g_print ("gen-synth %d\n", GEN_SYNTH_FORMAT_VERSION);
      return 0;
    }

  target = (guint64) (opt_mb * 1024 * 1024 + 0.5);
  if (!output_open (&out, argv[2], &error))
    {
      g_printerr ("gen-synth: %s\n", error->message);
      return 1;
    }
  if (strcmp (argv[1], "systrace") == 0)
    events = gen_systrace (&out, target, (guint64) opt_seed, opt_waking);
  else if (strcmp (argv[1], "json") == 0)
    events = gen_json (&out, target, (guint64) opt_seed);
  else
    events = gen_chrome (&out, target, (guint64) opt_seed);
  if (!output_close (&out, &error))
    {
      g_printerr ("gen-synth: %s\n", error->message);
      return 1;
    }
  g_printerr ("%s: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT " bytes\n",
              argv[2], events, out.total);
  return 0;
}
