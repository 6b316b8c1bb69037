/* tracepipe - the ftrace plugin: its element
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "ftrace-text.h"

G_BEGIN_DECLS

#define TRACE_TYPE_FTRACE_SRC (trace_ftrace_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceFtraceSrc, trace_ftrace_src, TRACE, FTRACE_SRC, TraceFileSrc)

TRACE_ELEMENT_REGISTER_DECLARE (ftrace_src)

G_END_DECLS
