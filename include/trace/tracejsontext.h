/* tracepipe - JSON text as strict parsers read it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <glib.h>
#include <trace/trace-export.h>

G_BEGIN_DECLS

TRACE_AVAILABLE_IN_ALL
char *trace_json_text_escape_controls (char *text);

G_END_DECLS
