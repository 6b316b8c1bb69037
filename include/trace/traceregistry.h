/* tracepipe - plugins, element factories and the registry
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <gio/gio.h>
#include <trace/traceelement.h>

G_BEGIN_DECLS

/**
 * TRACE_PLUGIN_ABI_VERSION:
 *
 * The plugin ABI of this library. A plugin built against another ABI is
 * refused with a reason that says both numbers.
 */
#define TRACE_PLUGIN_ABI_VERSION 1

#define TRACE_TYPE_PLUGIN (trace_plugin_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TracePlugin, trace_plugin, TRACE, PLUGIN, GObject)

/**
 * TracePluginInitFunc:
 * @plugin: the plugin being loaded
 * @error: where to say why it cannot be used
 *
 * Registers a plugin's element factories and type finders.
 *
 * Returns: %FALSE if the plugin cannot be used
 */
typedef gboolean (*TracePluginInitFunc) (TracePlugin *plugin,
                                         GError **error);

/**
 * TracePluginDesc:
 * @abi_version: %TRACE_PLUGIN_ABI_VERSION at build time
 * @name: the plugin's name (`ftrace`)
 * @description: one line
 * @init: registers the plugin's features
 * @version: its version
 * @license: its licence
 * @origin: where it comes from
 *
 * What a loadable plugin exports, as the symbol `trace_plugin_desc`.
 */
typedef struct
{
  guint abi_version;
  const char *name;
  const char *description;
  TracePluginInitFunc init;
  const char *version;
  const char *license;
  const char *origin;

  /*< private >*/
  gpointer _reserved[4];
} TracePluginDesc;

/**
 * TRACE_PLUGIN_DEFINE:
 * @name: the plugin name, an identifier
 * @description: one line
 * @init: a #TracePluginInitFunc
 * @version: the version string
 * @license: the licence
 * @origin: a URL or the package name
 *
 * Defines the descriptor a loadable plugin exports.
 */
#define TRACE_PLUGIN_DEFINE(name, description, init, version, license, origin)             \
  TRACE_PLUGIN_EXPORT const TracePluginDesc trace_plugin_desc = {                          \
    TRACE_PLUGIN_ABI_VERSION, #name, description, init, version, license, origin, { NULL } \
  };

TRACE_AVAILABLE_IN_ALL
const char *trace_plugin_get_name (TracePlugin *plugin);
TRACE_AVAILABLE_IN_ALL
const char *trace_plugin_get_description (TracePlugin *plugin);
TRACE_AVAILABLE_IN_ALL
const char *trace_plugin_get_filename (TracePlugin *plugin);
TRACE_AVAILABLE_IN_ALL
const char *trace_plugin_get_version (TracePlugin *plugin);
TRACE_AVAILABLE_IN_ALL
const char *trace_plugin_get_license (TracePlugin *plugin);

/**
 * TraceRank:
 * @TRACE_RANK_NONE: never chosen automatically
 * @TRACE_RANK_MARGINAL: chosen when nothing better fits
 * @TRACE_RANK_SECONDARY: a good choice
 * @TRACE_RANK_PRIMARY: the best choice
 *
 * How much an element or type finder is preferred by automatic choices.
 */
typedef enum
{
  TRACE_RANK_NONE = 0,
  TRACE_RANK_MARGINAL = 64,
  TRACE_RANK_SECONDARY = 128,
  TRACE_RANK_PRIMARY = 256,
} TraceRank;

#define TRACE_TYPE_ELEMENT_FACTORY (trace_element_factory_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TraceElementFactory, trace_element_factory, TRACE, ELEMENT_FACTORY, GObject)

TRACE_AVAILABLE_IN_ALL
gboolean trace_element_register (TracePlugin *plugin,
                                 const char *name,
                                 guint rank,
                                 GType type);
TRACE_AVAILABLE_IN_ALL
TraceElementFactory *trace_element_factory_find (const char *name);
TRACE_AVAILABLE_IN_ALL
TraceElement *trace_element_factory_create (TraceElementFactory *factory,
                                            const char *name);
