/* tracepipe - the element base class
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracepad.h>
#include <trace/tracemessage.h>

G_BEGIN_DECLS

typedef struct _TraceBus TraceBus;

/**
 * TraceState:
 * @TRACE_STATE_NULL: created; nothing opened
 * @TRACE_STATE_READY: properties checked and resources open
 * @TRACE_STATE_PLAYING: data flows
 *
 * The states of an element. There is no preroll and no clock: a trace
 * converter needs neither.
 */
typedef enum
{
  TRACE_STATE_NULL = 1,
  TRACE_STATE_READY = 2,
  TRACE_STATE_PLAYING = 3,
} TraceState;

/**
 * TraceStateChange:
 * @TRACE_STATE_CHANGE_NULL_TO_READY: validate properties, open resources
 * @TRACE_STATE_CHANGE_READY_TO_PLAYING: start the flow
 * @TRACE_STATE_CHANGE_PLAYING_TO_READY: stop the flow, flush and close
 * @TRACE_STATE_CHANGE_READY_TO_NULL: free what READY held
 *
 * One step between two adjacent states.
 */
typedef enum
{
  TRACE_STATE_CHANGE_NULL_TO_READY = (TRACE_STATE_NULL << 3) | TRACE_STATE_READY,
  TRACE_STATE_CHANGE_READY_TO_PLAYING = (TRACE_STATE_READY << 3) | TRACE_STATE_PLAYING,
  TRACE_STATE_CHANGE_PLAYING_TO_READY = (TRACE_STATE_PLAYING << 3) | TRACE_STATE_READY,
  TRACE_STATE_CHANGE_READY_TO_NULL = (TRACE_STATE_READY << 3) | TRACE_STATE_NULL,
} TraceStateChange;

/**
 * TRACE_STATE_TRANSITION_NEXT:
 * @t: a #TraceStateChange
 *
 * The state a transition goes to.
 */
#define TRACE_STATE_TRANSITION_NEXT(t) ((TraceState) ((t) &0x7))

/**
 * TRACE_STATE_TRANSITION_CURRENT:
 * @t: a #TraceStateChange
 *
 * The state a transition starts from.
 */
#define TRACE_STATE_TRANSITION_CURRENT(t) ((TraceState) ((t) >> 3))

/**
 * TraceStateChangeReturn:
 * @TRACE_STATE_CHANGE_FAILURE: the element could not change state; it
 *   posted an ERROR saying why
 * @TRACE_STATE_CHANGE_SUCCESS: done
 *
 * The result of a state change.
 */
typedef enum
{
  TRACE_STATE_CHANGE_FAILURE = 0,
  TRACE_STATE_CHANGE_SUCCESS = 1,
} TraceStateChangeReturn;

TRACE_AVAILABLE_IN_ALL
const char *trace_state_to_string (TraceState state);

/**
 * TRACE_PARAM_MUTABLE_READY:
 *
 * A #GParamSpec flag: the property may still change in READY, until the
 * element plays. Without this flag or %TRACE_PARAM_MUTABLE_PLAYING a
 * property is meant to be set before the element leaves NULL.
 */
#define TRACE_PARAM_MUTABLE_READY (1 << (G_PARAM_USER_SHIFT + 0))

/**
 * TRACE_PARAM_MUTABLE_PLAYING:
 *
 * A #GParamSpec flag: the property may change while the element plays.
 */
#define TRACE_PARAM_MUTABLE_PLAYING (1 << (G_PARAM_USER_SHIFT + 1))

#define TRACE_TYPE_ELEMENT (trace_element_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceElement, trace_element, TRACE, ELEMENT, GInitiallyUnowned)

/**
 * TraceElementClass:
 * @parent_class: the parent class
 * @change_state: performs one state transition; chain up to the parent
 *   class's implementation (on the way up before your own work, on the way
 *   down after it, as GStreamer does)
 * @request_new_pad: makes a pad from a REQUEST template
 * @release_pad: undoes request_new_pad
 * @send_eos: asked to end the stream early (first Ctrl-C): a source stops
 *   reading and sends EOS; the default does nothing
 * @collect_stats: adds the element's own counters to the STATS message
 *   (the default adds events and batches in and out of every pad)
 * @handle_message: a bin's hook for messages posted by its children
 *
 * The class of all elements.
 */
struct _TraceElementClass
{
  GInitiallyUnownedClass parent_class;

  TraceStateChangeReturn (*change_state) (TraceElement *element,
                                          TraceStateChange transition);
  TracePad *(*request_new_pad) (TraceElement *element,
                                TracePadTemplate *templ,
                                const char *name);
  void (*release_pad) (TraceElement *element,
                       TracePad *pad);
  void (*send_eos) (TraceElement *element);
  void (*collect_stats) (TraceElement *element,
                         GVariantDict *stats);
  void (*handle_message) (TraceElement *element,
                          TraceMessage *message);

  /*< private >*/
  gpointer _reserved[8];
};

