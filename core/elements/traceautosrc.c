/* tracepipe - auto-src: detects the format of a file and reads it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"
#include "tracecoreelements.h"

#define DEFAULT_LOCATION NULL

/**
 * TraceAutoSrc:
 *
 * Looks at the start of `location` with the detectors that the plugins
 * register (trace_type_find_register(), content sniffing as GStreamer's
 * typefind does), makes the source element that reads that format and
 * runs it inside itself, so its events leave through auto-src's own `src`
 * pad.
 *
 * Detection reads the first 64 KiB; only when a detector asks to see more
 * (%TRACE_TYPE_FIND_MORE) does it read further, doubling, up to that
 * detector's look-ahead (trace_type_find_register_full()). When nothing
 * recognises the input the error names the sources that could read it.
 *
 * Without a location, or with `-`, it reads standard input. An input
 * that cannot be read twice (standard input, a FIFO, a device) is opened
 * once: the bytes detection read are handed to the source it makes,
 * replayed before the rest, and a FIFO with no writer yet, or a pipe
 * with nothing in it, is waited for in the main loop, so Ctrl-C stops it.
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
  GCancellable *cancel; /* ends detection's wait on an idle pipe: send_eos, stop */
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

/* What detection has read of the input: the first bytes, decompressed
 * when the file is gzip (detectors see the format, not the compression),
 * and the stream the rest comes from. */
typedef struct
{
  GInputStream *in;
  GByteArray *bytes;
  gboolean ended;
  GInputStream *rewind; /* an input read once (a pipe): detection's bytes kept for the source */
  guint64 size;         /* of a pipe's input when it is known (standard input from a file) */
} DetectHead;

static void
detect_head_clear (DetectHead *head)
{
  /* a converter over the rewind stream must not close it: the source
   * reads on from it */
  if (head->in != NULL && head->in != head->rewind && G_IS_FILTER_INPUT_STREAM (head->in))
    g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (head->in), FALSE);
  g_clear_object (&head->in);
  g_clear_object (&head->rewind);
  g_clear_pointer (&head->bytes, g_byte_array_unref);
}

/* The input, opened once. A file that can be opened again is opened
 * here for detection only; a pipe is opened as its source would open it
 * and read through a rewind stream, so that its start can be given again. */
static GInputStream *
open_input (TraceAutoSrc *self,
            DetectHead *head,
            GError **error)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) local = NULL;
  GInputStream *in;

  if (_trace_location_is_stream (self->location))
    {
      in = _trace_file_src_open_location (self->location, self->cancel,
                                          trace_element_get_main_context (TRACE_ELEMENT (self)), &head->size, error);
      if (in == NULL)
        return NULL;
      head->rewind = _trace_rewind_stream_new (in);
      return g_object_ref (head->rewind);
    }
  file = _trace_location_to_file (self->location);
  in = G_INPUT_STREAM (g_file_read (file, NULL, &local));
  if (in == NULL)
    {
      g_autofree char *quoted = _trace_quote_value (self->location);
      g_autofree char *reason = _trace_cut_middle (local->message, 2 * TRACE_QUOTED_VALUE_MAX);

      g_set_error (error, TRACE_RESOURCE_ERROR,
                   g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ? TRACE_RESOURCE_ERROR_NOT_FOUND
                                                                             : TRACE_RESOURCE_ERROR_OPEN_READ,
                   "could not open %s for reading: %s", quoted, reason);
    }
  return in;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DetectHead, detect_head_clear)

static gboolean
detect_head_open (TraceAutoSrc *self,
                  DetectHead *head,
                  GError **error)
{
  guint8 magic[2];
  gsize got = 0;

  head->in = open_input (self, head, error);
  if (head->in == NULL)
    return FALSE;
  head->bytes = g_byte_array_new ();
  g_input_stream_read_all (head->in, magic, 2, &got, NULL, NULL);
  if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
    {
      /* every member, as the sources read them: a first member may be
       * empty (concatenated gzip files, a writer's empty flush) */
      g_autoptr (TraceGzipDecoder) dec = _trace_gzip_decoder_new (NULL, NULL);
      GInputStream *conv;

      if (head->rewind != NULL)
        _trace_rewind_stream_rewind (head->rewind, TRUE);
      else
        g_seekable_seek (G_SEEKABLE (head->in), 0, G_SEEK_SET, NULL, NULL);
      conv = g_converter_input_stream_new (head->in, G_CONVERTER (dec));
      g_object_unref (head->in);
      head->in = conv;
    }
  else
    g_byte_array_append (head->bytes, magic, got);
  return TRUE;
}

/* Reads until the head holds @size bytes or the input ends. A truncated
 * gzip still has a readable head: what was read is kept. */
