/* tracepipe - internal helpers shared by the core's files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>

#include "trace/trace.h"

G_BEGIN_DECLS

void _trace_pad_set_parent (TracePad *pad,
                            TraceElement *parent);
void _trace_pad_reset (TracePad *pad);

void _trace_element_set_parent (TraceElement *element,
                                TraceElement *parent);
TraceState _trace_element_get_state_field (TraceElement *element);
void _trace_element_set_state_field (TraceElement *element,
                                     TraceState state);
void _trace_element_set_factory_name (TraceElement *element,
                                      const char *factory_name);

guint _trace_bus_get_n_errors (TraceBus *bus);

void _trace_registry_init (void);
void _trace_core_elements_register (TracePlugin *plugin);
TracePlugin *_trace_plugin_new_static (const TracePluginDesc *desc,
                                       const char *filename);

G_END_DECLS

G_BEGIN_DECLS
void _trace_sink_explain_error (TraceBaseSink *sink,
                                GError *error);
G_END_DECLS
