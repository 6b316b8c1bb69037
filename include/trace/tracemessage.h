/* tracepipe - bus messages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <glib-object.h>
#include <trace/trace-export.h>

G_BEGIN_DECLS

/**
 * TraceMessageType:
 * @TRACE_MESSAGE_ERROR: a fatal error; the pipeline should stop
 * @TRACE_MESSAGE_WARNING: something went wrong but the output is usable
 * @TRACE_MESSAGE_INFO: for the user's information
 * @TRACE_MESSAGE_EOS: every sink got EOS (posted by the pipeline) or one
 *   sink did (posted by the sink, consumed by its bin)
 * @TRACE_MESSAGE_STATE_CHANGED: an element changed state
 * @TRACE_MESSAGE_PROGRESS: a source read `done` of `total` bytes
 * @TRACE_MESSAGE_STATS: an element's counters, in `details`
 * @TRACE_MESSAGE_ELEMENT: an element-specific message, in `details`
 * @TRACE_MESSAGE_ANY: every type, for filters
 *
 * The kinds of bus messages; flags so a filter can name several.
 */
typedef enum
{
  TRACE_MESSAGE_ERROR = 1 << 0,
  TRACE_MESSAGE_WARNING = 1 << 1,
  TRACE_MESSAGE_INFO = 1 << 2,
  TRACE_MESSAGE_EOS = 1 << 3,
  TRACE_MESSAGE_STATE_CHANGED = 1 << 4,
  TRACE_MESSAGE_PROGRESS = 1 << 5,
  TRACE_MESSAGE_STATS = 1 << 6,
  TRACE_MESSAGE_ELEMENT = 1 << 7,
  TRACE_MESSAGE_ANY = 0xff,
} TraceMessageType;

/**
 * TraceMessage:
 * @type: the #TraceMessageType
 * @src: (nullable): the element that posted it
 * @src_path: (nullable): its path, such as `/pipeline0/ftrace-src0`
 * @error: (nullable): for ERROR, WARNING and INFO
 * @location: (nullable): for ERROR and WARNING, where in the input
 *   (`trace.txt:1234`, `trace.json@5678`)
 * @debug: (nullable): details for developers
 * @old_state: for STATE_CHANGED
 * @new_state: for STATE_CHANGED
 * @done: for PROGRESS, bytes read
 * @total: for PROGRESS, bytes in all (0 when unknown)
 * @details: (nullable): for STATS and ELEMENT, an `a{sv}` dictionary
 *
 * A ref-counted message; its fields are read-only once posted.
 */
typedef struct
{
  TraceMessageType type;
  GObject *src;
  char *src_path;
  GError *error;
  char *location;
  char *debug;
  gint old_state;
  gint new_state;
  guint64 done;
  guint64 total;
  GVariant *details;

  /*< private >*/
  gint ref_count;
  gpointer _reserved[4];
} TraceMessage;

#define TRACE_TYPE_MESSAGE (trace_message_get_type ())
TRACE_AVAILABLE_IN_ALL
GType trace_message_get_type (void) G_GNUC_CONST;

TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_new (TraceMessageType type,
                                 GObject *src);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_new_error (GObject *src,
                                       const GError *error,
                                       const char *location,
                                       const char *debug);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_new_warning (GObject *src,
                                         const GError *error,
                                         const char *location,
                                         const char *debug);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_new_info (GObject *src,
                                      const char *text);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_new_eos (GObject *src);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_new_state_changed (GObject *src,
                                               gint old_state,
                                               gint new_state);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_new_progress (GObject *src,
                                          guint64 done,
                                          guint64 total);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_new_stats (GObject *src,
                                       GVariant *details);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_new_element (GObject *src,
                                         GVariant *details);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_message_ref (TraceMessage *message);
TRACE_AVAILABLE_IN_ALL
void trace_message_unref (TraceMessage *message);
TRACE_AVAILABLE_IN_ALL
const char *trace_message_type_to_string (TraceMessageType type);
TRACE_AVAILABLE_IN_ALL
char *trace_message_to_string (TraceMessage *message);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceMessage, trace_message_unref)

G_END_DECLS