TRACE_AVAILABLE_IN_ALL
TraceElement *trace_element_factory_make (const char *factory_name,
                                          const char *name);
TRACE_AVAILABLE_IN_ALL
TraceElement *trace_element_factory_make_checked (const char *factory_name,
                                                  const char *name,
                                                  GError **error);
TRACE_AVAILABLE_IN_ALL
const char *trace_element_factory_get_name (TraceElementFactory *factory);
TRACE_AVAILABLE_IN_ALL
GType trace_element_factory_get_element_type (TraceElementFactory *factory);
TRACE_AVAILABLE_IN_ALL
guint trace_element_factory_get_rank (TraceElementFactory *factory);
TRACE_AVAILABLE_IN_ALL
const char *trace_element_factory_get_plugin_name (TraceElementFactory *factory);
TRACE_AVAILABLE_IN_ALL
const char *trace_element_factory_get_metadata (TraceElementFactory *factory,
                                                const char *key);
TRACE_AVAILABLE_IN_ALL
GList *trace_element_factory_get_pad_templates (TraceElementFactory *factory);

/**
 * TRACE_ELEMENT_METADATA_LONGNAME:
 *
 * Metadata key: the element's long name.
 */
#define TRACE_ELEMENT_METADATA_LONGNAME "long-name"
/**
 * TRACE_ELEMENT_METADATA_KLASS:
 *
 * Metadata key: the classification (`Source/Trace`).
 */
#define TRACE_ELEMENT_METADATA_KLASS "klass"
/**
 * TRACE_ELEMENT_METADATA_DESCRIPTION:
 *
 * Metadata key: one line on what the element does.
 */
#define TRACE_ELEMENT_METADATA_DESCRIPTION "description"
/**
 * TRACE_ELEMENT_METADATA_AUTHOR:
 *
 * Metadata key: who wrote it.
 */
#define TRACE_ELEMENT_METADATA_AUTHOR "author"

/**
 * TRACE_ELEMENT_REGISTER_DECLARE:
 * @e: the element's identifier (`ftrace_src`)
 *
 * Declares the register function of element @e, for a plugin's header.
 */
#define TRACE_ELEMENT_REGISTER_DECLARE(e) \
  gboolean trace_element_register_##e (TracePlugin *plugin);

/**
 * TRACE_ELEMENT_REGISTER_DEFINE:
 * @e: the element's identifier (`ftrace_src`)
 * @n: the factory name users type (`"ftrace-src"`)
 * @r: a #TraceRank
 * @t: the element's #GType
 *
 * Defines the register function of element @e.
 */
#define TRACE_ELEMENT_REGISTER_DEFINE(e, n, r, t)           \
  gboolean trace_element_register_##e (TracePlugin *plugin) \
  {                                                         \
    return trace_element_register (plugin, n, r, t);        \
  }

/**
 * TRACE_ELEMENT_REGISTER:
 * @e: the element's identifier
 * @plugin: the #TracePlugin
 *
 * Calls the register function of element @e.
 */
#define TRACE_ELEMENT_REGISTER(e, plugin) trace_element_register_##e (plugin)

/**
 * TRACE_TYPE_FIND_LOOK_AHEAD:
 *
 * How many bytes from the start of an input a detector registered with
 * trace_type_find_register() is shown: 64 KiB.
 */
#define TRACE_TYPE_FIND_LOOK_AHEAD (64 * 1024)

/**
 * TRACE_TYPE_FIND_MORE:
 *
 * What a #TraceTypeFindFunc returns when the bytes it was shown may be
 * its format but only bytes further on can tell (a systrace HTML export
 * whose data block comes after the viewer's code). `auto-src` then reads
 * further, up to the look-ahead the detector was registered with, and
 * asks again; when there is no more to read it counts as 0.
 */
#define TRACE_TYPE_FIND_MORE 1000

