/* tracepipe - json plugin: a byte buffer that spills to a temporary file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <trace/trace.h>

#include "json-common.h"

/* Once on disk, writes are gathered in memory up to this size so that a
 * caller writing line by line does not make a system call per line. */
#define SPILL_WRITE_BACK (64 * 1024)

struct _ChromeSpill
{
  gsize memory_limit;
  GByteArray *pending; /* everything (in memory) or the unwritten tail */
  GFileIOStream *file; /* NULL while in memory */
  guint64 size;
  GBytes *frozen; /* the in-memory content once reading started */
};

/**
 * chrome_spill_new:
 * @memory_limit: bytes kept in memory before moving to a temporary file
 */
ChromeSpill *
chrome_spill_new (gsize memory_limit)
{
  ChromeSpill *spill = g_new0 (ChromeSpill, 1);

  spill->memory_limit = MAX (memory_limit, SPILL_WRITE_BACK);
  spill->pending = g_byte_array_new ();
  return spill;
}

void
chrome_spill_free (ChromeSpill *spill)
{
  if (spill == NULL)
    return;
  if (spill->pending)
    g_byte_array_unref (spill->pending);
  g_clear_object (&spill->file);
  g_clear_pointer (&spill->frozen, g_bytes_unref);
  g_free (spill);
}

static gboolean
set_write_error (GError *io_error,
                 GError **error)
{
  gint code = g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_NO_SPACE)
                  ? TRACE_RESOURCE_ERROR_NO_SPACE_LEFT
                  : TRACE_RESOURCE_ERROR_WRITE;

  g_set_error (error, TRACE_RESOURCE_ERROR, code,
               "cannot write the temporary file: %s", io_error->message);
  g_error_free (io_error);
  return FALSE;
}

static gboolean
flush_pending (ChromeSpill *spill,
               GError **error)
{
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (spill->file));
  GError *io_error = NULL;

  if (spill->pending->len == 0)
    return TRUE;
  if (!g_output_stream_write_all (out, spill->pending->data, spill->pending->len,
                                  NULL, NULL, &io_error))
    return set_write_error (io_error, error);
  g_byte_array_set_size (spill->pending, 0);
  return TRUE;
}

static gboolean
move_to_disk (ChromeSpill *spill,
              GError **error)
{
  g_autoptr (GFile) file = NULL;
  GError *io_error = NULL;

  file = g_file_new_tmp ("tracepipe-json-XXXXXX", &spill->file, &io_error);
  if (file == NULL)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_WRITE,
                   "cannot create a temporary file: %s", io_error->message);
      g_error_free (io_error);
      return FALSE;
    }
  /* The open stream keeps the data; the name is not needed and must not
   * outlive the process. */
  g_file_delete (file, NULL, NULL);
  return flush_pending (spill, error);
}

/**
 * chrome_spill_write:
 *
 * Appends bytes.  Must not be called after chrome_spill_read().
 */
gboolean
chrome_spill_write (ChromeSpill *spill,
                    const void *data,
                    gsize len,
                    GError **error)
{
  g_return_val_if_fail (spill->frozen == NULL, FALSE);

  g_byte_array_append (spill->pending, data, len);
  spill->size += len;
  if (spill->file == NULL && spill->pending->len > spill->memory_limit)
    return move_to_disk (spill, error);
  if (spill->file != NULL && spill->pending->len >= SPILL_WRITE_BACK)
    return flush_pending (spill, error);
  return TRUE;
}

guint64
chrome_spill_get_size (ChromeSpill *spill)
{
  return spill->size;
}

gboolean
chrome_spill_is_on_disk (ChromeSpill *spill)
{
  return spill->file != NULL;
}

/**
 * chrome_spill_read:
 *
 * Returns: (transfer full): a stream over everything written, from the
 *   start.  Each call starts again from the beginning; only one stream
 *   may be in use at a time.
 */
GInputStream *
chrome_spill_read (ChromeSpill *spill,
                   GError **error)
{
  GError *io_error = NULL;

  if (spill->file == NULL)
    {
      if (spill->frozen == NULL)
        spill->frozen = g_byte_array_free_to_bytes (g_steal_pointer (&spill->pending));
      return g_memory_input_stream_new_from_bytes (spill->frozen);
    }
  if (!flush_pending (spill, error))
    return NULL;
  if (!g_seekable_seek (G_SEEKABLE (spill->file), 0, G_SEEK_SET, NULL, &io_error))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_READ,
                   "cannot read the temporary file back: %s", io_error->message);
      g_error_free (io_error);
      return NULL;
    }
  spill->frozen = g_bytes_new (NULL, 0);
  return g_object_ref (g_io_stream_get_input_stream (G_IO_STREAM (spill->file)));
}
