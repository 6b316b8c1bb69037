/* tracepipe - json plugin: the json-src and json-sink elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* The elements                                                       */

#define TRACE_TYPE_JSON_SRC (trace_json_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceJsonSrc, trace_json_src, TRACE, JSON_SRC, TraceFileSrc)

#define TRACE_TYPE_JSON_SINK (trace_json_sink_get_type ())
G_DECLARE_FINAL_TYPE (TraceJsonSink, trace_json_sink, TRACE, JSON_SINK, TraceFileSink)

TRACE_ELEMENT_REGISTER_DECLARE (json_src)
TRACE_ELEMENT_REGISTER_DECLARE (json_sink)

G_END_DECLS