/**
 * TraceTypeFindFunc:
 * @data: (array length=size): the first bytes of the input, already
 *   decompressed when it was gzip or zlib
 * @size: how many bytes: at most the detector's look-ahead
 *   (%TRACE_TYPE_FIND_LOOK_AHEAD unless registered with
 *   trace_type_find_register_full()); less for a short input, or when
 *   `auto-src` has not read that far yet
 * @user_data: data given at registration
 *
 * Recognises a format from the start of an input.
 *
 * Returns: a probability from 0 (not this format) to 100 (certainly), or
 *   %TRACE_TYPE_FIND_MORE
 */
typedef guint (*TraceTypeFindFunc) (const guint8 *data,
                                    gsize size,
                                    gpointer user_data);

TRACE_AVAILABLE_IN_ALL
gboolean trace_type_find_register (TracePlugin *plugin,
                                   const char *format,
                                   const char *element_name,
                                   TraceTypeFindFunc func,
                                   gpointer user_data);
TRACE_AVAILABLE_IN_ALL
gboolean trace_type_find_register_full (TracePlugin *plugin,
                                        const char *format,
                                        const char *element_name,
                                        gsize look_ahead,
                                        TraceTypeFindFunc func,
                                        gpointer user_data);
TRACE_AVAILABLE_IN_ALL
const char *trace_type_find_best (const guint8 *data,
                                  gsize size,
                                  const char **format,
                                  guint *probability);

/**
 * TraceChromeJsonFlags:
 * @TRACE_CHROME_JSON_IS_JSON: the bytes start (after blanks) with `{` or
 *   `[`; the other flags are set only with this one
 * @TRACE_CHROME_JSON_TRACE_EVENTS: a `"traceEvents"` key
 * @TRACE_CHROME_JSON_SYSTEM_TRACE_EVENTS: a `"systemTraceEvents"` key
 * @TRACE_CHROME_JSON_PH: a `"ph"` key, as every Chrome trace event has
 *
 * What the start of an input shows of Chrome's Trace Event Format, for
 * the detectors that claim it (json-src) and those that must not
 * (arkts-src, ftrace-src).
 */
typedef enum
{
  TRACE_CHROME_JSON_IS_JSON = 1 << 0,
  TRACE_CHROME_JSON_TRACE_EVENTS = 1 << 1,
  TRACE_CHROME_JSON_SYSTEM_TRACE_EVENTS = 1 << 2,
  TRACE_CHROME_JSON_PH = 1 << 3,
} TraceChromeJsonFlags;

TRACE_AVAILABLE_IN_ALL
gboolean trace_type_find_contains (const guint8 *data,
                                   gsize size,
                                   const char *needle);
TRACE_AVAILABLE_IN_ALL
TraceChromeJsonFlags trace_type_find_chrome_json (const guint8 *data,
                                                  gsize size);

TRACE_AVAILABLE_IN_ALL
gboolean trace_init_check (int *argc,
                           char ***argv,
                           GError **error);
TRACE_AVAILABLE_IN_ALL
void trace_init (int *argc,
                 char ***argv);
TRACE_AVAILABLE_IN_ALL
gboolean trace_is_initialized (void);
TRACE_AVAILABLE_IN_ALL
gboolean trace_registry_load_plugin (const char *filename,
                                     GError **error);
TRACE_AVAILABLE_IN_ALL
gboolean trace_registry_register_static_plugin (const TracePluginDesc *desc,
                                                GError **error);
TRACE_AVAILABLE_IN_ALL
GList *trace_registry_get_plugins (void);
TRACE_AVAILABLE_IN_ALL
GList *trace_registry_get_element_factories (void);
TRACE_AVAILABLE_IN_ALL
GHashTable *trace_registry_get_failed_plugins (void);
TRACE_AVAILABLE_IN_ALL
GList *trace_registry_get_type_finders (void);
TRACE_AVAILABLE_IN_ALL
char *trace_registry_suggest_element (const char *name);

G_END_DECLS
