/* tracepipe - arkts-src: OpenHarmony ArkTS / V8 heap and CPU profiles
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "config.h"

#include <string.h>

#include "arktsreader.h"

/**
 * TraceArktsSrc:
 *
 * Reads OpenHarmony ArkTS JS profiler data and the V8 DevTools files it
 * is made of: the chunked message stream of heap snapshots and the heap
 * timeline, `.heapsnapshot`, `.heaptimeline`, `.cpuprofile` and sampling
 * heap profiles, plain or gzip. CPU samples become nested slices of the
 * sampled stacks (and samples); heap data becomes counters over time and
 * a summary per snapshot. See docs/arkts.md.
 */
#define TRACE_TYPE_ARKTS_SRC (trace_arkts_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceArktsSrc, trace_arkts_src, TRACE, ARKTS_SRC, TraceFileSrc)

struct _TraceArktsSrc
{
  TraceFileSrc parent_instance;

  ArktsReaderOptions opts;
  ArktsReader *reader;
};

enum
{
  PROP_0,
  PROP_PID,
  PROP_TID,
  PROP_MODE,
  PROP_START_TIME,
  PROP_SNAPSHOT_INTERVAL,
  PROP_CPU_PROFILER_INTERVAL,
  PROP_TOP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceArktsSrc, trace_arkts_src, TRACE_TYPE_FILE_SRC)