/* class setup */
TRACE_AVAILABLE_IN_ALL
void trace_element_class_set_metadata (TraceElementClass *klass,
                                       const char *long_name,
                                       const char *classification,
                                       const char *description,
                                       const char *author);
TRACE_AVAILABLE_IN_ALL
const char *trace_element_class_get_metadata (TraceElementClass *klass,
                                              const char *key);
TRACE_AVAILABLE_IN_ALL
void trace_element_class_add_pad_template (TraceElementClass *klass,
                                           TracePadTemplate *templ);
TRACE_AVAILABLE_IN_ALL
void trace_element_class_add_static_pad_template (TraceElementClass *klass,
                                                  const TraceStaticPadTemplate *templ);
TRACE_AVAILABLE_IN_ALL
void trace_element_class_add_static_pad_template_with_type (TraceElementClass *klass,
                                                            const TraceStaticPadTemplate *templ,
                                                            GType pad_type);
TRACE_AVAILABLE_IN_ALL
TracePadTemplate *trace_element_class_get_pad_template (TraceElementClass *klass,
                                                        const char *name);
TRACE_AVAILABLE_IN_ALL
GList *trace_element_class_get_pad_template_list (TraceElementClass *klass);

/* identity */
TRACE_AVAILABLE_IN_ALL
const char *trace_element_get_name (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
void trace_element_set_name (TraceElement *element,
                             const char *name);
TRACE_AVAILABLE_IN_ALL
TraceElement *trace_element_get_parent (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
char *trace_element_get_path_string (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
const char *trace_element_get_factory_name (TraceElement *element);

/* pads */
TRACE_AVAILABLE_IN_ALL
gboolean trace_element_add_pad (TraceElement *element,
                                TracePad *pad);
TRACE_AVAILABLE_IN_ALL
gboolean trace_element_remove_pad (TraceElement *element,
                                   TracePad *pad);
TRACE_AVAILABLE_IN_ALL
TracePad *trace_element_get_static_pad (TraceElement *element,
                                        const char *name);
TRACE_AVAILABLE_IN_ALL
TracePad *trace_element_request_pad (TraceElement *element,
                                     const char *name,
                                     GError **error);
TRACE_AVAILABLE_IN_ALL
void trace_element_release_request_pad (TraceElement *element,
                                        TracePad *pad);
TRACE_AVAILABLE_IN_ALL
const GList *trace_element_get_pads (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
guint trace_element_get_n_sink_pads (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
guint trace_element_get_n_src_pads (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
TracePad *trace_element_get_compatible_pad (TraceElement *element,
                                            TracePad *pad,
                                            GError **error);

/* linking */
TRACE_AVAILABLE_IN_ALL
gboolean trace_element_link (TraceElement *src,
                             TraceElement *dest,
                             GError **error);
TRACE_AVAILABLE_IN_ALL
gboolean trace_element_link_many (GError **error,
                                  TraceElement *first,
                                  TraceElement *second,
                                  ...) G_GNUC_NULL_TERMINATED;
TRACE_AVAILABLE_IN_ALL
gboolean trace_element_link_pads (TraceElement *src,
                                  const char *srcpadname,
                                  TraceElement *dest,
                                  const char *destpadname,
                                  GError **error);

/* states */
TRACE_AVAILABLE_IN_ALL
TraceStateChangeReturn trace_element_set_state (TraceElement *element,
                                                TraceState state);
TRACE_AVAILABLE_IN_ALL
TraceState trace_element_get_state (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
void trace_element_send_eos (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
gboolean trace_element_may_set_property (TraceElement *element,
                                         GParamSpec *pspec);

/* context the element runs in */
TRACE_AVAILABLE_IN_ALL
TraceStringPool *trace_element_get_string_pool (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
GMainContext *trace_element_get_main_context (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
TraceBus *trace_element_get_bus (TraceElement *element);

/* messages */
TRACE_AVAILABLE_IN_ALL
void trace_element_post_message (TraceElement *element,
                                 TraceMessage *message);
TRACE_AVAILABLE_IN_ALL
void trace_element_post_error (TraceElement *element,
                               GQuark domain,
                               gint code,
                               const char *location,
                               const char *format,
                               ...) G_GNUC_PRINTF (5, 6);
TRACE_AVAILABLE_IN_ALL
void trace_element_post_error_literal (TraceElement *element,
                                       const GError *error,
                                       const char *location);
TRACE_AVAILABLE_IN_ALL
void trace_element_post_warning (TraceElement *element,
                                 const char *location,
                                 const char *format,
                                 ...) G_GNUC_PRINTF (3, 4);
TRACE_AVAILABLE_IN_ALL
void trace_element_post_info (TraceElement *element,
                              const char *format,
                              ...) G_GNUC_PRINTF (2, 3);
TRACE_AVAILABLE_IN_ALL
GVariant *trace_element_get_stats (TraceElement *element);
TRACE_AVAILABLE_IN_ALL
void trace_element_post_stats (TraceElement *element);

G_END_DECLS
