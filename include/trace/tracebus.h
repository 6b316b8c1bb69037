/* tracepipe - the bus: messages from elements to the application
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracemessage.h>

G_BEGIN_DECLS

#define TRACE_TYPE_BUS (trace_bus_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TraceBus, trace_bus, TRACE, BUS, GObject)

/**
 * TraceBusFunc:
 * @bus: the bus
 * @message: (transfer none): the message
 * @user_data: data given to trace_bus_add_watch()
 *
 * Receives the messages of a bus in its main context.
 *
 * Returns: %G_SOURCE_CONTINUE to keep watching, %G_SOURCE_REMOVE to stop
 */
typedef gboolean (*TraceBusFunc) (TraceBus *bus,
                                  TraceMessage *message,
                                  gpointer user_data);

TRACE_AVAILABLE_IN_ALL
TraceBus *trace_bus_new (void);
TRACE_AVAILABLE_IN_ALL
void trace_bus_post (TraceBus *bus,
                     TraceMessage *message);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_bus_pop (TraceBus *bus);
TRACE_AVAILABLE_IN_ALL
TraceMessage *trace_bus_pop_filtered (TraceBus *bus,
                                      TraceMessageType types);
TRACE_AVAILABLE_IN_ALL
gboolean trace_bus_have_pending (TraceBus *bus);
TRACE_AVAILABLE_IN_ALL
void trace_bus_set_flushing (TraceBus *bus,
                             gboolean flushing);
TRACE_AVAILABLE_IN_ALL
GSource *trace_bus_create_watch (TraceBus *bus);
TRACE_AVAILABLE_IN_ALL
guint trace_bus_add_watch_full (TraceBus *bus,
                                GMainContext *context,
                                TraceBusFunc func,
                                gpointer user_data,
                                GDestroyNotify notify);
TRACE_AVAILABLE_IN_ALL
guint trace_bus_add_watch (TraceBus *bus,
                           TraceBusFunc func,
                           gpointer user_data);

G_END_DECLS
