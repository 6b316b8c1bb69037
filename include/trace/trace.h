/* tracepipe - umbrella header
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#define __TRACE_H_INSIDE__

#include <trace/trace-export.h>
#include <trace/traceerror.h>
#include <trace/traceevent.h>
#include <trace/tracestringpool.h>
#include <trace/tracearena.h>
#include <trace/tracesparework.h>
#include <trace/tracechunkring.h>
#include <trace/tracebatch.h>
#include <trace/tracestreamevent.h>
#include <trace/tracemessage.h>
#include <trace/tracebus.h>
#include <trace/tracepad.h>
#include <trace/traceelement.h>
#include <trace/tracebin.h>
#include <trace/tracepipeline.h>
#include <trace/traceregistry.h>
#include <trace/tracebasesrc.h>
#include <trace/traceinputmap.h>
#include <trace/traceinputspans.h>
#include <trace/tracefilesrc.h>
#include <trace/tracelinesrc.h>
#include <trace/tracelocation.h>
#include <trace/tracejsontext.h>
#include <trace/tracebasetransform.h>
#include <trace/tracebasesink.h>
#include <trace/tracefilesink.h>
#include <trace/traceaggregator.h>
#include <trace/traceappsink.h>
#include <trace/traceparse.h>

#undef __TRACE_H_INSIDE__
