/* tracepipe - pads and pad templates
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

/* ---- pad templates ---- */

/**
 * TracePadTemplate:
 *
 * Describes the pads an element class can have: a name or a `%u`
 * pattern, a direction, a presence and a media type.
 */
struct _TracePadTemplate
{
  GObject parent_instance;

  char *name_template;
  TracePadDirection direction;
  TracePadPresence presence;
  char *media_type;
  GType pad_type;
};

G_DEFINE_FINAL_TYPE (TracePadTemplate, trace_pad_template, G_TYPE_OBJECT)

static void
trace_pad_template_finalize (GObject *object)
{
  TracePadTemplate *self = TRACE_PAD_TEMPLATE (object);

  g_free (self->name_template);
  g_free (self->media_type);
  G_OBJECT_CLASS (trace_pad_template_parent_class)->finalize (object);
}

static void
trace_pad_template_class_init (TracePadTemplateClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trace_pad_template_finalize;
}

static void
trace_pad_template_init (TracePadTemplate *self)
{
}

/**
 * trace_pad_template_new:
 * @name_template: a name or `%u` pattern
 * @direction: the direction
 * @presence: always or on request
 * @media_type: what travels through the pads
 * @pad_type: the #GType of the pads to make, a #TracePad subtype
 *
 * Returns: (transfer full): a new template
 */
TracePadTemplate *
trace_pad_template_new (const char *name_template,
                        TracePadDirection direction,
                        TracePadPresence presence,
                        const char *media_type,
                        GType pad_type)
{
  TracePadTemplate *templ;

  g_return_val_if_fail (name_template != NULL, NULL);
  g_return_val_if_fail (g_type_is_a (pad_type, TRACE_TYPE_PAD), NULL);

  templ = g_object_new (TRACE_TYPE_PAD_TEMPLATE, NULL);
  templ->name_template = g_strdup (name_template);
  templ->direction = direction;
  templ->presence = presence;
  templ->media_type = g_strdup (media_type ? media_type : TRACE_MEDIA_TYPE_EVENTS);
  templ->pad_type = pad_type;
  return templ;
}

/**
 * trace_pad_template_get_name_template:
 * @templ: a #TracePadTemplate
 *
 * Returns: the name or pattern
 */
const char *
trace_pad_template_get_name_template (TracePadTemplate *templ)
{
  g_return_val_if_fail (TRACE_IS_PAD_TEMPLATE (templ), NULL);

  return templ->name_template;
}

/**
 * trace_pad_template_get_direction:
 * @templ: a #TracePadTemplate
 *
 * Returns: the direction
 */
TracePadDirection
trace_pad_template_get_direction (TracePadTemplate *templ)
{
  g_return_val_if_fail (TRACE_IS_PAD_TEMPLATE (templ), TRACE_PAD_UNKNOWN);

  return templ->direction;
}

/**
 * trace_pad_template_get_presence:
 * @templ: a #TracePadTemplate
 *
 * Returns: the presence
 */
TracePadPresence
trace_pad_template_get_presence (TracePadTemplate *templ)
{
  g_return_val_if_fail (TRACE_IS_PAD_TEMPLATE (templ), TRACE_PAD_ALWAYS);

  return templ->presence;
}

/**
 * trace_pad_template_get_media_type:
 * @templ: a #TracePadTemplate
 *
 * Returns: the media type
 */
const char *
trace_pad_template_get_media_type (TracePadTemplate *templ)
{
  g_return_val_if_fail (TRACE_IS_PAD_TEMPLATE (templ), NULL);

  return templ->media_type;
}

/**
 * trace_pad_template_get_pad_type:
 * @templ: a #TracePadTemplate
 *
 * Returns: the #GType of its pads
 */
GType
trace_pad_template_get_pad_type (TracePadTemplate *templ)
{
  g_return_val_if_fail (TRACE_IS_PAD_TEMPLATE (templ), G_TYPE_INVALID);

  return templ->pad_type;
}

/* ---- pads ---- */

typedef struct
{
  char *name;
  TracePadDirection direction;
  char *media_type;
  TracePadTemplate *templ;
  TraceElement *parent; /* not owned */
  TracePad *peer;       /* not owned; cleared on unlink */
  TracePadChainFunction chain;
  TracePadEventFunction event;
  TracePadReadyFunction ready;
  gpointer element_private;
  TraceStreamEvent *sticky_start;
  gboolean eos;
  TracePadStats stats;
} TracePadPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (TracePad, trace_pad, G_TYPE_OBJECT)

