/* tracepipe - json-src: Chrome's Trace Event Format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "ftrace-text.h"
#include "jsonreader.h"
#include "tracejsonelements.h"

/**
 * TraceJsonSrc:
 *
 * Reads Chrome JSON traces, array or object form, plain or gzip, in
 * constant memory; truncated files and damaged events are counted and
 * reported, not fatal. The `systemTraceEvents` text of the object form
 * goes through ftrace-src's own parser after the events (so both share
 * one implementation), on the same timeline, as Perfetto's importer does.
 * See docs/json.md.
 */
struct _TraceJsonSrc
{
  TraceFileSrc parent_instance;

  JsonTraceReader *reader;
  FtraceReader *system_trace; /* after the events, when there is one */
  gboolean events_done;
  guint metadata_members; /* in the last stream metadata announced */
};

G_DEFINE_FINAL_TYPE (TraceJsonSrc, trace_json_src, TRACE_TYPE_FILE_SRC)

static gboolean
trace_json_src_open (TraceFileSrc *src,
                     GInputStream *stream,
                     guint64 size,
                     GError **error)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (src);

  g_clear_pointer (&self->reader, json_trace_reader_free);
  g_clear_pointer (&self->system_trace, ftrace_reader_free);
  self->events_done = FALSE;
  self->metadata_members = 0;
  self->reader = json_trace_reader_new (stream, trace_file_src_get_display_name (src),
                                        trace_element_get_string_pool (TRACE_ELEMENT (src)));
  return TRUE;
}

static void
announce (TraceJsonSrc *self)
{
  const char *domain_name = json_trace_reader_get_clock_domain_name (self->reader);

  trace_base_src_set_stream_info (TRACE_BASE_SRC (self), "chrome-json",
                                  trace_file_src_get_location (TRACE_FILE_SRC (self)),
                                  json_trace_reader_get_clock_domain (self->reader),
                                  domain_name ? "metadata.clock-domain" : "json-src");
}

/* The top-level "metadata" travels with the stream (sinks write it back):
 * said again when members were added, often after the events. */
static void
announce_metadata (TraceJsonSrc *self)
{
  JsonObject *metadata = json_trace_reader_get_metadata (self->reader);
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;

  if (json_object_get_size (metadata) == self->metadata_members)
    return;
  self->metadata_members = json_object_get_size (metadata);
  node = json_node_init_object (json_node_alloc (), metadata);
  text = json_to_string (node, FALSE);
  trace_base_src_set_stream_metadata (TRACE_BASE_SRC (self), text);
}

/* The events are read; now the system trace, if the file has one. */
static TraceFlowReturn
next_from_system_trace (TraceJsonSrc *self,
                        TraceBatch **out,
                        GError **error)
{
  if (self->system_trace == NULL)
    {
      g_autoptr (GInputStream) text = NULL;
      g_autofree char *where = NULL;

      if (!json_trace_reader_has_system_trace (self->reader))
        return TRACE_FLOW_EOS;
      if ((text = json_trace_reader_open_system_trace (self->reader, error)) == NULL)
        return TRACE_FLOW_ERROR;
      where = g_strdup_printf ("%s (systemTraceEvents)", trace_file_src_get_display_name (TRACE_FILE_SRC (self)));
      self->system_trace = ftrace_reader_new (text, where, trace_element_get_string_pool (TRACE_ELEMENT (self)),
                                              NULL);
    }
  if (!ftrace_reader_read_batch (self->system_trace, out, error))
    return TRACE_FLOW_ERROR;
  return *out ? TRACE_FLOW_OK : TRACE_FLOW_EOS;
}