static void
detect_head_fill (DetectHead *head,
                  gsize size)
{
  gsize had = head->bytes->len, got = 0;

  if (head->ended || size <= had)
    return;
  g_byte_array_set_size (head->bytes, size);
  g_input_stream_read_all (head->in, head->bytes->data + had, size - had, &got, NULL, NULL);
  g_byte_array_set_size (head->bytes, had + got);
  head->ended = had + got < size;
}

/* Asks the detectors about the first 64 KiB, and again about twice as
 * much for as long as one asks to see more, up to its look-ahead. */
static const char *
detect_format (DetectHead *head,
               const char **format)
{
  gsize want = TRACE_TYPE_FIND_LOOK_AHEAD;
  const char *factory;

  for (;;)
    {
      detect_head_fill (head, want);
      factory = _trace_type_find_head (head->bytes->data, head->bytes->len, head->ended, format, &want);
      if (want <= head->bytes->len)
        return factory;
      want = MIN (want, 2 * head->bytes->len);
    }
}

static void
set_unrecognised_error (TraceAutoSrc *self,
                        const DetectHead *head,
                        GError **error)
{
  g_autofree char *shown = g_str_equal (self->location, "-")
                               ? g_strdup ("<stdin>")
                               : _trace_cut_middle (self->location, 2 * TRACE_QUOTED_VALUE_MAX);
  g_autofree char *sources = _trace_type_find_list_elements ();
  g_autofree char *looked = NULL;

  if (head->bytes->len == 0 && g_cancellable_is_cancelled (self->cancel))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_READ, "%s: stopped before any data came", shown);
      return;
    }
  if (head->bytes->len == 0)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY, "%s: the file is empty", shown);
      return;
    }
  /* A detector looked further than the first 64 KiB and still found no
   * sign of its format: say how far, the data may lie beyond. */
  if (!head->ended && head->bytes->len > TRACE_TYPE_FIND_LOOK_AHEAD)
    {
      gsize len = head->bytes->len;

      looked = len % (1024 * 1024) == 0 ? g_strdup_printf (" in its first %" G_GSIZE_FORMAT " MiB", len >> 20)
                                        : g_strdup_printf (" in its first %" G_GSIZE_FORMAT " KiB", len >> 10);
    }
  g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
               "%s: no plugin recognises this format%s; name the source that reads it: %s", shown,
               looked ? looked : "", sources);
}

static gboolean
create_inner (TraceAutoSrc *self,
              GError **error)
{
  g_auto (DetectHead) head = { 0 };
  const char *format = NULL, *factory;

  if (self->location == NULL || *self->location == '\0')
    {
      g_free (self->location);
      self->location = g_strdup ("-");
    }
  if (!detect_head_open (self, &head, error))
    return FALSE;
  factory = detect_format (&head, &format);
  if (factory == NULL || trace_element_factory_find (factory) == NULL)
    {
      set_unrecognised_error (self, &head, error);
      return FALSE;
    }
  self->inner = g_object_ref_sink (trace_element_factory_make (factory, NULL));
  g_object_set (self->inner, "location", self->location, NULL);
  if (head.rewind != NULL && TRACE_IS_FILE_SRC (self->inner))
    {
      _trace_rewind_stream_rewind (head.rewind, FALSE);
      _trace_file_src_take_input (TRACE_FILE_SRC (self->inner), g_object_ref (head.rewind), head.size);
    }
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

  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY)
    g_cancellable_reset (self->cancel);
  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY && !create_inner (self, &error))
    {
      trace_element_post_error_literal (element, error, NULL);
      drop_inner (self);
      return TRACE_STATE_CHANGE_FAILURE;
    }
  if (self->inner && trace_element_set_state (self->inner, next) == TRACE_STATE_CHANGE_FAILURE)
    return TRACE_STATE_CHANGE_FAILURE;
  if (transition == TRACE_STATE_CHANGE_READY_TO_NULL)
    {
      g_cancellable_cancel (self->cancel);
      drop_inner (self);
    }
  return TRACE_ELEMENT_CLASS (trace_auto_src_parent_class)->change_state (element, transition);
}

static void
trace_auto_src_send_eos (TraceElement *element)
{
  TraceAutoSrc *self = TRACE_AUTO_SRC (element);

  g_cancellable_cancel (self->cancel); /* detection waiting on a pipe, or the source reading it */
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
  g_clear_object (&self->cancel);
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
      g_param_spec_string ("location", "Location", "The file to read, in any format a plugin recognises (none or - for standard input)",
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
  self->cancel = g_cancellable_new ();
  self->srcpad = trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "src"), "src");
  trace_element_add_pad (TRACE_ELEMENT (self), self->srcpad);
  self->proxy = trace_pad_new ("proxy", TRACE_PAD_SINK, TRACE_MEDIA_TYPE_EVENTS);
  trace_pad_set_element_private (self->proxy, self);
  trace_pad_set_chain_function (self->proxy, proxy_chain);
  trace_pad_set_event_function (self->proxy, proxy_event);
  trace_pad_set_ready_function (self->proxy, proxy_ready);
}
