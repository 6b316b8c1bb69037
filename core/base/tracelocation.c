/* tracepipe - which file a location names
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A sink must never write a file a source reads, nor two sinks one file:
 * the input would be destroyed, or one output silently lost. Comparing
 * the strings users type does not tell (`in.json`, `./in.json`,
 * `sub/../in.json`, a symlink or a hard link to it), so each location is
 * turned into a key that is the same exactly when the file is.
 */
#include "config.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "trace/trace.h"
#include "trace-private.h"

/* What the kernel follows at most in one path (Linux's MAXSYMLINKS). */
#define MAX_SYMLINKS 40

/* @path with the symlinks of its last component followed, as open()
 * would: writing "through" a link must replace the file it points to,
 * not the link. A relative link is relative to the link's folder. A loop
 * or a link that cannot be read stops the walk where it is (opening then
 * fails with the system's reason). */
char *
_trace_location_follow_symlinks (const char *path)
{
  char *current = g_strdup (path);

  for (guint i = 0; i < MAX_SYMLINKS && g_file_test (current, G_FILE_TEST_IS_SYMLINK); i++)
    {
      g_autofree char *link = g_file_read_link (current, NULL);
      g_autofree char *dir = NULL;

      if (link == NULL)
        break;
      dir = g_path_get_dirname (current);
      g_free (current);
      current = g_path_is_absolute (link) ? g_steal_pointer (&link) : g_build_filename (dir, link, NULL);
    }
  return current;
}

/* The GFile for a location a source reads. A path is a path: only a
 * location with a URI scheme that GIO can open (`file:`, `http:` with
 * gvfs, …) *and* no file of that name is taken as a URI, so that
 * `host:trace.txt` is the file of that name, not the scheme `host`. */
GFile *
_trace_location_to_file (const char *location)
{
  g_autofree char *scheme = g_uri_parse_scheme (location);
  const char *const *supported;

  if (scheme == NULL || g_file_test (location, G_FILE_TEST_EXISTS))
    return g_file_new_for_path (location);
  supported = g_vfs_get_supported_uri_schemes (g_vfs_get_default ());
  for (guint i = 0; supported != NULL && supported[i] != NULL; i++)
    if (g_ascii_strcasecmp (supported[i], scheme) == 0)
      return g_file_new_for_uri (location);
  return g_file_new_for_path (location);
}

/**
 * trace_location_get_key:
 * @location: (nullable): a file's path, or "-" for standard input or output
 *
 * A key for the file @location names, equal for two locations exactly
 * when they name one file, however each path is written. An existing
 * file is known by its device and inode (a hard link to it, a symlink,
 * `./X`, `d/../X` all give its key); a file not there yet by the real
 * path of its folder and its name once symlinks are followed, which is
 * where writing it would put it.
 *
 * Returns: (transfer full) (nullable): the key; "-" for "-"; %NULL for
 *   no location and for what is not a regular file (any number of
 *   outputs may go to /dev/null)
 */
char *
trace_location_get_key (const char *location)
{
  g_autofree char *target = NULL, *dir = NULL, *base = NULL, *real_dir = NULL;
  GStatBuf st;

  if (location == NULL || *location == '\0')
    return NULL;
  if (g_str_equal (location, "-"))
    return g_strdup ("-");
  if (g_stat (location, &st) == 0)
    return S_ISREG (st.st_mode) ? g_strdup_printf ("inode %" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
                                                   (guint64) st.st_dev, (guint64) st.st_ino)
                                : NULL;
  target = _trace_location_follow_symlinks (location);
  dir = g_path_get_dirname (target);
  base = g_path_get_basename (target);
  real_dir = realpath (dir, NULL);
  if (real_dir == NULL) /* the folder is missing: opening will say so */
    real_dir = g_canonicalize_filename (dir, NULL);
  return g_build_filename (real_dir, base, NULL);
}
