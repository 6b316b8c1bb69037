/* tracepipe - export macros
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#if defined(_WIN32)
#define _TRACE_EXPORT __declspec(dllexport)
#define _TRACE_IMPORT __declspec(dllimport)
#else
#define _TRACE_EXPORT __attribute__ ((visibility ("default")))
#define _TRACE_IMPORT
#endif

#ifdef TRACE_COMPILATION
#define _TRACE_API _TRACE_EXPORT
#else
#define _TRACE_API _TRACE_IMPORT
#endif

/**
 * TRACE_AVAILABLE_IN_ALL:
 *
 * Marks a symbol as part of the public, exported API of libtracepipe.
 */
#define TRACE_AVAILABLE_IN_ALL _TRACE_API extern

/**
 * TRACE_PLUGIN_EXPORT:
 *
 * Marks the plugin descriptor of a loadable plugin as exported.
 */
#define TRACE_PLUGIN_EXPORT _TRACE_EXPORT
