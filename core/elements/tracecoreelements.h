/* tracepipe - the generic elements built into the library
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "trace/trace.h"

G_BEGIN_DECLS

#define TRACE_TYPE_IDENTITY (trace_identity_get_type ())
G_DECLARE_FINAL_TYPE (TraceIdentity, trace_identity, TRACE, IDENTITY, TraceBaseTransform)

#define TRACE_TYPE_FAKE_SRC (trace_fake_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceFakeSrc, trace_fake_src, TRACE, FAKE_SRC, TraceBaseSrc)

#define TRACE_TYPE_FAKE_SINK (trace_fake_sink_get_type ())
G_DECLARE_FINAL_TYPE (TraceFakeSink, trace_fake_sink, TRACE, FAKE_SINK, TraceBaseSink)

#define TRACE_TYPE_QUEUE (trace_queue_get_type ())
G_DECLARE_FINAL_TYPE (TraceQueue, trace_queue, TRACE, QUEUE, TraceElement)

#define TRACE_TYPE_TEE (trace_tee_get_type ())
G_DECLARE_FINAL_TYPE (TraceTee, trace_tee, TRACE, TEE, TraceElement)

#define TRACE_TYPE_FUNNEL (trace_funnel_get_type ())
G_DECLARE_FINAL_TYPE (TraceFunnel, trace_funnel, TRACE, FUNNEL, TraceElement)

#define TRACE_TYPE_AUTO_SRC (trace_auto_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceAutoSrc, trace_auto_src, TRACE, AUTO_SRC, TraceElement)

TRACE_ELEMENT_REGISTER_DECLARE (identity)
TRACE_ELEMENT_REGISTER_DECLARE (auto_src)
TRACE_ELEMENT_REGISTER_DECLARE (app_sink)
TRACE_ELEMENT_REGISTER_DECLARE (fakesrc)
TRACE_ELEMENT_REGISTER_DECLARE (fakesink)
TRACE_ELEMENT_REGISTER_DECLARE (queue)
TRACE_ELEMENT_REGISTER_DECLARE (tee)
TRACE_ELEMENT_REGISTER_DECLARE (funnel)

G_END_DECLS
