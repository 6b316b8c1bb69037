/* tracepipe - a source's input in place, for the reader it hands it to
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A #TraceFileSrc makes one for each input it opens and hands it to its
 * reader, which maps the file when it first wants the bytes in place
 * (a large input read on several threads) and says how far it got; the
 * source reads the position back for its progress and checks the
 * mapping for a file cut short. The reader holds the map, not the
 * source.
 */
#include "config.h"

#include "trace-private.h"

struct _TraceInputMap
{
  int fd; /* -1: no mapping can be made (a pipe, a gzip file) */
  char *name;
  gboolean tried;
  TraceFileMap *file_map; /* once the reader asked, if the system gave one */
  guint64 position;       /* how far the reader got in it */
};

/**
 * _trace_input_map_new:
 * @fd: the input's file descriptor, kept open while the map lives; -1
 *   when the input is not the file as it is (decompressed, a pipe)
 * @name: the input as messages name it
 *
 * Returns: (transfer full): a map that maps nothing until asked
 */
TraceInputMap *
_trace_input_map_new (int fd,
                      const char *name)
{
  TraceInputMap *map = g_new0 (TraceInputMap, 1);

  map->fd = fd;
  map->name = g_strdup (name);
  return map;
}

void
_trace_input_map_free (TraceInputMap *map)
{
  if (map == NULL)
    return;
  g_clear_pointer (&map->file_map, _trace_file_map_free);
  g_free (map->name);
  g_free (map);
}

/**
 * trace_input_map_get_data:
 * @map: a #TraceInputMap
 * @size: (out): the bytes mapped
 *
 * The input file mapped into memory, for a reader that reads a large
 * file in chunks on several threads: the bytes are read where the
 * system keeps them, without the copy a read makes. Only a regular file
 * read as it is has a mapping (not standard input, a pipe or a gzip
 * file), and only when the system gives one; otherwise the reader goes
 * on with the stream its source opened.
 *
 * The mapping holds the file's first @size bytes, from offset 0, which
 * is also the offset of the stream's bytes: a reader that read N bytes
 * from the stream continues at byte N of the mapping (and no longer
 * reads the stream). If the file grows meanwhile, what it gained is not
 * read; if it shrinks, the bytes it lost read as zeros, and the source
 * drops the batch being read and ends the stream with a WARNING saying
 * the file was cut short (instead of a crash: see docs/robustness.md). Call
 * trace_input_map_set_position() as reading goes on, for the progress
 * and the memory.
 *
 * Returns: (transfer none) (nullable) (array length=size): the bytes,
 *   valid until the source stops; %NULL when there is no mapping
 */
const guint8 *
trace_input_map_get_data (TraceInputMap *map,
                          gsize *size)
{
  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (size != NULL, NULL);

  *size = 0;
  if (!map->tried)
    {
      map->tried = TRUE;
      if (map->fd >= 0)
        map->file_map = _trace_file_map_new (map->fd);
      g_debug ("%s: %s", map->name, map->file_map ? "read in place (mapped)" : "no mapping: read through the stream");
    }
  return map->file_map ? _trace_file_map_get_data (map->file_map, size) : NULL;
}

/**
 * trace_input_map_set_position:
 * @map: a #TraceInputMap
 * @position: the reader is done with the bytes of the mapping before
 *   this one
 *
 * For a reader that reads through trace_input_map_get_data(): gives its
 * source the progress, and lets the pages before @position leave the
 * process's resident memory (they stay in the system's page cache), so
 * the peak RSS does not grow with the file. A byte before @position
 * read again is still there, only slower.
 */
void
trace_input_map_set_position (TraceInputMap *map,
                              guint64 position)
{
  g_return_if_fail (map != NULL);

  map->position = position;
  if (map->file_map != NULL)
    _trace_file_map_release (map->file_map, position);
}

/**
 * _trace_input_map_get_position:
 * @mapped: (out): whether the reader reads through a mapping
 *
 * Returns: what the reader last gave trace_input_map_set_position()
 */
guint64
_trace_input_map_get_position (TraceInputMap *map,
                               gboolean *mapped)
{
  *mapped = map->file_map != NULL;
  return map->position;
}

/**
 * _trace_input_map_check:
 * @size: (out): the bytes mapped
 *
 * Returns: %FALSE when the file is now shorter than it was mapped
 */
gboolean
_trace_input_map_check (TraceInputMap *map,
                        gsize *size)
{
  *size = 0;
  if (map->file_map == NULL)
    return TRUE;
  _trace_file_map_get_data (map->file_map, size);
  return _trace_file_map_check (map->file_map);
}
