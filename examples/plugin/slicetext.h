/* examples/plugin: the elements of the slicetext plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/* slicetext-src: reads the made-up "slicetext" format */
#define SLICETEXT_TYPE_SRC (slicetext_src_get_type ())
G_DECLARE_FINAL_TYPE (SlicetextSrc, slicetext_src, SLICETEXT, SRC, TraceLineSrc)

/* min-duration: drops the slices shorter than a duration */
#define SLICETEXT_TYPE_MIN_DURATION (slicetext_min_duration_get_type ())
G_DECLARE_FINAL_TYPE (SlicetextMinDuration, slicetext_min_duration, SLICETEXT, MIN_DURATION, TraceBaseTransform)

/* One register function per element, defined beside each element with
 * TRACE_ELEMENT_REGISTER_DEFINE and called from plugin_init. */
TRACE_ELEMENT_REGISTER_DECLARE (slicetext_src)
TRACE_ELEMENT_REGISTER_DECLARE (min_duration)

G_END_DECLS
