/* tracepipe - arkts: the arkts-src element
 *
 * The engine is the ArkTS engine library (plugins/arkts-engine), which
 * the htrace plugin links too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "arkts-engine.h"

G_BEGIN_DECLS

#define TRACE_TYPE_ARKTS_SRC (trace_arkts_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceArktsSrc, trace_arkts_src, TRACE, ARKTS_SRC, TraceFileSrc)

TRACE_ELEMENT_REGISTER_DECLARE (arkts_src)

G_END_DECLS
