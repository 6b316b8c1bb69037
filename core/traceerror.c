/* tracepipe - error domains
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"

G_DEFINE_QUARK (trace - core - error - quark, trace_core_error)
G_DEFINE_QUARK (trace - resource - error - quark, trace_resource_error)
G_DEFINE_QUARK (trace - stream - error - quark, trace_stream_error)
G_DEFINE_QUARK (trace - parse - error - quark, trace_parse_error)
