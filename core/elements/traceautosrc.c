/* tracepipe - auto-src: detects the format of a file and reads it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"
#include "tracecoreelements.h"

#define DEFAULT_LOCATION NULL

/* Type finders see this much of the start of the input. */
#define SNIFF_SIZE (64 * 1024)

/**
 * TraceAutoSrc:
 *
 * Looks at the start of `location` with the detectors that the plugins
 * register (trace_type_find_register(), content sniffing as GStreamer's
 * typefind does), makes the source element that reads that format and
 * runs it inside itself, so its events leave through auto-src's own `src`
 * pad.
 *
 * ```
 * trace-launch auto-src location=ANY ! perfetto-sink location=out.pftrace
 * ```
 */
struct _TraceAutoSrc
{
  TraceElement parent_instance;

  char *location;
  TracePad *srcpad;
  TracePad *proxy; /* links the inner source's src pad to ours */
  TraceElement *inner;
  char *detected_format;
};

enum
{
  PROP_0,
  PROP_LOCATION,
  PROP_DETECTED_FORMAT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const TraceStaticPadTemplate src_template =
    TRACE_STATIC_PAD_TEMPLATE ("src", TRACE_PAD_SRC, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_FINAL_TYPE (TraceAutoSrc, trace_auto_src, TRACE_TYPE_ELEMENT)

static TraceFlowReturn
proxy_chain (TracePad *pad,
             TraceElement *parent,
             TraceBatch *batch)
{
  TraceAutoSrc *self = trace_pad_get_element_private (pad);

  return trace_pad_push (self->srcpad, batch);
}

static gboolean
proxy_event (TracePad *pad,
             TraceElement *parent,
             TraceStreamEvent *event)
{
  TraceAutoSrc *self = trace_pad_get_element_private (pad);

  return trace_pad_push_event (self->srcpad, event);
}

static gboolean
proxy_ready (TracePad *pad,
             TraceElement *parent)
{
  TraceAutoSrc *self = trace_pad_get_element_private (pad);

  return trace_pad_peer_is_ready (self->srcpad);
}

/* The first bytes, decompressed when the file is gzip (detectors see the
 * format, not the compression). */
static GBytes *
read_head (const char *location,
           GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (location);
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GError) local = NULL;
  guint8 *buf = g_malloc (SNIFF_SIZE);
  gsize got = 0;

  in = G_INPUT_STREAM (g_file_read (file, NULL, &local));
  if (in == NULL)
    {
      g_autofree char *quoted = _trace_quote_value (location);
      g_autofree char *reason = _trace_cut_middle (local->message, 2 * TRACE_QUOTED_VALUE_MAX);

      g_free (buf);
      g_set_error (error, TRACE_RESOURCE_ERROR,
                   g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ? TRACE_RESOURCE_ERROR_NOT_FOUND
                                                                             : TRACE_RESOURCE_ERROR_OPEN_READ,
                   "could not open %s for reading: %s", quoted, reason);
      return NULL;
    }
  g_input_stream_read_all (in, buf, 2, &got, NULL, NULL);
  if (got == 2 && buf[0] == 0x1f && buf[1] == 0x8b)
    {
      g_autoptr (GZlibDecompressor) dec = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      g_seekable_seek (G_SEEKABLE (in), 0, G_SEEK_SET, NULL, NULL);
      GInputStream *conv = g_converter_input_stream_new (in, G_CONVERTER (dec));
      g_object_unref (in);
      in = conv;
      got = 0;
    }
  /* A truncated gzip still has a readable head: keep what was read. */
  g_input_stream_read_all (in, buf + got, SNIFF_SIZE - got, &got, NULL, NULL);
  return g_bytes_new_take (buf, got);
}

static gboolean
create_inner (TraceAutoSrc *self,
              GError **error)
{
  g_autoptr (GBytes) head = NULL;
  const char *format = NULL, *factory;
  gsize size;
  const guint8 *data;

  if (self->location == NULL)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "no file to read: set the \"location\" property");
      return FALSE;
    }
  /* The start is read here and again by the element it becomes: a pipe
   * cannot be read twice. */
  if (g_str_equal (self->location, "-"))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "auto-src cannot read standard input (it reads the start of a file twice): "
                   "name the source instead (ftrace-src, json-src, perfetto-src, arkts-src location=-)");
      return FALSE;
    }
  if ((head = read_head (self->location, error)) == NULL)
    return FALSE;
  data = g_bytes_get_data (head, &size);
  factory = trace_type_find_best (data, size, &format, NULL);
  if (factory == NULL || trace_element_factory_find (factory) == NULL)
    {
      g_autofree char *shown = _trace_cut_middle (self->location, 2 * TRACE_QUOTED_VALUE_MAX);

      g_set_error (error, TRACE_STREAM_ERROR, size == 0 ? TRACE_STREAM_ERROR_EMPTY : TRACE_STREAM_ERROR_WRONG_TYPE,
                   "%s: %s", shown,
                   size == 0 ? "the file is empty" : "no plugin recognises this format (trace-inspect lists the detectors)");
      return FALSE;
    }
  self->inner = g_object_ref_sink (trace_element_factory_make (factory, NULL));
  g_object_set (self->inner, "location", self->location, NULL);
  g_free (self->detected_format);
  self->detected_format = g_strdup (format);
  _trace_element_set_parent (self->inner, TRACE_ELEMENT (self));
  return trace_pad_link (trace_element_get_static_pad (self->inner, "src"), self->proxy, error);
}

