/* tracepipe - base class for sources that read a file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracebasesrc.h>
#include <trace/traceinputmap.h>

G_BEGIN_DECLS

#define TRACE_TYPE_FILE_SRC (trace_file_src_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceFileSrc, trace_file_src, TRACE, FILE_SRC, TraceBaseSrc)

/**
 * TraceFileSrcStat:
 * @key: the key in `--stats` and the STATS message (`lines`,
 *   `skipped-unparsable-lines`)
 * @offset: where the #guint64 counter sits in the struct that
 *   #TraceFileSrcClass.get_stats returns (G_STRUCT_OFFSET())
 * @always: %TRUE to report the counter even when it is 0; %FALSE for a
 *   count of trouble, said only when there was some
 *
 * One counter a reader keeps, declared once in class_init with
 * trace_file_src_class_set_stats().
 */
typedef struct
{
  const char *key;
  gsize offset;
  gboolean always;
} TraceFileSrcStat;

/**
 * TraceFileSrcClass:
 * @parent_class: the parent class
 * @open: called in start once the input is open: @stream reads the
 *   file (or standard input for `-`), already decompressed when it was
 *   gzip (every member); @size is the file's size, 0 when unknown. Make
 *   the format's reader here.
 * @read_batch: reads the next batch into @batch, or sets it to %NULL at
 *   the end of the input; returns %FALSE with @error set when the input
 *   cannot be read at all. It consumes at most about
 *   %TRACE_BATCH_MAX_INPUT_BYTES of input per call and may then return
 *   a batch without events, after which the base returns to the main
 *   loop (signals, EOS) and calls it again
 * @get_stream_info: fills @info's format, clock domain and clock source
 *   (the base fills the location); asked after the first batch, and
 *   again when the subclass calls trace_file_src_announce_stream()
 * @get_summary: (nullable): at the end of the input, the WARNING that
 *   says what could not be used (it names the file), or %NULL when all
 *   was read
 * @get_stats: the struct the keys of trace_file_src_class_set_stats()
 *   point into, or %NULL when nothing was read yet
 * @close: frees the reader (at stop, before a new open and at dispose)
 *
 * A source with a `location` property: a format source is "open the
 * reader, give me a batch". The base opens the input, with an error
 * that quotes the location exactly as given, undoes gzip in one place,
 * sends the stream information with the first batch, posts progress
 * from the bytes read after each batch, posts the reader's summary at
 * the end and its counters in `--stats`.
 */
struct _TraceFileSrcClass
{
  TraceBaseSrcClass parent_class;

  gboolean (*open) (TraceFileSrc *src,
                    GInputStream *stream,
                    guint64 size,
                    GError **error);
  gboolean (*read_batch) (TraceFileSrc *src,
                          TraceBatch **batch,
                          GError **error);
  void (*get_stream_info) (TraceFileSrc *src,
                           TraceStreamInfo *info);
  char *(*get_summary) (TraceFileSrc *src);
  gconstpointer (*get_stats) (TraceFileSrc *src);
  void (*close) (TraceFileSrc *src);

  /*< private >*/
  gpointer _reserved[8];
};

TRACE_AVAILABLE_IN_ALL
void trace_file_src_class_set_stats (TraceFileSrcClass *klass,
                                     const TraceFileSrcStat *stats,
                                     guint n_stats);
TRACE_AVAILABLE_IN_ALL
void trace_file_src_announce_stream (TraceFileSrc *src);

TRACE_AVAILABLE_IN_ALL
const char *trace_file_src_get_location (TraceFileSrc *src);
TRACE_AVAILABLE_IN_ALL
const char *trace_file_src_get_display_name (TraceFileSrc *src);
TRACE_AVAILABLE_IN_ALL
guint64 trace_file_src_get_bytes_read (TraceFileSrc *src);
TRACE_AVAILABLE_IN_ALL
guint64 trace_file_src_get_size (TraceFileSrc *src);
TRACE_AVAILABLE_IN_ALL
void trace_file_src_update_progress (TraceFileSrc *src);

TRACE_AVAILABLE_IN_ALL
TraceInputMap *trace_file_src_get_input_map (TraceFileSrc *src);
TRACE_AVAILABLE_IN_ALL
const guint8 *trace_file_src_map_input (TraceFileSrc *src,
                                        gsize *size);
TRACE_AVAILABLE_IN_ALL
void trace_file_src_set_mapped_position (TraceFileSrc *src,
                                         guint64 position);

G_END_DECLS