#define PRIV(pad) ((TracePadPrivate *) trace_pad_get_instance_private (pad))

static void
trace_pad_finalize (GObject *object)
{
  TracePadPrivate *priv = PRIV (TRACE_PAD (object));

  /* A pad that goes while still linked (a test harness freed before the
   * element it fed, which a message still holds) must not stay its
   * peer's peer: unlinking later would write into freed memory. */
  if (priv->peer && PRIV (priv->peer)->peer == TRACE_PAD (object))
    PRIV (priv->peer)->peer = NULL;
  g_free (priv->name);
  g_free (priv->media_type);
  g_clear_object (&priv->templ);
  g_clear_pointer (&priv->sticky_start, trace_stream_event_unref);
  G_OBJECT_CLASS (trace_pad_parent_class)->finalize (object);
}

static void
trace_pad_class_init (TracePadClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trace_pad_finalize;
}

static void
trace_pad_init (TracePad *self)
{
  PRIV (self)->event = trace_pad_event_default;
}

/**
 * trace_pad_new:
 * @name: the pad's name
 * @direction: its direction
 * @media_type: (nullable): what travels through it, `trace/events` if %NULL
 *
 * Makes a pad without a template, as a test harness does.
 *
 * Returns: (transfer full): a new pad
 */
TracePad *
trace_pad_new (const char *name,
               TracePadDirection direction,
               const char *media_type)
{
  TracePad *pad;
  TracePadPrivate *priv;

  g_return_val_if_fail (name != NULL, NULL);

  pad = g_object_new (TRACE_TYPE_PAD, NULL);
  priv = PRIV (pad);
  priv->name = g_strdup (name);
  priv->direction = direction;
  priv->media_type = g_strdup (media_type ? media_type : TRACE_MEDIA_TYPE_EVENTS);
  return pad;
}

/**
 * trace_pad_new_from_template:
 * @templ: a #TracePadTemplate
 * @name: (nullable): the name; the template's name if %NULL
 *
 * Returns: (transfer full): a new pad of the template's pad type
 */
TracePad *
trace_pad_new_from_template (TracePadTemplate *templ,
                             const char *name)
{
  TracePad *pad;
  TracePadPrivate *priv;

  g_return_val_if_fail (TRACE_IS_PAD_TEMPLATE (templ), NULL);

  pad = g_object_new (templ->pad_type, NULL);
  priv = PRIV (pad);
  priv->name = g_strdup (name ? name : templ->name_template);
  priv->direction = templ->direction;
  priv->media_type = g_strdup (templ->media_type);
  priv->templ = g_object_ref (templ);
  return pad;
}

/**
 * trace_pad_get_name:
 * @pad: a #TracePad
 *
 * Returns: the pad's name
 */
const char *
trace_pad_get_name (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), NULL);

  return PRIV (pad)->name;
}

/**
 * trace_pad_get_direction:
 * @pad: a #TracePad
 *
 * Returns: its direction
 */
TracePadDirection
trace_pad_get_direction (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), TRACE_PAD_UNKNOWN);

  return PRIV (pad)->direction;
}

/**
 * trace_pad_get_media_type:
 * @pad: a #TracePad
 *
 * Returns: its media type
 */
const char *
trace_pad_get_media_type (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), NULL);

  return PRIV (pad)->media_type;
}

/**
 * trace_pad_get_template:
 * @pad: a #TracePad
 *
 * Returns: (transfer none) (nullable): the template it was made from
 */
TracePadTemplate *
trace_pad_get_template (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), NULL);

  return PRIV (pad)->templ;
}

/**
 * trace_pad_get_parent_element:
 * @pad: a #TracePad
 *
 * Returns: (transfer none) (nullable): the element that owns the pad
 */
TraceElement *
trace_pad_get_parent_element (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), NULL);

  return PRIV (pad)->parent;
}

void
_trace_pad_set_parent (TracePad *pad,
                       TraceElement *parent)
{
  PRIV (pad)->parent = parent;
}

/**
 * trace_pad_get_peer:
 * @pad: a #TracePad
 *
 * Returns: (transfer none) (nullable): the pad it is linked to
 */
TracePad *
trace_pad_get_peer (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), NULL);

  return PRIV (pad)->peer;
}

/**
 * trace_pad_is_linked:
 * @pad: a #TracePad
 *
 * Returns: whether it has a peer
 */
gboolean
trace_pad_is_linked (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), FALSE);

  return PRIV (pad)->peer != NULL;
}

/**
 * trace_pad_get_path_string:
 * @pad: a #TracePad
 *
 * Returns: (transfer full): `element:pad`, or the pad name alone
 */
