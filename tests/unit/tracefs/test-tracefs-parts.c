/* tracepipe - unit tests of tracefs-src's parts: events=, stats, access
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracefs-private.h"

static char *
event_text (CaptureEvent *ev)
{
  return g_strdup_printf ("%s/%s", ev->system, ev->event ? ev->event : "*");
}

static void
test_events_three_spellings (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) events =
      capture_parse_events (" sched , sched:sched_switch,sched/sched_waking,ftrace/print,irq:*", &error);
  const char *want[] = { "sched/*", "sched/sched_switch", "sched/sched_waking", "ftrace/print", "irq/*" };

  g_assert_no_error (error);
  g_assert_cmpuint (events->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < events->len; i++)
    {
      g_autofree char *text = event_text (events->pdata[i]);

      g_assert_cmpstr (text, ==, want[i]);
    }
  g_assert_true (capture_events_want (events, "sched", "sched_process_exit"));
  g_assert_true (capture_events_want (events, "ftrace", "print"));
  g_assert_false (capture_events_want (events, "ftrace", "function"));
  g_assert_false (capture_events_want (events, "task", "task_newtask"));
}

static void
test_events_bad_syntax (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) events = capture_parse_events ("sched,sched switch", &error);

  g_assert_null (events);
  g_assert_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS);
  g_assert_cmpstr (error->message, ==,
                   "events=: `sched switch` is not an event (`system`, `system:event` or `system/event`)");
  g_clear_error (&error);
  g_assert_null (capture_parse_events (" , ", &error));
  g_assert_cmpstr (error->message, ==, "events=: no event named");
}

/* A kernel's events folder: sched/{sched_switch,sched_waking}, irq/irq_handler_entry. */
static char *
make_events_dir (void)
{
  char *dir = g_dir_make_tmp ("tracefs-events-XXXXXX", NULL);
  const char *paths[] = { "sched/sched_switch", "sched/sched_waking", "irq/irq_handler_entry" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *path = g_build_filename (dir, paths[i], NULL);

      g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
    }
  return dir;
}

static void
remove_events_dir (const char *dir)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  g_assert_cmpint (system (cmd), ==, 0);
}

static void
test_events_resolved_against_the_kernel (void)
{
  g_autofree char *dir = make_events_dir ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) ok = capture_parse_events ("sched,irq_handler_entry,sched:sched_waking", &error);
  g_autoptr (GPtrArray) bad_event = capture_parse_events ("sched:sched_swich", NULL);
  g_autoptr (GPtrArray) bad_system = capture_parse_events ("schedd", NULL);
  g_autofree char *bare = NULL;
  g_autofree char *want = NULL;

  g_assert_true (capture_resolve_events (ok, dir, &error));
  g_assert_no_error (error);
  bare = event_text (ok->pdata[1]);
  g_assert_cmpstr (bare, ==, "irq/irq_handler_entry"); /* a bare event name finds its system */

  g_assert_false (capture_resolve_events (bad_event, dir, &error));
  want = g_strdup_printf ("events=: this kernel has no event sched/sched_swich (%s)", dir);
  g_assert_cmpstr (error->message, ==, want);
  g_clear_error (&error);
  g_clear_pointer (&want, g_free);
  g_assert_false (capture_resolve_events (bad_system, dir, &error));
  want = g_strdup_printf ("events=: this kernel has no event or event system schedd (%s)", dir);
  g_assert_cmpstr (error->message, ==, want);
  remove_events_dir (dir);
}

static void
test_cpu_stats (void)
{
  const char *text = "entries: 12\noverrun: 345\ncommit overrun: 6\nbytes: 0\n"
                     "oldest event ts:  2304.000001\nnow ts:  2307.523218\ndropped events: 7\nread events: 9\n";
  CaptureCpuStats stats;

  g_assert_true (capture_parse_cpu_stats (text, &stats));
  g_assert_cmpuint (stats.overrun, ==, 345);
  g_assert_cmpuint (stats.commit_overrun, ==, 6);
  g_assert_cmpuint (stats.dropped, ==, 7);
  g_assert_cmpuint (stats.now, ==, G_GUINT64_CONSTANT (2307523218000));
  /* the counter clocks print a count */
  g_assert_true (capture_parse_cpu_stats ("overrun: 0\nnow ts: 98765\n", &stats));
  g_assert_cmpuint (stats.now, ==, 98765);
  g_assert_false (capture_parse_cpu_stats ("no stats here\n", &stats));
}

static void
test_tracefs_not_mounted (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("not-tracefs-XXXXXX", NULL);
  g_autofree char *want = g_strdup_printf (
      "tracefs is not mounted at %s (as root: mount -t tracefs nodev /sys/kernel/tracing)", tmp);

  g_assert_false (capture_check_tracefs ("/nonexistent/tracing", &error));
  g_assert_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==,
                   "tracefs is not mounted at /nonexistent/tracing (as root: mount -t tracefs nodev "
                   "/sys/kernel/tracing)");
  g_clear_error (&error);
  /* a folder of another file system */
  g_assert_false (capture_check_tracefs (tmp, &error));
  g_assert_cmpstr (error->message, ==, want);
  g_rmdir (tmp);
}

/* As another user than root, in a child: the one line says so. */
static void
test_tracefs_not_root (void)
{
  g_autoptr (GError) error = NULL;
  int status = 0;
  pid_t child;

  if (geteuid () != 0 || !capture_check_tracefs ("/sys/kernel/tracing", &error))
    {
      g_test_skip ("needs root and tracefs at /sys/kernel/tracing");
      return;
    }
  child = fork ();
  if (child == 0)
    {
      g_autoptr (GError) child_error = NULL;

      if (setgid (65534) != 0 || setuid (65534) != 0)
        _exit (2);
      if (capture_check_tracefs ("/sys/kernel/tracing", &child_error))
        _exit (3);
      _exit (g_strcmp0 (child_error->message, "tracefs at /sys/kernel/tracing is not writable by this user (uid "
                                              "65534): capturing needs root") == 0
                 ? 0
                 : 4);
    }
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tracefs/events/three-spellings", test_events_three_spellings);
  g_test_add_func ("/tracefs/events/bad-syntax", test_events_bad_syntax);
  g_test_add_func ("/tracefs/events/resolved-against-the-kernel", test_events_resolved_against_the_kernel);
  g_test_add_func ("/tracefs/cpu-stats", test_cpu_stats);
  g_test_add_func ("/tracefs/access/not-mounted", test_tracefs_not_mounted);
  g_test_add_func ("/tracefs/access/not-root", test_tracefs_not_root);
  return g_test_run ();
}
