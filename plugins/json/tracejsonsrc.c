/* tracepipe - json-src: Chrome's Trace Event Format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "ftrace-text.h"
#include "json-elements.h"
#include "json-reader.h"

/**
 * TraceJsonSrc:
 *
 * Reads Chrome JSON traces, array or object form, plain or gzip (undone
 * by #TraceFileSrc), in constant memory; truncated files and damaged
 * events are counted and reported, not fatal. The `systemTraceEvents`
 * text of the object form goes through ftrace-src's own parser after the
 * events (so both share one implementation), on the same timeline, as
 * Perfetto's importer does. See docs/json.md.
 *
 * ```
 * trace-launch json-src location=trace.json.gz ! perfetto-sink location=trace.pftrace
 * ```
 */
struct _TraceJsonSrc
{
  TraceFileSrc parent_instance;

  ChromeReader *reader;
  FtraceReader *system_trace; /* after the events, when there is one */
  gboolean events_done;
  guint metadata_members; /* in the last stream metadata announced */
  guint threads;          /* the property */
};

enum
{
  PROP_0,
  PROP_THREADS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceJsonSrc, trace_json_src, TRACE_TYPE_FILE_SRC)

static gboolean
trace_json_src_open (TraceFileSrc *src,
                     GInputStream *stream,
                     guint64 size,
                     GError **error)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (src);

  self->events_done = FALSE;
  self->metadata_members = 0;
  self->reader = chrome_reader_new (stream, trace_file_src_get_display_name (src),
                                    trace_element_get_string_pool (TRACE_ELEMENT (src)));
  /* gzip: where a decompression error is reported depends on the sizes
   * of the reads, which workers change (docs/performance.md) */
  chrome_reader_set_threads (self->reader, G_IS_CONVERTER_INPUT_STREAM (stream) ? 1 : self->threads);
  chrome_reader_set_input_map (self->reader, trace_file_src_get_input_map (src));
  return TRUE;
}

static void
trace_json_src_get_stream_info (TraceFileSrc *src,
                                TraceStreamInfo *info)
{
  ChromeReader *reader = TRACE_JSON_SRC (src)->reader;

  info->format = "chrome-json";
  info->clock_domain = chrome_reader_get_clock_domain (reader);
  info->clock_source = chrome_reader_get_clock_domain_name (reader) ? "metadata.clock-domain" : "json-src";
  /* Chrome names its main threads in metadata events; the events keep
   * the file's order and forms */
  info->flags = TRACE_STREAM_FLAG_MAIN_THREADS_NAMED | TRACE_STREAM_FLAG_JSON_ORDER;
}

/* The top-level "metadata" travels with the stream (sinks write it back):
 * said again when members were added, often after the events. */
static void
announce_metadata (TraceJsonSrc *self)
{
  JsonObject *metadata = chrome_reader_get_metadata (self->reader);
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;

  if (json_object_get_size (metadata) == self->metadata_members)
    return;
  self->metadata_members = json_object_get_size (metadata);
  node = json_node_init_object (json_node_alloc (), metadata);
  text = trace_json_text_escape_controls (json_to_string (node, FALSE));
  trace_base_src_set_stream_metadata (TRACE_BASE_SRC (self), text);
}

/* The next batch of the JSON events; *out is NULL once they are read. */
static gboolean
read_events (TraceJsonSrc *self,
             TraceBatch **out,
             GError **error)
{
  TraceClockDomain before = chrome_reader_get_clock_domain (self->reader);
  gboolean first = trace_base_src_get_events_produced (TRACE_BASE_SRC (self)) == 0;

  if (!chrome_reader_read_batch (self->reader, out, error))
    return FALSE;
  /* The clock domain is in metadata, often after the events: say so as
   * soon as it is known (a new stream-start replaces the first). Before
   * the first events the base announces the stream itself. */
  if (!first && chrome_reader_get_clock_domain (self->reader) != before)
    trace_file_src_announce_stream (TRACE_FILE_SRC (self));
  announce_metadata (self);
  return TRUE;
}

/* The events are read: an empty trace from a file that could not be read
 * would pass for a good one. */
static gboolean
check_failure (TraceJsonSrc *self,
               GError **error)
{
  g_autofree char *failure = NULL;

  if (chrome_reader_has_system_trace (self->reader) || (failure = chrome_reader_get_failure (self->reader)) == NULL)
    return TRUE;
  /* the stream-start goes out with the error: say what it is */
  if (trace_base_src_get_events_produced (TRACE_BASE_SRC (self)) == 0)
    trace_file_src_announce_stream (TRACE_FILE_SRC (self));
  g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "%s", failure);
  return FALSE;
}

