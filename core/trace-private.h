/* tracepipe - internal helpers shared by the core's files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>

#include "trace/trace.h"

G_BEGIN_DECLS

void _trace_pad_set_parent (TracePad *pad,
                            TraceElement *parent);
void _trace_pad_reset (TracePad *pad);

void _trace_element_set_parent (TraceElement *element,
                                TraceElement *parent);
TraceState _trace_element_get_state_field (TraceElement *element);
void _trace_element_set_state_field (TraceElement *element,
                                     TraceState state);
void _trace_element_set_factory_name (TraceElement *element,
                                      const char *factory_name);

void _trace_bin_child_renamed (TraceBin *bin,
                               TraceElement *child,
                               const char *old_name);

/* tracewaitstream.c */
GInputStream *_trace_wait_stream_new (GInputStream *base,
                                      GCancellable *cancel,
                                      GMainContext *context);
guint64 _trace_wait_stream_get_bytes_read (GInputStream *stream);

/* tracerewindstream.c */
GInputStream *_trace_rewind_stream_new (GInputStream *base);
void _trace_rewind_stream_rewind (GInputStream *stream,
                                  gboolean keep_recording);
gboolean _trace_is_rewind_stream (GInputStream *stream);
guint64 _trace_rewind_stream_get_position (GInputStream *stream);

/* tracefilesrc.c: how every file source opens its input */
gboolean _trace_location_is_stream (const char *location);
GInputStream *_trace_file_src_open_location (const char *location,
                                             GCancellable *cancel,
                                             GMainContext *context,
                                             guint64 *size,
                                             GError **error);
void _trace_file_src_take_input (TraceFileSrc *src,
                                 GInputStream *input,
                                 guint64 size);

/* tracefilemap.c: a regular file mapped, safe when it shrinks */
typedef struct _TraceFileMap TraceFileMap;
TraceFileMap *_trace_file_map_new (int fd);
const guint8 *_trace_file_map_get_data (TraceFileMap *map,
                                        gsize *size);
void _trace_file_map_release (TraceFileMap *map,
                              guint64 done);
gboolean _trace_file_map_check (TraceFileMap *map);
void _trace_file_map_free (TraceFileMap *map);

/* traceinputmap.c: the input in place, mapped when the reader asks */
TraceInputMap *_trace_input_map_new (int fd,
                                     const char *name);
void _trace_input_map_free (TraceInputMap *map);
guint64 _trace_input_map_get_position (TraceInputMap *map,
                                       gboolean *mapped);
gboolean _trace_input_map_check (TraceInputMap *map,
                                 gsize *size);

/* tracegzipdecoder.c: gzip, every member; how the input ended */
typedef enum
{
  TRACE_GZIP_END_NONE,     /* not yet */
  TRACE_GZIP_END_WHOLE,    /* after a whole member */
  TRACE_GZIP_END_CUT,      /* inside a member: the file was cut */
  TRACE_GZIP_END_TRAILING, /* bytes that are not gzip follow the members */
} TraceGzipEnd;

#define TRACE_TYPE_GZIP_DECODER (_trace_gzip_decoder_get_type ())
G_DECLARE_FINAL_TYPE (TraceGzipDecoder, _trace_gzip_decoder, TRACE, GZIP_DECODER, GObject)
typedef void (*TraceGzipEndFunc) (TraceGzipDecoder *decoder,
                                  gpointer user_data);
TraceGzipDecoder *_trace_gzip_decoder_new (TraceGzipEndFunc end_func,
                                           gpointer end_data);
TraceGzipEnd _trace_gzip_decoder_get_end (TraceGzipDecoder *self,
                                          guint64 *offset,
                                          guint64 *trailing_bytes,
                                          guint *members);

/* tracegraph.c */
gboolean _trace_graph_check_link (TracePad *srcpad,
                                  TracePad *sinkpad,
                                  GError **error);
GList *_trace_graph_sort_sinks_first (const GList *children);

guint _trace_bus_get_n_errors (TraceBus *bus);

void _trace_registry_init (void);
void _trace_core_elements_register (TracePlugin *plugin);
TracePlugin *_trace_plugin_new_static (const TracePluginDesc *desc,
                                       const char *filename);

G_END_DECLS

G_BEGIN_DECLS
/* tracesinkthread.c: a sink's writer thread */
typedef struct _TraceSinkThread TraceSinkThread;
typedef TraceFlowReturn (*TraceSinkThreadRenderFunc) (TraceBaseSink *sink,
                                                      TraceBatch *batch);
TraceSinkThread *_trace_sink_thread_new (TraceBaseSink *sink,
                                         TraceSinkThreadRenderFunc render,
                                         guint max_batches,
                                         GError **error);
TraceFlowReturn _trace_sink_thread_push (TraceSinkThread *t,
                                         TraceBatch *batch);
gboolean _trace_sink_thread_is_ready (TraceSinkThread *t);
void _trace_sink_thread_drain (TraceSinkThread *t);
void _trace_sink_thread_stop (TraceSinkThread *t);
void _trace_sink_thread_free (TraceSinkThread *t);

/* tracebasesink.c: whether render() runs on a thread of the sink's own
 * (taken at the next READY -> PLAYING) */
void _trace_base_sink_set_render_thread (TraceBaseSink *sink,
                                         gboolean threaded);

gboolean _trace_file_sink_find_shared_output (TraceBin *bin,
                                              TraceElement **first,
                                              TraceElement **second,
                                              GError **error);

/* tracevalue.c: @value in double quotes, cut after a few hundred bytes
 * (at a character boundary) with its full length said, so that a 100 MB
 * value never becomes a 100 MB message. */
#define TRACE_QUOTED_VALUE_MAX 256
char *_trace_quote_value (const char *value);

/* tracelocation.c */
char *_trace_location_follow_symlinks (const char *path);
GFile *_trace_location_to_file (const char *location);
/* A whole message built from several values is cut at this. */
#define TRACE_MESSAGE_MAX 4096
/* @text cut in the middle to @max bytes (a system message that holds a
 * path: its start and its reason are kept). */
char *_trace_cut_middle (const char *text,
                         gsize max);
/* Every "…" of @message cut like _trace_quote_value() does, then the whole
 * like _trace_cut_middle(): for messages built from many pieces. */
char *_trace_cut_quoted_segments (const char *message);
G_END_DECLS

G_BEGIN_DECLS
/* A static table a class declares once (stats keys, skip reasons): kept
 * on its type, found from a subclass by walking up to @base. */
typedef struct
{
  gconstpointer items;
  guint n_items;
} TraceClassTable;

void _trace_class_set_table (GType type,
                             GQuark quark,
                             gconstpointer items,
                             guint n_items);
const TraceClassTable *_trace_class_find_table (GType type,
                                                GType base,
                                                GQuark quark);

/* Detection over a head that may grow (auto-src): each detector is shown
 * up to its look-ahead; *want is how far to read before asking again (0:
 * the answer is final). */
const char *_trace_type_find_head (const guint8 *data,
                                   gsize size,
                                   gboolean complete,
                                   const char **format,
                                   gsize *want);
char *_trace_type_find_list_elements (void);
G_END_DECLS
