/* tracepipe-check - export macros of the test harness library
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

#ifdef TRACE_CHECK_COMPILATION
#define _TRACE_CHECK_API _TRACE_EXPORT
#else
#define _TRACE_CHECK_API _TRACE_IMPORT
#endif

/**
 * TRACE_CHECK_API:
 *
 * Marks a symbol as part of the public, exported API of
 * libtracepipe-check, the test harness library.
 */
#define TRACE_CHECK_API _TRACE_CHECK_API extern
