/* tracepipe - pads and pad templates
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracebatch.h>
#include <trace/tracestreamevent.h>

G_BEGIN_DECLS

typedef struct _TraceElement TraceElement;

/**
 * TRACE_MEDIA_TYPE_EVENTS:
 *
 * The media type of the common event stream.
 */
#define TRACE_MEDIA_TYPE_EVENTS "trace/events"

/**
 * TRACE_MEDIA_TYPE_ANY:
 *
 * A media type that links with every other.
 */
#define TRACE_MEDIA_TYPE_ANY "ANY"

/**
 * TracePadDirection:
 * @TRACE_PAD_UNKNOWN: not set
 * @TRACE_PAD_SRC: data leaves the element through it
 * @TRACE_PAD_SINK: data enters the element through it
 *
 * The direction of a pad.
 */
typedef enum
{
  TRACE_PAD_UNKNOWN,
  TRACE_PAD_SRC,
  TRACE_PAD_SINK,
} TracePadDirection;

/**
 * TracePadPresence:
 * @TRACE_PAD_ALWAYS: the element always has this pad
 * @TRACE_PAD_REQUEST: the element makes one on request (`sink_%u`)
 *
 * When pads of a template exist.
 */
typedef enum
{
  TRACE_PAD_ALWAYS,
  TRACE_PAD_REQUEST,
} TracePadPresence;

/**
 * TraceFlowReturn:
 * @TRACE_FLOW_OK: the data was accepted
 * @TRACE_FLOW_NOT_LINKED: the pad has no peer
 * @TRACE_FLOW_EOS: downstream wants no more data
 * @TRACE_FLOW_ERROR: a fatal error happened; an ERROR message is on the bus
 * @TRACE_FLOW_CUSTOM_SUCCESS: elements use it, and values above it, for
 *   successes of their own; a pad never returns it (see
 *   %TRACE_BASE_TRANSFORM_FLOW_DROPPED)
 *
 * What a push returns, travelling back upstream.
 */
typedef enum
{
  TRACE_FLOW_OK = 0,
  TRACE_FLOW_NOT_LINKED = -1,
  TRACE_FLOW_EOS = -3,
  TRACE_FLOW_ERROR = -5,
  TRACE_FLOW_CUSTOM_SUCCESS = 100,
} TraceFlowReturn;

TRACE_AVAILABLE_IN_ALL
const char *trace_flow_return_to_string (TraceFlowReturn ret);

/**
 * TraceStaticPadTemplate:
 * @name_template: a name (`src`) or pattern (`sink_%u`)
 * @direction: the direction
 * @presence: always or on request
 * @media_type: what travels through the pads
 *
 * A pad template in static storage, for an element's class_init.
 */
typedef struct
{
  const char *name_template;
  TracePadDirection direction;
  TracePadPresence presence;
  const char *media_type;
} TraceStaticPadTemplate;

/**
 * TRACE_STATIC_PAD_TEMPLATE:
 * @name: the name template
 * @dir: a #TracePadDirection
 * @pres: a #TracePadPresence
 * @type: the media type
 *
 * Initialises a #TraceStaticPadTemplate.
 */
#define TRACE_STATIC_PAD_TEMPLATE(name, dir, pres, type) \
  {                                                      \
    name, dir, pres, type                                \
  }

#define TRACE_TYPE_PAD_TEMPLATE (trace_pad_template_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TracePadTemplate, trace_pad_template, TRACE, PAD_TEMPLATE, GObject)

TRACE_AVAILABLE_IN_ALL
TracePadTemplate *trace_pad_template_new (const char *name_template,
                                          TracePadDirection direction,
                                          TracePadPresence presence,
                                          const char *media_type,
                                          GType pad_type);
TRACE_AVAILABLE_IN_ALL
const char *trace_pad_template_get_name_template (TracePadTemplate *templ);
TRACE_AVAILABLE_IN_ALL
TracePadDirection trace_pad_template_get_direction (TracePadTemplate *templ);
TRACE_AVAILABLE_IN_ALL
TracePadPresence trace_pad_template_get_presence (TracePadTemplate *templ);
TRACE_AVAILABLE_IN_ALL
const char *trace_pad_template_get_media_type (TracePadTemplate *templ);
TRACE_AVAILABLE_IN_ALL
GType trace_pad_template_get_pad_type (TracePadTemplate *templ);

#define TRACE_TYPE_PAD (trace_pad_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TracePad, trace_pad, TRACE, PAD, GObject)

/**
 * TracePadChainFunction:
 * @pad: the sink pad
 * @parent: (nullable): the element that owns @pad
 * @batch: (transfer full): the data
 *
 * Receives a batch pushed by the peer.
 *
 * Returns: how it went
 */
typedef TraceFlowReturn (*TracePadChainFunction) (TracePad *pad,
                                                  TraceElement *parent,
                                                  TraceBatch *batch);

