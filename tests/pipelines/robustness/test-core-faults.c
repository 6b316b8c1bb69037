/* tracepipe tests - faults of the core: threads, SIGTERM, outputs, long values
 *
 * Issue 17, items 3, 7, 13 and 14: what the user sees when the system
 * refuses a thread, when `timeout` or systemd sends SIGTERM, when two
 * sinks would write one file or a path is long or a symlink, and when a
 * value in a message is huge.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "robustness.h"

/* The system refuses the queues' threads: an ERROR naming the queue
 * (before: GLib's "creating thread" abort, SIGTRAP), exit 1, nothing
 * written and no temporary left. */
static void
test_thread_refused (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;

#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer needs more address space than the limit leaves");
  return;
#endif
  r = rb_run (RB_SETUP_FEW_THREADS, NULL,
              (const char *const[]){ "-q", "fakesrc", "num-events=1000", "!", "queue", "!", "queue", "!", "queue", "!",
                                     "queue", "!", "queue", "!", "queue", "!", "queue", "!", "queue", "!", "json-sink",
                                     location, NULL });
  g_assert_cmpint (r->status, ==, 1);
  g_assert_true (g_regex_match_simple ("^ERROR: from /pipeline0/queue[0-7]: could not start the queue's streaming "
                                       "thread: .+\n",
                                       r->err, 0, 0));
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "");
  rb_scratch_cleanup (dir);
}

void
rb_add_core_fault_tests (void)
{
  g_test_add_func ("/robustness/threads/refused", test_thread_refused);
}
