/* tracepipe tests - the robustness suite's helpers: children, folders, output checks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <linux/capability.h>
#include <zlib.h>

#include "robustness.h"

void
rb_result_free (RbResult *r)
{
  g_free (r->out);
  g_free (r->err);
  g_free (r);
}

/* Runs in the child between fork and exec. */
static void
child_setup (gpointer data)
{
  RbSetup setup = GPOINTER_TO_INT (data);

  if ((setup & RB_SETUP_NO_DAC_OVERRIDE) && geteuid () == 0)
    {
      /* Out of the bounding set, exec cannot give them back to root. */
      prctl (PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0);
      prctl (PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0);
    }
  if (setup & RB_SETUP_FILE_SIZE_64K)
    {
      struct rlimit lim = { 64 * 1024, 64 * 1024 };

      /* a write past the limit then fails with EFBIG instead of killing */
      signal (SIGXFSZ, SIG_IGN);
      setrlimit (RLIMIT_FSIZE, &lim);
    }
  if (setup & RB_SETUP_FEW_THREADS)
    {
      /* A thread's stack is RLIMIT_STACK's size: with 256 MiB stacks in
       * 1 GiB of address space (trace-launch itself takes about 230 MiB),
       * the third or fourth thread cannot be created. */
      struct rlimit stack = { 256 << 20, 256 << 20 };
      struct rlimit as = { 1 << 30, 1 << 30 };

      setrlimit (RLIMIT_STACK, &stack);
      setrlimit (RLIMIT_AS, &as);
    }
}

static GSubprocessLauncher *
new_launcher (RbSetup setup,
              GSubprocessFlags flags)
{
  GSubprocessLauncher *l = g_subprocess_launcher_new (flags | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                      G_SUBPROCESS_FLAGS_STDERR_PIPE);

  if (setup != RB_SETUP_NONE)
    g_subprocess_launcher_set_child_setup (l, child_setup, GINT_TO_POINTER (setup), NULL);
  return l;
}

static int
exit_status (GSubprocess *p)
{
  if (g_subprocess_get_if_signaled (p))
    return 128 + g_subprocess_get_term_sig (p);
  return g_subprocess_get_exit_status (p);
}

static const char **
launch_argv (const char *const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  const char *launch = g_getenv ("TRACE_LAUNCH");

  g_assert_nonnull (launch);
  g_ptr_array_add (argv, (gpointer) launch);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  return (const char **) g_ptr_array_free (argv, FALSE);
}

/* (an empty GBytes may have no data pointer) */
static char *
bytes_to_string (GBytes *b,
                 gsize *len_out)
{
  gsize len;
  const char *data = g_bytes_get_data (b, &len);
  char *s = g_malloc (len + 1);

  if (len)
    memcpy (s, data, len);
  s[len] = '\0';
  if (len_out)
    *len_out = len;
  return s;
}

static RbResult *
run_argv (RbSetup setup,
          GBytes *input,
          const char *const *argv)
{
  g_autoptr (GSubprocessLauncher) l = new_launcher (setup, input ? G_SUBPROCESS_FLAGS_STDIN_PIPE : 0);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) out = NULL, err = NULL;
  RbResult *r = g_new0 (RbResult, 1);
  g_autofree char *cmd = g_strjoinv (" ", (char **) argv);

  p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (p, input, NULL, &out, &err, &error);
  g_assert_no_error (error);
  r->status = exit_status (p);
  r->out = bytes_to_string (out, &r->out_len);
  r->err = bytes_to_string (err, NULL);
  g_test_message ("%s\nexit %d\nstdout (%" G_GSIZE_FORMAT " bytes):\n%s\nstderr:\n%s", cmd, r->status, r->out_len,
                  g_utf8_validate (r->out, r->out_len, NULL) ? r->out : "(binary)", r->err);
  return r;
}

RbResult *
rb_run (RbSetup setup,
        GBytes *input,
        const char *const *args)
{
  g_autofree const char **argv = launch_argv (args);

  return run_argv (setup, input, argv);
}