/**
 * TracePadEventFunction:
 * @pad: the pad receiving the event
 * @parent: (nullable): the element that owns @pad
 * @event: (transfer full): the event
 *
 * Receives a control event.
 *
 * Returns: whether the event was handled
 */
typedef gboolean (*TracePadEventFunction) (TracePad *pad,
                                           TraceElement *parent,
                                           TraceStreamEvent *event);

/**
 * TracePadReadyFunction:
 * @pad: a sink pad
 * @parent: (nullable): the element that owns @pad
 *
 * Says whether the pad would accept a batch now without growing a queue
 * past its bound. Sources ask it (through their src pad's peer) before
 * producing, which is how back-pressure works on one thread.
 *
 * Returns: whether to push now
 */
typedef gboolean (*TracePadReadyFunction) (TracePad *pad,
                                           TraceElement *parent);

/**
 * TracePadClass:
 * @parent_class: the parent class
 *
 * The class of #TracePad; subclasses add per-pad properties (request pads
 * of an aggregator, for example).
 */
struct _TracePadClass
{
  GObjectClass parent_class;

  /*< private >*/
  gpointer _reserved[8];
};

TRACE_AVAILABLE_IN_ALL
TracePad *trace_pad_new (const char *name,
                         TracePadDirection direction,
                         const char *media_type);
TRACE_AVAILABLE_IN_ALL
TracePad *trace_pad_new_from_template (TracePadTemplate *templ,
                                       const char *name);
TRACE_AVAILABLE_IN_ALL
const char *trace_pad_get_name (TracePad *pad);
TRACE_AVAILABLE_IN_ALL
TracePadDirection trace_pad_get_direction (TracePad *pad);
TRACE_AVAILABLE_IN_ALL
const char *trace_pad_get_media_type (TracePad *pad);
TRACE_AVAILABLE_IN_ALL
TracePadTemplate *trace_pad_get_template (TracePad *pad);
TRACE_AVAILABLE_IN_ALL
TraceElement *trace_pad_get_parent_element (TracePad *pad);
TRACE_AVAILABLE_IN_ALL
TracePad *trace_pad_get_peer (TracePad *pad);
TRACE_AVAILABLE_IN_ALL
gboolean trace_pad_is_linked (TracePad *pad);
TRACE_AVAILABLE_IN_ALL
char *trace_pad_get_path_string (TracePad *pad);

TRACE_AVAILABLE_IN_ALL
void trace_pad_set_chain_function (TracePad *pad,
                                   TracePadChainFunction chain);
TRACE_AVAILABLE_IN_ALL
void trace_pad_set_event_function (TracePad *pad,
                                   TracePadEventFunction event);
TRACE_AVAILABLE_IN_ALL
void trace_pad_set_ready_function (TracePad *pad,
                                   TracePadReadyFunction ready);
TRACE_AVAILABLE_IN_ALL
void trace_pad_set_element_private (TracePad *pad,
                                    gpointer data);
TRACE_AVAILABLE_IN_ALL
gpointer trace_pad_get_element_private (TracePad *pad);

TRACE_AVAILABLE_IN_ALL
gboolean trace_pad_can_link (TracePad *srcpad,
                             TracePad *sinkpad,
                             GError **error);
TRACE_AVAILABLE_IN_ALL
gboolean trace_pad_link (TracePad *srcpad,
                         TracePad *sinkpad,
                         GError **error);
TRACE_AVAILABLE_IN_ALL
void trace_pad_unlink (TracePad *srcpad,
                       TracePad *sinkpad);

TRACE_AVAILABLE_IN_ALL
TraceFlowReturn trace_pad_push (TracePad *pad,
                                TraceBatch *batch);
TRACE_AVAILABLE_IN_ALL
gboolean trace_pad_push_event (TracePad *pad,
                               TraceStreamEvent *event);
TRACE_AVAILABLE_IN_ALL
gboolean trace_pad_event_default (TracePad *pad,
                                  TraceElement *parent,
                                  TraceStreamEvent *event);
TRACE_AVAILABLE_IN_ALL
gboolean trace_pad_peer_is_ready (TracePad *srcpad);
TRACE_AVAILABLE_IN_ALL
TraceStreamEvent *trace_pad_get_sticky_stream_start (TracePad *pad);
TRACE_AVAILABLE_IN_ALL
gboolean trace_pad_is_eos (TracePad *pad);

/**
 * TracePadStats:
 * @batches: batches that passed through the pad
 * @events: events that passed through the pad
 *
 * What went through a pad, for STATS messages and dot graphs.
 */
typedef struct
{
  guint64 batches;
  guint64 events;
} TracePadStats;

TRACE_AVAILABLE_IN_ALL
void trace_pad_get_stats (TracePad *pad,
                          TracePadStats *stats);

G_END_DECLS
