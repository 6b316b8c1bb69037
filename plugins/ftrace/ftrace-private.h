/* tracepipe - the ftrace plugin: its elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "ftrace-text.h"

G_BEGIN_DECLS

/* How far into an HTML file auto-src's detector looks for the first data
 * block: catapult's viewer code before it is about 1 MB in a systrace
 * export. */
#define FTRACE_HTML_LOOK_AHEAD (8 * 1024 * 1024)

#define TRACE_TYPE_FTRACE_SRC (trace_ftrace_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceFtraceSrc, trace_ftrace_src, TRACE, FTRACE_SRC, TraceFileSrc)

#define TRACE_TYPE_FTRACE_SINK (trace_ftrace_sink_get_type ())
G_DECLARE_FINAL_TYPE (TraceFtraceSink, trace_ftrace_sink, TRACE, FTRACE_SINK, TraceFileSink)

TRACE_ELEMENT_REGISTER_DECLARE (ftrace_src)
TRACE_ELEMENT_REGISTER_DECLARE (ftrace_sink)

G_END_DECLS