/* The events are read; now the system trace, if the file has one. */
static gboolean
read_system_trace (TraceJsonSrc *self,
                   TraceBatch **out,
                   GError **error)
{
  *out = NULL;
  if (self->system_trace == NULL)
    {
      g_autoptr (GInputStream) text = NULL;
      g_autofree char *where = NULL;

      if (!chrome_reader_has_system_trace (self->reader))
        return TRUE;
      if ((text = chrome_reader_open_system_trace (self->reader, error)) == NULL)
        return FALSE;
      where = g_strdup_printf ("%s (systemTraceEvents)", trace_file_src_get_display_name (TRACE_FILE_SRC (self)));
      self->system_trace = ftrace_reader_new (text, where, trace_element_get_string_pool (TRACE_ELEMENT (self)),
                                              NULL);
    }
  return ftrace_reader_read_batch (self->system_trace, out, error);
}

static gboolean
trace_json_src_read_batch (TraceFileSrc *src,
                           TraceBatch **out,
                           GError **error)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (src);

  if (!self->events_done)
    {
      if (!read_events (self, out, error))
        return FALSE;
      if (*out)
        return TRUE;
      self->events_done = TRUE;
      if (!check_failure (self, error))
        return FALSE;
    }
  return read_system_trace (self, out, error);
}

static char *
trace_json_src_get_summary (TraceFileSrc *src)
{
  ChromeReader *reader = TRACE_JSON_SRC (src)->reader;

  if (reader == NULL || !chrome_reader_has_damage (reader))
    return NULL;
  return chrome_reader_get_summary (reader, FALSE);
}

static gconstpointer
trace_json_src_get_stats (TraceFileSrc *src)
{
  ChromeReader *reader = TRACE_JSON_SRC (src)->reader;

  return reader ? chrome_reader_get_stats (reader) : NULL;
}

/* After the damage summary: valid input with no place in the model (not
 * a WARNING, but said), then what the system trace's parser skipped. */
static void
trace_json_src_finish (TraceBaseSrc *src)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (src);
  g_autofree char *unsupported = NULL;
  g_autofree char *system = NULL;

  TRACE_BASE_SRC_CLASS (trace_json_src_parent_class)->finish (src);
  unsupported = self->reader ? chrome_reader_get_unsupported_summary (self->reader) : NULL;
  if (unsupported)
    trace_element_post_info (TRACE_ELEMENT (src), "%s", unsupported);
  system = self->system_trace ? ftrace_reader_get_summary (self->system_trace) : NULL;
  if (system)
    trace_element_post_warning (TRACE_ELEMENT (src), NULL, "%s", system);
}

static void
trace_json_src_close (TraceFileSrc *src)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (src);

  g_clear_pointer (&self->system_trace, ftrace_reader_free);
  g_clear_pointer (&self->reader, chrome_reader_free);
}

static void
trace_json_src_set_property (GObject *object,
                             guint prop_id,
                             const GValue *value,
                             GParamSpec *pspec)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_THREADS:
      self->threads = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_json_src_get_property (GObject *object,
                             guint prop_id,
                             GValue *value,
                             GParamSpec *pspec)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (object);

  switch (prop_id)
    {
    case PROP_THREADS:
      g_value_set_uint (value, self->threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_json_src_class_init (TraceJsonSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceFileSrcClass *file_src_class = TRACE_FILE_SRC_CLASS (klass);

  object_class->set_property = trace_json_src_set_property;
  object_class->get_property = trace_json_src_get_property;

  file_src_class->open = trace_json_src_open;
  file_src_class->read_batch = trace_json_src_read_batch;
  file_src_class->get_stream_info = trace_json_src_get_stream_info;
  file_src_class->get_summary = trace_json_src_get_summary;
  file_src_class->get_stats = trace_json_src_get_stats;
  file_src_class->close = trace_json_src_close;
  trace_file_src_class_set_stats (file_src_class, chrome_reader_stats, CHROME_READER_N_STATS);
  TRACE_BASE_SRC_CLASS (klass)->finish = trace_json_src_finish;
  /**
   * TraceJsonSrc:threads:
   *
   * Threads that parse the events of an uncompressed trace: with more
   * than one, other threads scan the events of the traceEvents array
   * (each into its fields) while this element's thread turns them into
   * events in file order; the events are the same as with one. Threads
   * that lend their spare time (trace_spare_work_lend(): a file sink's
   * writer thread, between its batches) count among them; worker
   * threads of this element's own make up the rest. A gzip file, a file
   * of one first block (64 KiB) and everything outside traceEvents are
   * parsed on one thread. At most 8 are used. The default is the number
   * of cores.
   */
  properties[PROP_THREADS] =
      g_param_spec_uint ("threads", "Threads", "Threads that parse the events (the events are the same with 1)", 1,
                         1024, MAX (g_get_num_processors (), 1), G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Chrome JSON source", "Source/Trace",
                                    "Reads Chrome's Trace Event Format (JSON, array or object form)",
                                    "tracepipe");
}

static void
trace_json_src_init (TraceJsonSrc *self)
{
  self->threads = MAX (g_get_num_processors (), 1);
}

TRACE_ELEMENT_REGISTER_DEFINE (json_src, "json-src", TRACE_RANK_PRIMARY, TRACE_TYPE_JSON_SRC)
