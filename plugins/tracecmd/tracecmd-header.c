/* tracepipe - tracecmd: trace.dat's magic and first header fields
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libtracecmd reads the file; these few bytes are read here only to
 * detect the format (auto-src, trace-convert) and to say, when the
 * library refuses a file, what the file claims to be: its version and,
 * from version 7, its compression (Debian's libtracecmd decompresses
 * zstd only; a zlib-compressed file is refused).
 */
#include <string.h>

#include "tracecmd-private.h"

gboolean
tracecmd_has_magic (const guint8 *data,
                    gsize size)
{
  return size >= TRACECMD_MAGIC_LEN && memcmp (data, TRACECMD_MAGIC, TRACECMD_MAGIC_LEN) == 0;
}

/* The NUL-terminated string at *pos, advanced past it; NULL when the
 * bytes end first or it is not short printable text. */
static const char *
header_string (const guint8 *d,
               gsize n,
               gsize *pos)
{
  const guint8 *nul = *pos < n ? memchr (d + *pos, '\0', MIN (n - *pos, 64)) : NULL;
  const char *s = (const char *) d + *pos;

  if (nul == NULL)
    return NULL;
  for (const char *c = s; c < (const char *) nul; c++)
    if (!g_ascii_isprint (*c))
      return NULL;
  *pos = nul - d + 1;
  return s;
}

/**
 * tracecmd_describe_header:
 * @path: a file
 *
 * Returns: (transfer full): what its header says it is, for an error
 *   (`trace.dat version 7, compressed with zlib 1.2.13`), or why it is no
 *   trace.dat
 */
char *
tracecmd_describe_header (const char *path)
{
  g_autofree guint8 *d = g_malloc (256);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) in = g_file_read (file, NULL, NULL);
  gsize n = 0, pos = TRACECMD_MAGIC_LEN;
  const char *version, *name, *comp_version;

  if (in == NULL || !g_input_stream_read_all (G_INPUT_STREAM (in), d, 256, &n, NULL, NULL))
    return g_strdup ("unreadable");
  if (!tracecmd_has_magic (d, n))
    return g_strdup ("no trace.dat (no trace-cmd magic at byte 0)");
  version = header_string (d, n, &pos);
  if (version == NULL)
    return g_strdup ("a trace.dat cut or damaged within its header (byte 10)");
  /* endianness, long size, page size */
  pos += 1 + 1 + 4;
  if (g_strcmp0 (version, "7") < 0 || strlen (version) != 1)
    return g_strdup_printf ("a trace.dat of version %s", version);
  name = header_string (d, n, &pos);
  comp_version = name ? header_string (d, n, &pos) : NULL;
  if (comp_version == NULL)
    return g_strdup_printf ("a trace.dat of version %s cut or damaged within its header (byte %" G_GSIZE_FORMAT ")",
                            version, MIN (pos, n));
  if (g_strcmp0 (name, "none") == 0)
    return g_strdup_printf ("a trace.dat of version %s, uncompressed", version);
  return g_strdup_printf ("a trace.dat of version %s, compressed with %s %s", version, name, comp_version);
}