char *
trace_pad_get_path_string (TracePad *pad)
{
  TracePadPrivate *priv;

  g_return_val_if_fail (TRACE_IS_PAD (pad), NULL);

  priv = PRIV (pad);
  if (priv->parent)
    return g_strdup_printf ("%s:%s", trace_element_get_name (priv->parent), priv->name);
  return g_strdup (priv->name);
}

/**
 * trace_pad_set_chain_function:
 * @pad: a sink #TracePad
 * @chain: (scope forever): receives the batches
 */
void
trace_pad_set_chain_function (TracePad *pad,
                              TracePadChainFunction chain)
{
  g_return_if_fail (TRACE_IS_PAD (pad));

  PRIV (pad)->chain = chain;
}

/**
 * trace_pad_set_event_function:
 * @pad: a #TracePad
 * @event: (scope forever) (nullable): receives control events;
 *   trace_pad_event_default() by default
 */
void
trace_pad_set_event_function (TracePad *pad,
                              TracePadEventFunction event)
{
  g_return_if_fail (TRACE_IS_PAD (pad));

  PRIV (pad)->event = event ? event : trace_pad_event_default;
}

/**
 * trace_pad_set_ready_function:
 * @pad: a sink #TracePad
 * @ready: (scope forever): says whether the pad takes data now
 */
void
trace_pad_set_ready_function (TracePad *pad,
                              TracePadReadyFunction ready)
{
  g_return_if_fail (TRACE_IS_PAD (pad));

  PRIV (pad)->ready = ready;
}

/**
 * trace_pad_set_element_private:
 * @pad: a #TracePad
 * @data: anything the owning element wants to find from the pad
 */
void
trace_pad_set_element_private (TracePad *pad,
                               gpointer data)
{
  g_return_if_fail (TRACE_IS_PAD (pad));

  PRIV (pad)->element_private = data;
}

/**
 * trace_pad_get_element_private:
 * @pad: a #TracePad
 *
 * Returns: (transfer none): what trace_pad_set_element_private() stored
 */
gpointer
trace_pad_get_element_private (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), NULL);

  return PRIV (pad)->element_private;
}

static gboolean
media_types_compatible (const char *a,
                        const char *b)
{
  if (g_strcmp0 (a, TRACE_MEDIA_TYPE_ANY) == 0 || g_strcmp0 (b, TRACE_MEDIA_TYPE_ANY) == 0)
    return TRUE;
  return g_strcmp0 (a, b) == 0;
}

/**
 * trace_pad_can_link:
 * @srcpad: a source pad
 * @sinkpad: a sink pad
 * @error: where to say why not
 *
 * Returns: whether trace_pad_link() would succeed: the directions and
 *   media types fit, neither pad is linked, and the link would close no
 *   cycle (%TRACE_CORE_ERROR_CYCLE)
 */
gboolean
trace_pad_can_link (TracePad *srcpad,
                    TracePad *sinkpad,
                    GError **error)
{
  TracePadPrivate *src, *sink;
  g_autofree char *src_path = NULL;
  g_autofree char *sink_path = NULL;

  g_return_val_if_fail (TRACE_IS_PAD (srcpad), FALSE);
  g_return_val_if_fail (TRACE_IS_PAD (sinkpad), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  src = PRIV (srcpad);
  sink = PRIV (sinkpad);
  src_path = trace_pad_get_path_string (srcpad);
  sink_path = trace_pad_get_path_string (sinkpad);
  if (src->direction != TRACE_PAD_SRC || sink->direction != TRACE_PAD_SINK)
    {
      g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PAD,
                   "cannot link %s to %s: data flows from a src pad to a sink pad, "
                   "and %s is a %s pad",
                   src_path, sink_path,
                   src->direction != TRACE_PAD_SRC ? src_path : sink_path,
                   src->direction != TRACE_PAD_SRC ? "sink" : "src");
      return FALSE;
    }
  if (src->peer || sink->peer)
    {
      g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PAD,
                   "cannot link %s to %s: %s is already linked",
                   src_path, sink_path, src->peer ? src_path : sink_path);
      return FALSE;
    }
  if (!media_types_compatible (src->media_type, sink->media_type))
    {
      g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_NEGOTIATION,
                   "cannot link %s (%s) to %s (%s): the media types differ",
                   src_path, src->media_type, sink_path, sink->media_type);
      return FALSE;
    }
  /* A loop would make a push, an event or the ready question go round
   * for ever (or overflow the stack): refuse it here, where every link
   * is made, rather than in each place that walks the graph. */
  return _trace_graph_check_link (srcpad, sinkpad, error);
}

