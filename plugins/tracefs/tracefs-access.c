/* tracepipe - tracefs-src: is tracefs there, and may this process write it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <gio/gunixmounts.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "tracefs-private.h"

#define TRACEFS_MAGIC_NUMBER 0x74726163 /* "trac" */
#define DEBUGFS_MAGIC_NUMBER 0x64626720 /* tracing under /sys/kernel/debug */
#define MOUNT_HINT "mount -t tracefs nodev /sys/kernel/tracing"

/**
 * capture_check_tracefs:
 * @dir: where tracefs should be
 * @error: one line saying why it cannot be used: not mounted there, or
 *   not writable by this user
 *
 * Returns: whether a capture can write the tracing files of @dir
 */
gboolean
capture_check_tracefs (const char *dir,
                       GError **error)
{
  g_autofree char *tracing_on = g_build_filename (dir, "tracing_on", NULL);
  struct statfs fs;

  if (statfs (dir, &fs) != 0 || (fs.f_type != TRACEFS_MAGIC_NUMBER && fs.f_type != DEBUGFS_MAGIC_NUMBER))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_NOT_FOUND,
                   "tracefs is not mounted at %s (as root: %s)", dir, MOUNT_HINT);
      return FALSE;
    }
  if (access (tracing_on, R_OK | W_OK) != 0)
    {
      int saved = errno;

      if (saved == EACCES || saved == EPERM || saved == EROFS)
        g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_WRITE,
                     "tracefs at %s is not writable by this user (uid %u): capturing needs root", dir,
                     (guint) geteuid ());
      else
        g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_WRITE, "tracefs at %s: %s: %s", dir,
                     tracing_on, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

/**
 * capture_find_tracefs:
 * @error: one line saying why tracefs cannot be used
 *
 * Finds where tracefs is mounted (never mounting it: that is the
 * administrator's decision) and checks that this process may write it.
 *
 * Returns: (transfer full) (nullable): the tracing directory
 */
char *
capture_find_tracefs (GError **error)
{
  GList *mounts = g_unix_mounts_get (NULL);
  char *path = NULL;

  for (GList *m = mounts; m && path == NULL; m = m->next)
    if (g_strcmp0 (g_unix_mount_get_fs_type (m->data), "tracefs") == 0)
      path = g_strdup (g_unix_mount_get_mount_path (m->data));
  g_list_free_full (mounts, (GDestroyNotify) g_unix_mount_free);
  if (path == NULL)
    path = g_strdup ("/sys/kernel/tracing");
  if (!capture_check_tracefs (path, error))
    g_clear_pointer (&path, g_free);
  return path;
}