/* What @fd gives until its end; closes it. */
static char *
read_all_fd (int fd)
{
  GString *text = g_string_new (NULL);
  char chunk[4096];
  gssize n;

  while ((n = read (fd, chunk, sizeof chunk)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      g_string_append_len (text, chunk, n);
    }
  close (fd);
  return g_string_free (text, FALSE);
}

#define PEAK_HELPER_ARG "--peak-helper"
#define PEAK_LINE "rb-peak: "

/* In a fresh exec of this program (see main()): runs @argv as a forked
 * child, waits for it and appends to stderr its exit status and peak
 * RSS. A child's ru_maxrss starts from the resident size of the process
 * it was forked from: this one is small, the test program that has read
 * tens of MB of JSON before is not (1 GB was measured). */
static int
peak_helper (char **argv)
{
  struct rusage usage;
  int status;
  pid_t pid = fork ();

  if (pid == 0)
    {
      execv (argv[0], argv);
      _exit (127);
    }
  if (pid < 0 || wait4 (pid, &status, 0, &usage) < 0)
    return 125;
  fprintf (stderr, PEAK_LINE "%d %ld\n", WIFSIGNALED (status) ? 128 + WTERMSIG (status) : WEXITSTATUS (status),
           usage.ru_maxrss);
  return 0;
}

RbResult *
rb_run_peak (const char *const *args,
             guint64 *peak_kib)
{
  g_autofree const char **launch = launch_argv (args);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *cmd = g_strjoinv (" ", (char **) launch);
  g_autoptr (GError) error = NULL;
  RbResult *r = g_new0 (RbResult, 1);
  g_auto (GStrv) envp = g_get_environ ();
  char *line;
  int out_fd, err_fd, helper_status;
  GPid pid;

  g_ptr_array_add (argv, (gpointer) "/proc/self/exe");
  g_ptr_array_add (argv, (gpointer) PEAK_HELPER_ARG);
  for (guint i = 0; launch[i]; i++)
    g_ptr_array_add (argv, (gpointer) launch[i]);
  g_ptr_array_add (argv, NULL);
  /* stderr is read first: a child writes at most a few lines to it, and
   * to stdout only --stats, under the pipe's 64 KiB */
#ifdef RB_ASAN
  {
    const char *options = g_getenv ("ASAN_OPTIONS");
    g_autofree char *small = g_strdup_printf ("%s%squarantine_size_mb=16", options ? options : "", options ? ":" : "");

    envp = g_environ_setenv (envp, "ASAN_OPTIONS", small, TRUE);
  }
#endif
  g_spawn_async_with_pipes (NULL, (char **) argv->pdata, envp, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, NULL,
                            &out_fd, &err_fd, &error);
  g_assert_no_error (error);
  r->err = read_all_fd (err_fd);
  r->out = read_all_fd (out_fd);
  r->out_len = strlen (r->out);
  while (waitpid (pid, &helper_status, 0) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  g_assert_true (WIFEXITED (helper_status) && WEXITSTATUS (helper_status) == 0);
  line = g_str_has_prefix (r->err, PEAK_LINE) ? r->err : strstr (r->err, "\n" PEAK_LINE);
  g_assert_nonnull (line);
  line += *line == '\n';
  g_assert_cmpint (sscanf (line, PEAK_LINE "%d %" G_GUINT64_FORMAT, &r->status, peak_kib), ==, 2);
  *line = '\0';
  g_test_message ("%s\nexit %d, peak RSS %" G_GUINT64_FORMAT " KiB\nstdout:\n%s\nstderr:\n%s", cmd, r->status,
                  *peak_kib, r->out, r->err);
  return r;
}

RbResult *
rb_run_program (RbSetup setup,
                const char *const *argv)
{
  return run_argv (setup, NULL, argv);
}

struct _RbChild
{
  GSubprocess *process;
  GDataInputStream *out;
  GDataInputStream *err;
  GString *out_text;
  GString *err_text; /* the lines already read */
};

RbChild *
rb_start (guint delay_ms,
          const char *const *args)
{
  g_autofree const char **argv = launch_argv (args);
  g_autoptr (GSubprocessLauncher) l = new_launcher (RB_SETUP_NONE, 0);
  g_autoptr (GError) error = NULL;
  RbChild *c = g_new0 (RbChild, 1);
  char *line;

  c->process = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  c->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (c->process));
  c->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (c->process));
  c->out_text = g_string_new (NULL);
  c->err_text = g_string_new (NULL);
  /* Status lines are on stderr; stdout carries only data. */
  while ((line = g_data_input_stream_read_line_utf8 (c->err, NULL, NULL, &error)) != NULL)
    {
      gboolean playing = strcmp (line, "Pipeline is PLAYING ...") == 0;

      g_string_append_printf (c->err_text, "%s\n", line);
      g_free (line);
      if (playing)
        break;
    }
  g_assert_no_error (error);
  g_assert_nonnull (strstr (c->err_text->str, "Pipeline is PLAYING ..."));
  g_usleep (delay_ms * 1000);
  return c;
}