static TraceFlowReturn
trace_json_src_create (TraceBaseSrc *src,
                       TraceBatch **out,
                       GError **error)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (src);
  TraceClockDomain before = json_trace_reader_get_clock_domain (self->reader);
  gboolean first = trace_base_src_get_events_produced (src) == 0;

  if (!self->events_done)
    {
      if (!json_trace_reader_read_batch (self->reader, out, error))
        return TRACE_FLOW_ERROR;
      /* The clock domain is in metadata, often after the events: say so
       * as soon as it is known (a new stream-start replaces the first). */
      if (first || json_trace_reader_get_clock_domain (self->reader) != before)
        announce (self);
      announce_metadata (self);
      trace_file_src_update_progress (TRACE_FILE_SRC (src));
      if (*out)
        return TRACE_FLOW_OK;
      self->events_done = TRUE;
      if (!json_trace_reader_has_system_trace (self->reader))
        {
          /* an empty trace would pass for a good one */
          g_autofree char *failure = json_trace_reader_get_failure (self->reader);

          if (failure)
            {
              g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "%s", failure);
              return TRACE_FLOW_ERROR;
            }
        }
    }
  return next_from_system_trace (self, out, error);
}

static void
trace_json_src_finish (TraceBaseSrc *src)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (src);
  g_autofree char *summary = NULL;
  g_autofree char *system = NULL;
  g_autofree char *unsupported = NULL;

  if (self->reader && json_trace_reader_has_damage (self->reader))
    summary = json_trace_reader_get_summary (self->reader, FALSE);
  if (summary)
    trace_element_post_warning (TRACE_ELEMENT (src), NULL, "%s", summary);
  /* valid input with no place in the model: not a WARNING, but said */
  unsupported = self->reader ? json_trace_reader_get_unsupported_summary (self->reader) : NULL;
  if (unsupported)
    trace_element_post_info (TRACE_ELEMENT (src), "%s", unsupported);
  system = self->system_trace ? ftrace_reader_get_summary (self->system_trace) : NULL;
  if (system)
    trace_element_post_warning (TRACE_ELEMENT (src), NULL, "%s", system);
}

static gboolean
trace_json_src_stop (TraceBaseSrc *src,
                     GError **error)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (src);

  g_clear_pointer (&self->system_trace, ftrace_reader_free);
  g_clear_pointer (&self->reader, json_trace_reader_free);
  return TRACE_BASE_SRC_CLASS (trace_json_src_parent_class)->stop (src, error);
}

static void
trace_json_src_collect_stats (TraceElement *element,
                              GVariantDict *dict)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (element);
  const JsonTraceReaderStats *s;

  TRACE_ELEMENT_CLASS (trace_json_src_parent_class)->collect_stats (element, dict);
  if (self->reader == NULL)
    return;
  s = json_trace_reader_get_stats (self->reader);
  g_variant_dict_insert (dict, "bytes-read", "t", s->bytes);
  g_variant_dict_insert (dict, "json-events", "t", s->events);
  for (guint i = 0; i < JSON_TRACE_SKIP_N_REASONS; i++)
    if (s->skipped[i].count > 0)
      {
        g_autofree char *key = g_strdup_printf ("skipped-%s", json_trace_skip_reason_to_string (i));
        g_strdelimit (key, " ()", '-');
        g_variant_dict_insert (dict, key, "t", s->skipped[i].count);
      }
}

static void
trace_json_src_finalize (GObject *object)
{
  TraceJsonSrc *self = TRACE_JSON_SRC (object);

  g_clear_pointer (&self->system_trace, ftrace_reader_free);
  g_clear_pointer (&self->reader, json_trace_reader_free);
  G_OBJECT_CLASS (trace_json_src_parent_class)->finalize (object);
}

static void
trace_json_src_class_init (TraceJsonSrcClass *klass)
{
  TraceBaseSrcClass *src_class = TRACE_BASE_SRC_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = trace_json_src_finalize;
  TRACE_FILE_SRC_CLASS (klass)->open = trace_json_src_open;
  src_class->create = trace_json_src_create;
  src_class->finish = trace_json_src_finish;
  src_class->stop = trace_json_src_stop;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_json_src_collect_stats;
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Chrome JSON source", "Source/Trace",
                                    "Reads Chrome's Trace Event Format (JSON, array or object form)",
                                    "tracepipe");
}

static void
trace_json_src_init (TraceJsonSrc *self)
{
}

TRACE_ELEMENT_REGISTER_DEFINE (json_src, "json-src", TRACE_RANK_PRIMARY, TRACE_TYPE_JSON_SRC)
