/* tracepipe - error domains
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

/**
 * TRACE_CORE_ERROR:
 *
 * Errors of the framework itself: linking, states, scheduling.
 */
#define TRACE_CORE_ERROR (trace_core_error_quark ())
TRACE_AVAILABLE_IN_ALL
GQuark trace_core_error_quark (void);

/**
 * TraceCoreError:
 * @TRACE_CORE_ERROR_FAILED: a general failure
 * @TRACE_CORE_ERROR_STATE_CHANGE: an element refused a state change
 * @TRACE_CORE_ERROR_PAD: a pad could not be linked, requested or found
 * @TRACE_CORE_ERROR_NOT_LINKED: data was pushed into an unlinked pad
 * @TRACE_CORE_ERROR_NEGOTIATION: media types of two pads do not match
 * @TRACE_CORE_ERROR_PLUGIN: a plugin could not be loaded
 * @TRACE_CORE_ERROR_NO_SUCH_ELEMENT: no factory of that name
 * @TRACE_CORE_ERROR_CYCLE: a link would make the events flow in a loop
 *
 * Codes of %TRACE_CORE_ERROR.
 */
typedef enum
{
  TRACE_CORE_ERROR_FAILED,
  TRACE_CORE_ERROR_STATE_CHANGE,
  TRACE_CORE_ERROR_PAD,
  TRACE_CORE_ERROR_NOT_LINKED,
  TRACE_CORE_ERROR_NEGOTIATION,
  TRACE_CORE_ERROR_PLUGIN,
  TRACE_CORE_ERROR_NO_SUCH_ELEMENT,
  TRACE_CORE_ERROR_CYCLE,
} TraceCoreError;

/**
 * TRACE_RESOURCE_ERROR:
 *
 * Errors opening, reading or writing files and other resources.
 */
#define TRACE_RESOURCE_ERROR (trace_resource_error_quark ())
TRACE_AVAILABLE_IN_ALL
GQuark trace_resource_error_quark (void);

/**
 * TraceResourceError:
 * @TRACE_RESOURCE_ERROR_FAILED: a general failure
 * @TRACE_RESOURCE_ERROR_NOT_FOUND: the resource does not exist
 * @TRACE_RESOURCE_ERROR_SETTINGS: a property needed to open it is missing
 *   or wrong
 * @TRACE_RESOURCE_ERROR_OPEN_READ: it cannot be opened for reading
 * @TRACE_RESOURCE_ERROR_OPEN_WRITE: it cannot be opened for writing
 * @TRACE_RESOURCE_ERROR_READ: reading failed
 * @TRACE_RESOURCE_ERROR_WRITE: writing failed
 * @TRACE_RESOURCE_ERROR_CLOSE: closing (or renaming into place) failed
 * @TRACE_RESOURCE_ERROR_NO_SPACE_LEFT: the disk is full
 *
 * Codes of %TRACE_RESOURCE_ERROR.
 */
typedef enum
{
  TRACE_RESOURCE_ERROR_FAILED,
  TRACE_RESOURCE_ERROR_NOT_FOUND,
  TRACE_RESOURCE_ERROR_SETTINGS,
  TRACE_RESOURCE_ERROR_OPEN_READ,
  TRACE_RESOURCE_ERROR_OPEN_WRITE,
  TRACE_RESOURCE_ERROR_READ,
  TRACE_RESOURCE_ERROR_WRITE,
  TRACE_RESOURCE_ERROR_CLOSE,
  TRACE_RESOURCE_ERROR_NO_SPACE_LEFT,
} TraceResourceError;

/**
 * TRACE_STREAM_ERROR:
 *
 * Errors in the data: an input that is not what its reader expects.
 */
#define TRACE_STREAM_ERROR (trace_stream_error_quark ())
TRACE_AVAILABLE_IN_ALL
GQuark trace_stream_error_quark (void);

/**
 * TraceStreamError:
 * @TRACE_STREAM_ERROR_FAILED: a general failure
 * @TRACE_STREAM_ERROR_WRONG_TYPE: the input is not of a format the element
 *   reads (binary garbage, an image, JSON that is not a trace)
 * @TRACE_STREAM_ERROR_EMPTY: the input holds nothing
 * @TRACE_STREAM_ERROR_FORMAT: the input is of the right format but broken
 *   beyond repair
 * @TRACE_STREAM_ERROR_DECODE: decompression or decoding failed
 * @TRACE_STREAM_ERROR_TOO_LARGE: a documented limit was exceeded
 *
 * Codes of %TRACE_STREAM_ERROR.
 */
typedef enum
{
  TRACE_STREAM_ERROR_FAILED,
  TRACE_STREAM_ERROR_WRONG_TYPE,
  TRACE_STREAM_ERROR_EMPTY,
  TRACE_STREAM_ERROR_FORMAT,
  TRACE_STREAM_ERROR_DECODE,
  TRACE_STREAM_ERROR_TOO_LARGE,
} TraceStreamError;

/**
 * TRACE_PARSE_ERROR:
 *
 * Errors in a launch description (see trace_parse_launch()).
 */
#define TRACE_PARSE_ERROR (trace_parse_error_quark ())
TRACE_AVAILABLE_IN_ALL
GQuark trace_parse_error_quark (void);

/**
 * TraceParseError:
 * @TRACE_PARSE_ERROR_SYNTAX: the description is not well formed
 * @TRACE_PARSE_ERROR_EMPTY: the description is empty
 * @TRACE_PARSE_ERROR_NO_SUCH_ELEMENT: no element of that name
 * @TRACE_PARSE_ERROR_NO_SUCH_PROPERTY: the element has no such property
 * @TRACE_PARSE_ERROR_BAD_VALUE: a value does not fit its property
 * @TRACE_PARSE_ERROR_DUPLICATE_NAME: two elements have the same name
 * @TRACE_PARSE_ERROR_NO_SUCH_REFERENCE: a reference names no element
 * @TRACE_PARSE_ERROR_NO_SUCH_PAD: an element has no such pad
 * @TRACE_PARSE_ERROR_LINK: two pads cannot be linked
 * @TRACE_PARSE_ERROR_UNLINKED: a reference or pad is never linked
 * @TRACE_PARSE_ERROR_SAME_OUTPUT: two sinks would write the same file
 *
 * Codes of %TRACE_PARSE_ERROR.
 */
typedef enum
{
  TRACE_PARSE_ERROR_SYNTAX,
  TRACE_PARSE_ERROR_EMPTY,
  TRACE_PARSE_ERROR_NO_SUCH_ELEMENT,
  TRACE_PARSE_ERROR_NO_SUCH_PROPERTY,
  TRACE_PARSE_ERROR_BAD_VALUE,
  TRACE_PARSE_ERROR_DUPLICATE_NAME,
  TRACE_PARSE_ERROR_NO_SUCH_REFERENCE,
  TRACE_PARSE_ERROR_NO_SUCH_PAD,
  TRACE_PARSE_ERROR_LINK,
  TRACE_PARSE_ERROR_UNLINKED,
  TRACE_PARSE_ERROR_SAME_OUTPUT,
} TraceParseError;

G_END_DECLS