void
rb_child_signal (RbChild *child,
                 int signal)
{
  g_subprocess_send_signal (child->process, signal);
}

char *
rb_child_read_err_line (RbChild *child)
{
  g_autoptr (GError) error = NULL;
  char *line = g_data_input_stream_read_line_utf8 (child->err, NULL, NULL, &error);

  g_assert_no_error (error);
  g_string_append_printf (child->err_text, "%s\n", line ? line : "");
  return line;
}

static void
read_rest (GDataInputStream *in,
           GString *into)
{
  g_autoptr (GError) error = NULL;
  char *line;

  while ((line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error)) != NULL)
    {
      g_string_append_printf (into, "%s\n", line);
      g_free (line);
    }
  g_assert_no_error (error);
}

typedef struct
{
  GDataInputStream *in;
  GString *into;
} ReadRest;

static gpointer
read_rest_in_thread (gpointer data)
{
  ReadRest *r = data;

  read_rest (r->in, r->into);
  return NULL;
}

RbResult *
rb_child_finish (RbChild *c)
{
  g_autoptr (GString) err = c->err_text;
  g_autoptr (GError) error = NULL;
  RbResult *r = g_new0 (RbResult, 1);
  ReadRest err_rest = { c->err, err };
  GThread *err_reader;

  /* Both pipes at once: a child that writes more than a pipe holds to
   * stderr (the --stats of a 10 000-element pipeline) would otherwise
   * block while we wait for its stdout to end. */
  err_reader = g_thread_new ("rb-stderr", read_rest_in_thread, &err_rest);
  read_rest (c->out, c->out_text);
  g_thread_join (err_reader);
  g_subprocess_wait (c->process, NULL, &error);
  g_assert_no_error (error);
  r->status = exit_status (c->process);
  r->out_len = c->out_text->len;
  r->out = g_string_free (c->out_text, FALSE);
  r->err = g_strdup (err->str);
  g_test_message ("exit %d\nstdout:\n%s\nstderr:\n%s", r->status, r->out, r->err);
  g_object_unref (c->out);
  g_object_unref (c->err);
  g_object_unref (c->process);
  g_free (c);
  return r;
}

char *
rb_scratch_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("tracepipe-robustness-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

void
rb_scratch_cleanup (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_chmod (dir, 0755);
  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        rb_scratch_cleanup (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

char *
rb_list_dir (const char *dir)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

/* The non-empty words of @line. */
static GPtrArray *
words_of (const char *line)
{
  g_auto (GStrv) split = g_strsplit (line, " ", -1);
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; split[i]; i++)
    if (*split[i])
      g_ptr_array_add (words, g_strdup (split[i]));
  return words;
}

/* The table is "element events-in events-out batches-in batches-out
 * details", one row per element; a fixed column is found by its place in
 * the header, a detail by "key=". */
static gboolean
find_stat (const char *out,
           const char *element,
           const char *key,
           guint64 *value)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_autoptr (GPtrArray) header = NULL;
  g_autofree char *prefix = g_strdup_printf ("%s=", key);

  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GPtrArray) words = words_of (lines[i]);

      if (words->len == 0)
        continue;
      if (strcmp (g_ptr_array_index (words, 0), "element") == 0)
        header = g_ptr_array_ref (words);
      if (header == NULL || strcmp (g_ptr_array_index (words, 0), element) != 0)
        continue;
      for (guint c = 1; c < header->len && c < words->len; c++)
        if (strcmp (g_ptr_array_index (header, c), key) == 0)
          {
            const char *w = g_ptr_array_index (words, c);

            *value = g_ascii_strtoull (w, NULL, 10);
            return strcmp (w, "-") != 0;
          }
      for (guint c = 1; c < words->len; c++)
        if (g_str_has_prefix (g_ptr_array_index (words, c), prefix))
          {
            *value = g_ascii_strtoull ((char *) g_ptr_array_index (words, c) + strlen (prefix), NULL, 10);
            return TRUE;
          }
    }
  return FALSE;
}

