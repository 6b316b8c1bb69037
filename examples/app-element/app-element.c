/* examples/app-element: an element the application defines itself
 *
 * Usage: app-element FROM TO ['SOURCE DESCRIPTION']
 *
 * Defines `app-rename`, a filter that renames every event named FROM to
 * TO, registers it at run time (no plugin) and runs
 *
 *   SOURCE ! app-rename from=FROM to=TO ! fakesink dump=true
 *
 * SOURCE defaults to `fakesrc num-events=10000`, whose slices are named
 * slice-0 … slice-7. The events are printed on standard output, one a
 * line; how many were renamed goes to standard error.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <trace/trace.h>

/* ---- the element ---- */

#define APP_TYPE_RENAME (app_rename_get_type ())
G_DECLARE_FINAL_TYPE (AppRename, app_rename, APP, RENAME, TraceBaseTransform)

struct _AppRename
{
  TraceBaseTransform parent_instance;

  char *from, *to;        /* the properties */
  guint32 from_id, to_id; /* the same, interned in the pipeline's pool */
  guint64 renamed;
};

enum
{
  PROP_0,
  PROP_FROM,
  PROP_TO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AppRename, app_rename, TRACE_TYPE_BASE_TRANSFORM)

/* NULL -> READY: the element is in its pipeline now, so the pipeline's
 * string pool is known. Interning once here makes the per-event test an
 * integer comparison. */
static gboolean
app_rename_start (TraceBaseTransform *trans,
                  GError **error)
{
  AppRename *self = APP_RENAME (trans);
  TraceStringPool *pool = trace_base_transform_get_string_pool (trans);

  if (self->from == NULL || self->to == NULL)
    {
      /* Nothing to do: batches go through untouched, not even copied. */
      trace_base_transform_set_passthrough (trans, TRUE);
      return TRUE;
    }
  trace_base_transform_set_passthrough (trans, FALSE);
  self->from_id = trace_string_pool_intern (pool, self->from);
  self->to_id = trace_string_pool_intern (pool, self->to);
  self->renamed = 0;
  return TRUE;
}

/* Runs on each batch, in the thread that pushes it. The batch is
 * writable: the base copied it if another element still held it. */
static TraceFlowReturn
app_rename_transform_ip (TraceBaseTransform *trans,
                         TraceBatch *batch)
{
  AppRename *self = APP_RENAME (trans);

  for (guint i = 0; i < batch->n_events; i++)
    if (batch->events[i].name == self->from_id)
      {
        batch->events[i].name = self->to_id;
        self->renamed++;
      }
  return TRACE_FLOW_OK;
}

/* Adds our counter to the STATS message the base posts at EOS. */
static void
app_rename_collect_stats (TraceElement *element,
                          GVariantDict *stats)
{
  TRACE_ELEMENT_CLASS (app_rename_parent_class)->collect_stats (element, stats);
  g_variant_dict_insert (stats, "renamed", "t", APP_RENAME (element)->renamed);
}

static void
app_rename_set_property (GObject *object,
                         guint prop_id,
                         const GValue *value,
                         GParamSpec *pspec)
{
  AppRename *self = APP_RENAME (object);

  switch (prop_id)
    {
    case PROP_FROM:
      g_free (self->from);
      self->from = g_value_dup_string (value);
      break;
    case PROP_TO:
      g_free (self->to);
      self->to = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
app_rename_get_property (GObject *object,
                         guint prop_id,
                         GValue *value,
                         GParamSpec *pspec)
{
  AppRename *self = APP_RENAME (object);

  switch (prop_id)
    {
    case PROP_FROM:
      g_value_set_string (value, self->from);
      break;
    case PROP_TO:
      g_value_set_string (value, self->to);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
app_rename_finalize (GObject *object)
{
  AppRename *self = APP_RENAME (object);

  g_free (self->from);
  g_free (self->to);
  G_OBJECT_CLASS (app_rename_parent_class)->finalize (object);
}

static void
app_rename_class_init (AppRenameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseTransformClass *trans_class = TRACE_BASE_TRANSFORM_CLASS (klass);

  object_class->set_property = app_rename_set_property;
  object_class->get_property = app_rename_get_property;
  object_class->finalize = app_rename_finalize;
  trans_class->start = app_rename_start;
  trans_class->transform_ip = app_rename_transform_ip;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = app_rename_collect_stats;

  properties[PROP_FROM] = g_param_spec_string ("from", "From", "The event name to replace", NULL,
                                               G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TO] = g_param_spec_string ("to", "To", "The name to give those events", NULL,
                                             G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* What trace-inspect shows. The pads come from the base class. */
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Rename events", "Filter/Trace",
                                    "Renames the events of one name (an example)", "examples/app-element");
}

static void
app_rename_init (AppRename *self)
{
}

/* ---- the application ---- */

int
main (int argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) pipeline = NULL;
  g_autofree char *description = NULL;
  g_autoptr (GVariant) stats = NULL;
  TraceElement *rename;
  guint64 renamed = 0;

  if (argc < 3 || argc > 4)
    {
      g_printerr ("usage: %s FROM TO ['SOURCE DESCRIPTION']\n", argv[0]);
      return 2;
    }
  trace_init (&argc, &argv);

  /* No plugin: the factory belongs to the application. From now on the
   * element can be made by name, by trace_element_factory_make() or in
   * a launch string, like any other. */
  if (!trace_element_register (NULL, "app-rename", TRACE_RANK_NONE, APP_TYPE_RENAME))
    {
      g_printerr ("ERROR: an element named app-rename exists already\n");
      return 1;
    }

  description = g_strdup_printf ("%s ! app-rename name=rename ! fakesink dump=true",
                                 argc > 3 ? argv[3] : "fakesrc num-events=10000");
  pipeline = trace_parse_launch (description, &error);
  if (pipeline == NULL)
    {
      g_printerr ("ERROR: %s\n", error->message);
      return 2;
    }
  /* Properties set from C rather than in the string: any text is fine. */
  rename = trace_bin_get_by_name (TRACE_BIN (pipeline), "rename");
  g_object_set (rename, "from", argv[1], "to", argv[2], NULL);

  /* The simplest way to run: trace_pipeline_run() plays the pipeline on
   * a main loop of its own and returns at EOS or at the first ERROR. It
   * watches the bus itself, so add no watch of your own beside it. */
  if (!trace_pipeline_run (TRACE_PIPELINE (pipeline), &error))
    {
      g_printerr ("ERROR: %s\n", error->message);
      return 1;
    }
  /* An element's counters can be read at any time, here after the run. */
  stats = trace_element_get_stats (rename);
  g_variant_lookup (stats, "renamed", "t", &renamed);
  g_printerr ("renamed %" G_GUINT64_FORMAT " events\n", renamed);
  return 0;
}
