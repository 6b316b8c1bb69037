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
#include <trace/tracebatch.h>

#undef __TRACE_H_INSIDE__
