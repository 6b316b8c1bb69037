/* tracepipe tools - trace-inspect, shared by its text and JSON output
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/* Exit codes of trace-inspect. */
enum
{
  INSPECT_EXIT_OK = 0,
  INSPECT_EXIT_NOT_FOUND = 1,
  INSPECT_EXIT_USAGE = 2,
};

/* A format auto-src detects: a type finder, the element it picks, and
 * that element's plugin (NULL if the element is not registered). */
typedef struct
{
  char *format;
  char *element;
  char *plugin;
} InspectFormat;

/* inspect-common (in trace-inspect.c) */
GList *inspect_formats (void);
void inspect_format_free (InspectFormat *f);
TracePlugin *inspect_find_plugin (const char *name);
GList *inspect_factories_of_plugin (const char *plugin_name);
GList *inspect_type_finder_formats (const char *element_name);
GList *inspect_element_properties (TraceElementFactory *factory);
GArray *inspect_element_signals (TraceElementFactory *factory);

/* inspect-json.c */
char *inspect_json_list (void);
char *inspect_json_failed (void);
char *inspect_json_element (TraceElementFactory *factory);
char *inspect_json_plugin (TracePlugin *plugin);
char *inspect_json_formats (void);

G_END_DECLS