static GType
mode_get_type (void)
{
  static gsize type;
  static const GEnumValue values[] = {
    { ARKTS_MODE_AUTO, "ARKTS_MODE_AUTO", "auto" },
    { ARKTS_MODE_SNAPSHOT, "ARKTS_MODE_SNAPSHOT", "snapshot" },
    { ARKTS_MODE_TIMELINE, "ARKTS_MODE_TIMELINE", "timeline" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("TraceArktsMode", values));
  return type;
}

static gboolean
trace_arkts_src_open (TraceFileSrc *src,
                      GInputStream *stream,
                      guint64 size,
                      GError **error)
{
  TraceArktsSrc *self = TRACE_ARKTS_SRC (src);

  g_clear_pointer (&self->reader, arkts_reader_free);
  self->reader = arkts_reader_new (stream, trace_file_src_get_display_name (src),
                                   trace_element_get_string_pool (TRACE_ELEMENT (src)), &self->opts);
  return TRUE;
}

static TraceFlowReturn
trace_arkts_src_create (TraceBaseSrc *src,
                        TraceBatch **out,
                        GError **error)
{
  TraceArktsSrc *self = TRACE_ARKTS_SRC (src);
  gboolean first = trace_base_src_get_events_produced (src) == 0;

  if (!arkts_reader_read_batch (self->reader, out, error))
    return TRACE_FLOW_ERROR;
  if (first)
    trace_base_src_set_stream_info (src, arkts_input_kind_to_string (arkts_reader_get_input_kind (self->reader)),
                                    trace_file_src_get_location (TRACE_FILE_SRC (src)),
                                    arkts_reader_get_clock_domain (self->reader), "arkts-src");
  trace_file_src_update_progress (TRACE_FILE_SRC (src));
  return *out ? TRACE_FLOW_OK : TRACE_FLOW_EOS;
}

static void
trace_arkts_src_finish (TraceBaseSrc *src)
{
  TraceArktsSrc *self = TRACE_ARKTS_SRC (src);
  g_autofree char *summary = self->reader ? arkts_reader_get_warning_summary (self->reader) : NULL;

  if (summary)
    trace_element_post_warning (TRACE_ELEMENT (src), NULL, "%s", summary);
}

static gboolean
trace_arkts_src_stop (TraceBaseSrc *src,
                      GError **error)
{
  g_clear_pointer (&TRACE_ARKTS_SRC (src)->reader, arkts_reader_free);
  return TRACE_BASE_SRC_CLASS (trace_arkts_src_parent_class)->stop (src, error);
}

static void
trace_arkts_src_collect_stats (TraceElement *element,
                               GVariantDict *dict)
{
  TraceArktsSrc *self = TRACE_ARKTS_SRC (element);
  const ArktsReaderStats *s;

  TRACE_ELEMENT_CLASS (trace_arkts_src_parent_class)->collect_stats (element, dict);
  if (self->reader == NULL)
    return;
  s = arkts_reader_get_stats (self->reader);
  g_variant_dict_insert (dict, "bytes-read", "t", s->bytes);
  g_variant_dict_insert (dict, "messages", "t", s->messages);
  g_variant_dict_insert (dict, "snapshots", "t", s->snapshots);
  g_variant_dict_insert (dict, "cpu-samples", "t", s->samples);
  for (guint i = 0; i < ARKTS_SKIP_N_REASONS; i++)
    if (s->skipped[i].count > 0)
      {
        g_autofree char *key = g_strdup_printf ("skipped-%s", arkts_skip_reason_to_string (i));
        g_strdelimit (key, " ()", '-');
        g_variant_dict_insert (dict, key, "t", s->skipped[i].count);
      }
}

static void
trace_arkts_src_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  ArktsReaderOptions *o = &TRACE_ARKTS_SRC (object)->opts;

  switch (prop_id)
    {
    case PROP_PID:
      o->pid = g_value_get_int64 (value);
      break;
    case PROP_TID:
      o->tid = g_value_get_int64 (value);
      break;
    case PROP_MODE:
      o->mode = g_value_get_enum (value);
      break;
    case PROP_START_TIME:
      o->start_time = g_value_get_int64 (value);
      break;
    case PROP_SNAPSHOT_INTERVAL:
      o->snapshot_interval = g_value_get_int64 (value);
      break;
    case PROP_CPU_PROFILER_INTERVAL:
      o->cpu_profiler_interval = g_value_get_int64 (value);
      break;
    case PROP_TOP:
      o->top_n = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_arkts_src_get_property (GObject *object,
                              guint prop_id,
                              GValue *value,
                              GParamSpec *pspec)
{
  ArktsReaderOptions *o = &TRACE_ARKTS_SRC (object)->opts;

  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int64 (value, o->pid);
      break;
    case PROP_TID:
      g_value_set_int64 (value, o->tid);
      break;
    case PROP_MODE:
      g_value_set_enum (value, o->mode);
      break;
    case PROP_START_TIME:
      g_value_set_int64 (value, o->start_time);
      break;
    case PROP_SNAPSHOT_INTERVAL:
      g_value_set_int64 (value, o->snapshot_interval);
      break;
    case PROP_CPU_PROFILER_INTERVAL:
      g_value_set_int64 (value, o->cpu_profiler_interval);
      break;
    case PROP_TOP:
      g_value_set_uint (value, o->top_n);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_arkts_src_finalize (GObject *object)
{
  g_clear_pointer (&TRACE_ARKTS_SRC (object)->reader, arkts_reader_free);
  G_OBJECT_CLASS (trace_arkts_src_parent_class)->finalize (object);
}

static void
install_properties (GObjectClass *object_class,
                    const ArktsReaderOptions *d)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  properties[PROP_PID] = g_param_spec_int64 ("pid", "Pid", "The profiled process (-1: from the data)",
                                             -1, G_MAXINT64, d->pid, rw);
  properties[PROP_TID] = g_param_spec_int64 ("tid", "Tid", "The profiled thread (-1: the profile's tid, else pid)",
                                             -1, G_MAXINT64, d->tid, rw);
  properties[PROP_MODE] = g_param_spec_enum ("mode", "Mode", "What the stream's {\"id\":N} markers mean",
                                             mode_get_type (), d->mode, rw);
  properties[PROP_START_TIME] = g_param_spec_int64 ("start-time", "Start time",
                                                    "Where heap data sits on the stream's clock (ns; 1.5s, 200ms)",
                                                    G_MININT64, G_MAXINT64, d->start_time, rw);
  properties[PROP_SNAPSHOT_INTERVAL] = g_param_spec_int64 ("snapshot-interval", "Snapshot interval",
                                                           "Time between two snapshots of a stream (ns; 1s)",
                                                           0, G_MAXINT64, d->snapshot_interval, rw);
  properties[PROP_CPU_PROFILER_INTERVAL] = g_param_spec_int64 ("cpu-profiler-interval", "CPU profiler interval",
                                                               "Sampling interval for profiles without times (ns; 0 unknown)",
                                                               0, G_MAXINT64, d->cpu_profiler_interval, rw);
  trace_param_spec_set_time (properties[PROP_START_TIME]);
  trace_param_spec_set_time (properties[PROP_SNAPSHOT_INTERVAL]);
  trace_param_spec_set_time (properties[PROP_CPU_PROFILER_INTERVAL]);
  properties[PROP_TOP] = g_param_spec_uint ("top", "Top", "Constructors and functions listed per summary",
                                            1, 1000, d->top_n, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
trace_arkts_src_class_init (TraceArktsSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseSrcClass *src_class = TRACE_BASE_SRC_CLASS (klass);
  ArktsReaderOptions defaults;

  object_class->set_property = trace_arkts_src_set_property;
  object_class->get_property = trace_arkts_src_get_property;
  object_class->finalize = trace_arkts_src_finalize;
  TRACE_FILE_SRC_CLASS (klass)->open = trace_arkts_src_open;
  src_class->create = trace_arkts_src_create;
  src_class->finish = trace_arkts_src_finish;
  src_class->stop = trace_arkts_src_stop;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_arkts_src_collect_stats;
  arkts_reader_options_init (&defaults);
  install_properties (object_class, &defaults);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "ArkTS profiler source", "Source/Trace",
                                    "Reads ArkTS/V8 heap snapshots, heap timelines and CPU profiles",
                                    "tracepipe");
}

static void
trace_arkts_src_init (TraceArktsSrc *self)
{
  arkts_reader_options_init (&self->opts);
}

TRACE_ELEMENT_REGISTER_DEFINE (arkts_src, "arkts-src", TRACE_RANK_PRIMARY, TRACE_TYPE_ARKTS_SRC)

static gboolean
has (const guint8 *data,
     gsize size,
     const char *needle)
{
  return memmem (data, size, needle, strlen (needle)) != NULL;
}

/* The first key of the first object: V8 documents and DevTools messages
 * start with keys a Chrome trace never starts with. */
static gboolean
first_key_is (const guint8 *data,
              gsize size,
              const char *const *keys)
{
  const char *p = (const char *) data, *end = p + size;

  while (p < end && (g_ascii_isspace (*p) || *p == '['))
    p++;
  if (p >= end || *p != '{')
    return FALSE;
  for (p++; p < end && g_ascii_isspace (*p); p++)
    ;
  for (guint i = 0; keys[i]; i++)
    {
      gsize n = strlen (keys[i]);
      if ((gsize) (end - p) > n + 2 && p[0] == '"' && memcmp (p + 1, keys[i], n) == 0 && p[n + 1] == '"')
        return TRUE;
    }
  return FALSE;
}

static guint
arkts_type_find (const guint8 *data,
                 gsize size,
                 gpointer user_data)
{
  static const char *const doc_keys[] = { "nodes", "head", "snapshot", "startTime", "samples", NULL };
  static const char *const msg_keys[] = { "id", "method", NULL };

  if (has (data, size, "\"traceEvents\""))
    return 0;
  if (first_key_is (data, size, doc_keys))
    return 90;
  if (first_key_is (data, size, msg_keys) &&
      (has (data, size, "HeapProfiler.") || has (data, size, "\"result\"")))
    return 90;
  return 0;
}

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  trace_type_find_register (plugin, "arkts", "arkts-src", arkts_type_find, NULL);
  return TRACE_ELEMENT_REGISTER (arkts_src, plugin);
}

TRACE_PLUGIN_DEFINE (arkts, "OpenHarmony ArkTS and V8 heap and CPU profiles", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
