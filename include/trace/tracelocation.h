/* tracepipe - which file a location names
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
char *trace_location_get_key (const char *location);

G_END_DECLS