/* For the debug log: a pad may not be in an element yet. */
static const char *
pad_owner_name (TracePad *pad)
{
  TraceElement *owner = trace_pad_get_parent_element (pad);

  return owner ? trace_element_get_name (owner) : "(none)";
}

/**
 * trace_pad_link:
 * @srcpad: a source pad
 * @sinkpad: a sink pad
 * @error: where to say why they cannot be linked
 *
 * Links two pads after checking their directions and media types, and
 * that events could not come back to an element they went through: a
 * link that would close a cycle fails with %TRACE_CORE_ERROR_CYCLE,
 * naming the elements of the loop.
 *
 * Returns: %TRUE on success
 */
gboolean
trace_pad_link (TracePad *srcpad,
                TracePad *sinkpad,
                GError **error)
{
  g_return_val_if_fail (TRACE_IS_PAD (srcpad), FALSE);
  g_return_val_if_fail (TRACE_IS_PAD (sinkpad), FALSE);

  if (!trace_pad_can_link (srcpad, sinkpad, error))
    return FALSE;
  PRIV (srcpad)->peer = sinkpad;
  PRIV (sinkpad)->peer = srcpad;
  g_debug ("linked %s:%s to %s:%s", pad_owner_name (srcpad), trace_pad_get_name (srcpad), pad_owner_name (sinkpad),
           trace_pad_get_name (sinkpad));
  return TRUE;
}

/**
 * trace_pad_unlink:
 * @srcpad: a source pad
 * @sinkpad: its peer
 */
void
trace_pad_unlink (TracePad *srcpad,
                  TracePad *sinkpad)
{
  g_return_if_fail (TRACE_IS_PAD (srcpad));
  g_return_if_fail (TRACE_IS_PAD (sinkpad));

  if (PRIV (srcpad)->peer != sinkpad)
    return;
  PRIV (srcpad)->peer = NULL;
  PRIV (sinkpad)->peer = NULL;
}

/**
 * trace_flow_return_to_string:
 * @ret: a #TraceFlowReturn
 *
 * Returns: its name in words (`ok`, `not-linked`, `eos`, `error`)
 */
const char *
trace_flow_return_to_string (TraceFlowReturn ret)
{
  switch (ret)
    {
    case TRACE_FLOW_OK:
      return "ok";
    case TRACE_FLOW_NOT_LINKED:
      return "not-linked";
    case TRACE_FLOW_EOS:
      return "eos";
    case TRACE_FLOW_ERROR:
      return "error";
    case TRACE_FLOW_CUSTOM_SUCCESS:
      return "custom-success";
    }
  return "unknown";
}

/**
 * trace_pad_push:
 * @pad: a linked source pad
 * @batch: (transfer full): the data
 *
 * Hands @batch to the peer's chain function, in the calling thread.
 *
 * Returns: what the peer returned
 */
TraceFlowReturn
trace_pad_push (TracePad *pad,
                TraceBatch *batch)
{
  TracePadPrivate *priv;
  TracePadPrivate *peer;

  /* Once per batch, on the path every batch takes: a NULL check only,
   * not TRACE_IS_PAD (a type lookup for every pad subtype). */
  g_return_val_if_fail (pad != NULL, TRACE_FLOW_ERROR);
  g_return_val_if_fail (batch != NULL, TRACE_FLOW_ERROR);

  priv = PRIV (pad);

  if (G_UNLIKELY (priv->peer == NULL))
    {
      trace_batch_unref (batch);
      return TRACE_FLOW_NOT_LINKED;
    }
  peer = PRIV (priv->peer);
  if (G_UNLIKELY (peer->eos || priv->eos))
    {
      trace_batch_unref (batch);
      return TRACE_FLOW_EOS;
    }
  priv->stats.batches++;
  priv->stats.events += batch->n_events;
  peer->stats.batches++;
  peer->stats.events += batch->n_events;
  if (G_UNLIKELY (peer->chain == NULL))
    {
      trace_batch_unref (batch);
      return TRACE_FLOW_ERROR;
    }
  return peer->chain (priv->peer, peer->parent, batch);
}

static void
pad_store_event (TracePad *pad,
                 TraceStreamEvent *event)
{
  TracePadPrivate *priv = PRIV (pad);

  if (event->type == TRACE_STREAM_EVENT_STREAM_START)
    {
      g_clear_pointer (&priv->sticky_start, trace_stream_event_unref);
      priv->sticky_start = trace_stream_event_ref (event);
    }
  else if (event->type == TRACE_STREAM_EVENT_EOS)
    priv->eos = TRUE;
}

