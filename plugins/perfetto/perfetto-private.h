/* tracepipe - the perfetto plugin's elements: perfetto-sink and
 * perfetto-src, which wrap the writer and the reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "perfetto-common.h"
#include "perfetto-reader.h"
#include "perfetto-writer.h"

G_BEGIN_DECLS

#define TRACE_TYPE_PERFETTO_SINK (trace_perfetto_sink_get_type ())
G_DECLARE_FINAL_TYPE (TracePerfettoSink, trace_perfetto_sink, TRACE, PERFETTO_SINK, TraceFileSink)

#define TRACE_TYPE_PERFETTO_SRC (trace_perfetto_src_get_type ())
G_DECLARE_FINAL_TYPE (TracePerfettoSrc, trace_perfetto_src, TRACE, PERFETTO_SRC, TraceFileSrc)

TRACE_ELEMENT_REGISTER_DECLARE (perfetto_sink)
TRACE_ELEMENT_REGISTER_DECLARE (perfetto_src)

G_END_DECLS