char *
rb_messages (const char *err)
{
  const char *table = strstr (err, "Statistics:\n");

  return table ? g_strndup (err, table - err) : g_strdup (err);
}

guint64
rb_stat (const char *out,
         const char *element,
         const char *key)
{
  guint64 v = 0;

  if (!find_stat (out, element, key, &v))
    g_error ("no %s for %s in the --stats output:\n%s", key, element, out);
  return v;
}

gboolean
rb_has_stat (const char *out,
             const char *element,
             const char *key)
{
  guint64 v;

  return find_stat (out, element, key, &v);
}

guint
rb_json_trace_events (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonNode *root;
  JsonObject *o;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  o = json_node_get_object (root);
  g_assert_true (json_object_has_member (o, "traceEvents"));
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "traceEvents")));
  return json_array_get_length (json_object_get_array_member (o, "traceEvents"));
}

guint64
rb_perfetto_trace_events (const char *path)
{
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (RbResult) r = RB_RUN ("--stats", "perfetto-src", location, "!", "fakesink");

  g_assert_cmpint (r->status, ==, 0);
  g_assert_null (strstr (r->err, "WARNING"));
  g_assert_cmpuint (rb_stat (r->err, "perfetto-src0", "truncated-bytes"), ==, 0);
  return rb_stat (r->err, "perfetto-src0", "events-out");
}

char *
rb_data_path (const char *area,
              const char *name)
{
  return g_build_filename (TEST_DATA_DIR, area, name, NULL);
}

GBytes *
rb_read_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents;
  gsize len;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

void
rb_write_file (const char *path,
               const void *data,
               gsize len)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
}

GBytes *
rb_gzip (GBytes *data)
{
  gsize len;
  const guint8 *in = g_bytes_get_data (data, &len);
  z_stream z = { 0 };
  gsize cap = compressBound (len) + 64;
  guint8 *out = g_malloc (cap);

  g_assert_cmpint (deflateInit2 (&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  z.next_in = (Bytef *) in;
  z.avail_in = len;
  z.next_out = out;
  z.avail_out = cap;
  g_assert_cmpint (deflate (&z, Z_FINISH), ==, Z_STREAM_END);
  deflateEnd (&z);
  return g_bytes_new_take (out, z.total_out);
}

static char *generated_dir;

const char *
rb_generated_systrace (guint mb)
{
  static GHashTable *made;
  g_autofree char *name = g_strdup_printf ("synth-%u.txt", mb);
  char *path;

  if (made == NULL)
    made = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if ((path = g_hash_table_lookup (made, name)) != NULL)
    return path;
  if (generated_dir == NULL)
    generated_dir = rb_scratch_dir ();
  path = g_build_filename (generated_dir, name, NULL);
  {
    g_autofree char *mb_arg = g_strdup_printf ("--mb=%u", mb);
    const char *argv[] = { g_getenv ("GEN_SYNTH"), mb_arg, "systrace", path, NULL };
    g_autoptr (RbResult) r = NULL;

    g_assert_nonnull (argv[0]);
    r = rb_run_program (RB_SETUP_NONE, argv);
    g_assert_cmpint (r->status, ==, 0);
  }
  g_hash_table_insert (made, g_steal_pointer (&name), path);
  return path;
}

int
main (int argc,
      char **argv)
{
  int ret;

  if (argc > 2 && strcmp (argv[1], PEAK_HELPER_ARG) == 0)
    return peak_helper (argv + 2);
  g_test_init (&argc, &argv, NULL);
  /* a child that exits before reading all its input must fail the
   * test that fed it, not kill the whole program */
  signal (SIGPIPE, SIG_IGN);
  rb_add_fault_tests ();
  rb_add_input_tests ();
  rb_add_accounting_tests ();
  rb_add_memory_tests ();
  rb_add_graph_tests ();
  rb_add_core_fault_tests ();
  rb_add_gzip_tests ();
  rb_add_damage_tests ();
  rb_add_htrace_tests ();
  ret = g_test_run ();
  if (generated_dir)
    rb_scratch_cleanup (generated_dir);
  return ret;
}