/**
 * trace_pad_push_event:
 * @pad: a source pad
 * @event: (transfer full): the event
 *
 * Sends a control event downstream, in order with the batches. Both pads
 * remember a stream-start (sticky) and an EOS.
 *
 * Returns: whether the peer handled it
 */
gboolean
trace_pad_push_event (TracePad *pad,
                      TraceStreamEvent *event)
{
  TracePadPrivate *priv;
  TracePad *peer;

  g_return_val_if_fail (TRACE_IS_PAD (pad), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  priv = PRIV (pad);
  peer = priv->peer;
  if (priv->eos)
    {
      /* Nothing may follow EOS; a second EOS is harmless. */
      trace_stream_event_unref (event);
      return FALSE;
    }
  pad_store_event (pad, event);
  if (peer == NULL)
    {
      trace_stream_event_unref (event);
      return FALSE;
    }
  pad_store_event (peer, event);
  return PRIV (peer)->event (peer, PRIV (peer)->parent, event);
}

/**
 * trace_pad_event_default:
 * @pad: the pad that received @event
 * @parent: (nullable): its element
 * @event: (transfer full): the event
 *
 * Forwards an event arriving on a sink pad to every src pad of the
 * element; what 1:1 and 1:N elements want.
 *
 * Returns: %TRUE if every push was handled
 */
gboolean
trace_pad_event_default (TracePad *pad,
                         TraceElement *parent,
                         TraceStreamEvent *event)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (TRACE_IS_PAD (pad), FALSE);
  g_return_val_if_fail (parent == NULL || TRACE_IS_ELEMENT (parent), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (parent && PRIV (pad)->direction == TRACE_PAD_SINK)
    {
      for (const GList *l = trace_element_get_pads (parent); l; l = l->next)
        if (trace_pad_get_direction (l->data) == TRACE_PAD_SRC)
          ok &= trace_pad_push_event (l->data, trace_stream_event_ref (event));
    }
  trace_stream_event_unref (event);
  return ok;
}

/**
 * trace_pad_peer_is_ready:
 * @srcpad: a source pad
 *
 * Asks downstream whether a batch pushed now would be taken without
 * growing a queue past its bound. Elements without an opinion ask their
 * own src pads' peers, so the question travels down to the queue or
 * merge that holds data.
 *
 * Returns: whether to push now
 */
gboolean
trace_pad_peer_is_ready (TracePad *srcpad)
{
  TracePad *peer;
  TracePadPrivate *ppriv;

  g_return_val_if_fail (TRACE_IS_PAD (srcpad), FALSE);

  peer = PRIV (srcpad)->peer;
  if (peer == NULL)
    return TRUE;
  ppriv = PRIV (peer);
  if (ppriv->ready)
    return ppriv->ready (peer, ppriv->parent);
  if (ppriv->parent == NULL)
    return TRUE;
  for (const GList *l = trace_element_get_pads (ppriv->parent); l; l = l->next)
    if (trace_pad_get_direction (l->data) == TRACE_PAD_SRC && !trace_pad_peer_is_ready (l->data))
      return FALSE;
  return TRUE;
}

/**
 * trace_pad_get_sticky_stream_start:
 * @pad: a #TracePad
 *
 * Returns: (transfer none) (nullable): the last stream-start seen
 */
TraceStreamEvent *
trace_pad_get_sticky_stream_start (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), NULL);

  return PRIV (pad)->sticky_start;
}

/**
 * trace_pad_is_eos:
 * @pad: a #TracePad
 *
 * Returns: whether EOS went through the pad
 */
gboolean
trace_pad_is_eos (TracePad *pad)
{
  g_return_val_if_fail (TRACE_IS_PAD (pad), FALSE);

  return PRIV (pad)->eos;
}

void
_trace_pad_reset (TracePad *pad)
{
  TracePadPrivate *priv = PRIV (pad);

  priv->eos = FALSE;
  g_clear_pointer (&priv->sticky_start, trace_stream_event_unref);
  memset (&priv->stats, 0, sizeof priv->stats);
}

/**
 * trace_pad_get_stats:
 * @pad: a #TracePad
 * @stats: (out caller-allocates): what went through the pad
 */
void
trace_pad_get_stats (TracePad *pad,
                     TracePadStats *stats)
{
  g_return_if_fail (TRACE_IS_PAD (pad));
  g_return_if_fail (stats != NULL);

  *stats = PRIV (pad)->stats;
}