static void
drop_inner (TraceAutoSrc *self)
{
  if (self->inner == NULL)
    return;
  trace_element_set_state (self->inner, TRACE_STATE_NULL);
  trace_pad_unlink (trace_element_get_static_pad (self->inner, "src"), self->proxy);
  _trace_element_set_parent (self->inner, NULL);
  g_clear_object (&self->inner);
}

static TraceStateChangeReturn
trace_auto_src_change_state (TraceElement *element,
                             TraceStateChange transition)
{
  TraceAutoSrc *self = TRACE_AUTO_SRC (element);
  TraceState next = TRACE_STATE_TRANSITION_NEXT (transition);
  g_autoptr (GError) error = NULL;

  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY && !create_inner (self, &error))
    {
      trace_element_post_error_literal (element, error, NULL);
      drop_inner (self);
      return TRACE_STATE_CHANGE_FAILURE;
    }
  if (self->inner && trace_element_set_state (self->inner, next) == TRACE_STATE_CHANGE_FAILURE)
    return TRACE_STATE_CHANGE_FAILURE;
  if (transition == TRACE_STATE_CHANGE_READY_TO_NULL)
    drop_inner (self);
  return TRACE_ELEMENT_CLASS (trace_auto_src_parent_class)->change_state (element, transition);
}

static void
trace_auto_src_send_eos (TraceElement *element)
{
  TraceAutoSrc *self = TRACE_AUTO_SRC (element);

  if (self->inner)
    trace_element_send_eos (self->inner);
}

static void
trace_auto_src_collect_stats (TraceElement *element,
                              GVariantDict *stats)
{
  TraceAutoSrc *self = TRACE_AUTO_SRC (element);

  /* The inner source's counters are auto-src's own. */
  if (self->inner)
    TRACE_ELEMENT_GET_CLASS (self->inner)->collect_stats (self->inner, stats);
  if (self->detected_format)
    g_variant_dict_insert (stats, "detected-format", "s", self->detected_format);
}

static void
trace_auto_src_set_property (GObject *object,
                             guint prop_id,
                             const GValue *value,
                             GParamSpec *pspec)
{
  TraceAutoSrc *self = TRACE_AUTO_SRC (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_auto_src_get_property (GObject *object,
                             guint prop_id,
                             GValue *value,
                             GParamSpec *pspec)
{
  TraceAutoSrc *self = TRACE_AUTO_SRC (object);

  switch (prop_id)
    {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_DETECTED_FORMAT:
      g_value_set_string (value, self->detected_format);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_auto_src_dispose (GObject *object)
{
  drop_inner (TRACE_AUTO_SRC (object));
  G_OBJECT_CLASS (trace_auto_src_parent_class)->dispose (object);
}

static void
trace_auto_src_finalize (GObject *object)
{
  TraceAutoSrc *self = TRACE_AUTO_SRC (object);

  g_clear_object (&self->proxy);
  g_free (self->location);
  g_free (self->detected_format);
  G_OBJECT_CLASS (trace_auto_src_parent_class)->finalize (object);
}

static void
trace_auto_src_class_init (TraceAutoSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  object_class->set_property = trace_auto_src_set_property;
  object_class->get_property = trace_auto_src_get_property;
  object_class->dispose = trace_auto_src_dispose;
  object_class->finalize = trace_auto_src_finalize;
  element_class->change_state = trace_auto_src_change_state;
  element_class->send_eos = trace_auto_src_send_eos;
  element_class->collect_stats = trace_auto_src_collect_stats;

  properties[PROP_LOCATION] =
      g_param_spec_string ("location", "Location", "The file to read, in any format a plugin recognises",
                           DEFAULT_LOCATION, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_DETECTED_FORMAT] =
      g_param_spec_string ("detected-format", "Detected format", "The format found in the file (once READY)",
                           NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_add_static_pad_template (element_class, &src_template);
  trace_element_class_set_metadata (element_class, "Automatic source", "Source/Trace",
                                    "Detects the format of a file and reads it with the right source", "tracepipe");
}

static void
trace_auto_src_init (TraceAutoSrc *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);

  self->location = g_strdup (DEFAULT_LOCATION);
  self->srcpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "src"), "src");
  trace_element_add_pad (TRACE_ELEMENT (self), self->srcpad);
  self->proxy = trace_pad_new ("proxy", TRACE_PAD_SINK, TRACE_MEDIA_TYPE_EVENTS);
  trace_pad_set_element_private (self->proxy, self);
  trace_pad_set_chain_function (self->proxy, proxy_chain);
  trace_pad_set_event_function (self->proxy, proxy_event);
  trace_pad_set_ready_function (self->proxy, proxy_ready);
}
