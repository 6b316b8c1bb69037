/* tracepipe - registering the generic elements at trace_init()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace-private.h"
#include "tracecoreelements.h"

TRACE_ELEMENT_REGISTER_DEFINE (identity, "identity", TRACE_RANK_NONE, TRACE_TYPE_IDENTITY)
TRACE_ELEMENT_REGISTER_DEFINE (fakesrc, "fakesrc", TRACE_RANK_NONE, TRACE_TYPE_FAKE_SRC)
TRACE_ELEMENT_REGISTER_DEFINE (fakesink, "fakesink", TRACE_RANK_NONE, TRACE_TYPE_FAKE_SINK)
TRACE_ELEMENT_REGISTER_DEFINE (queue, "queue", TRACE_RANK_NONE, TRACE_TYPE_QUEUE)
TRACE_ELEMENT_REGISTER_DEFINE (tee, "tee", TRACE_RANK_NONE, TRACE_TYPE_TEE)
TRACE_ELEMENT_REGISTER_DEFINE (funnel, "funnel", TRACE_RANK_NONE, TRACE_TYPE_FUNNEL)
TRACE_ELEMENT_REGISTER_DEFINE (app_sink, "app-sink", TRACE_RANK_NONE, TRACE_TYPE_APP_SINK)
TRACE_ELEMENT_REGISTER_DEFINE (auto_src, "auto-src", TRACE_RANK_NONE, TRACE_TYPE_AUTO_SRC)

void
_trace_core_elements_register (TracePlugin *plugin)
{
  TRACE_ELEMENT_REGISTER (identity, plugin);
  TRACE_ELEMENT_REGISTER (fakesrc, plugin);
  TRACE_ELEMENT_REGISTER (fakesink, plugin);
  TRACE_ELEMENT_REGISTER (queue, plugin);
  TRACE_ELEMENT_REGISTER (tee, plugin);
  TRACE_ELEMENT_REGISTER (funnel, plugin);
  TRACE_ELEMENT_REGISTER (auto_src, plugin);
  TRACE_ELEMENT_REGISTER (app_sink, plugin);
}
