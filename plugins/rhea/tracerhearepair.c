/* tracepipe - rhea-repair: RheaTrace method markers into balanced slices
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "rhea-private.h"

/* One value each, in rhea-private.h: the engine's defaults. */
#define DEFAULT_MARKERS RHEA_REPAIR_DEFAULT_MARKERS
#define DEFAULT_MARKER_ENDS RHEA_REPAIR_DEFAULT_MARKER_ENDS
#define DEFAULT_CRASH_TAG RHEA_REPAIR_DEFAULT_CRASH_TAG
#define DEFAULT_MAX_HOLD RHEA_REPAIR_DEFAULT_MAX_HOLD
#define DEFAULT_MAX_HOLD_TOTAL RHEA_REPAIR_DEFAULT_MAX_HOLD_TOTAL

/**
 * TraceRheaRepair:
 *
 * Turns RheaTrace's `B:`/`E:`/`T:` method markers into proper begin/end
 * pairs per thread, closes frames an exception unwound at the best
 * estimate of when they really ended, drops unmatched ends and closes
 * what is still open at EOS; every repaired slice carries a `repair` arg.
 * Counts per kind of repair are in its STATS and a one-line WARNING at
 * EOS. Works on any slice stream, so it also repairs unbalanced systrace
 * or Chrome JSON. See docs/rhea-repair.md.
 *
 * ```
 * trace-launch ftrace-src location=app.systrace ! rhea-repair crash-tag=true ! \
 *     perfetto-sink location=app.pftrace
 * ```
 *
 * Its properties are read when the element starts: they cannot change
 * while it plays.
 */

struct _TraceRheaRepair
{
  TraceBaseTransform parent_instance;

  RheaRepairOptions opts; /* the properties */
  RheaRepair *repair;
};

enum
{
  PROP_0,
  PROP_MARKERS,
  PROP_MARKER_ENDS,
  PROP_CRASH_TAG,
  PROP_MAX_HOLD,
  PROP_MAX_HOLD_TOTAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceRheaRepair, trace_rhea_repair, TRACE_TYPE_BASE_TRANSFORM)

static GType
marker_ends_get_type (void)
{
  static gsize type;
  static const GEnumValue values[] = {
    { RHEA_MARKER_ENDS_AUTO, "RHEA_MARKER_ENDS_AUTO", "auto" },
    { RHEA_MARKER_ENDS_PRESENT, "RHEA_MARKER_ENDS_PRESENT", "present" },
    { RHEA_MARKER_ENDS_ABSENT, "RHEA_MARKER_ENDS_ABSENT", "absent" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("TraceRheaMarkerEnds", values));
  return type;
}

static gboolean
trace_rhea_repair_start (TraceBaseTransform *trans,
                         GError **error)
{
  TraceRheaRepair *self = TRACE_RHEA_REPAIR (trans);

  g_clear_pointer (&self->repair, rhea_repair_free);
  self->repair = rhea_repair_new_with_options (trace_base_transform_get_string_pool (trans), &self->opts);
  return TRUE;
}

static gboolean
trace_rhea_repair_stop (TraceBaseTransform *trans,
                        GError **error)
{
  g_clear_pointer (&TRACE_RHEA_REPAIR (trans)->repair, rhea_repair_free);
  return TRUE;
}

static TraceFlowReturn
trace_rhea_repair_transform_ip (TraceBaseTransform *trans,
                                TraceBatch *batch)
{
  rhea_repair_process (TRACE_RHEA_REPAIR (trans)->repair, batch);
  return TRACE_FLOW_OK;
}

static TraceBatch *
trace_rhea_repair_drain (TraceBaseTransform *trans)
{
  TraceRheaRepair *self = TRACE_RHEA_REPAIR (trans);
  TraceFlowReturn ret = TRACE_FLOW_OK;
  g_autofree char *summary = NULL;
  TraceBatch *rest;

  /* pushed thread by thread, so each hold is freed as it goes out */
  while ((rest = rhea_repair_drain (self->repair)) != NULL)
    {
      if (ret == TRACE_FLOW_OK)
        ret = trace_base_transform_push (trans, rest);
      else
        trace_batch_unref (rest);
    }
  summary = rhea_repair_get_summary (self->repair);
  if (summary)
    trace_element_post_warning (TRACE_ELEMENT (trans), NULL, "%s", summary);
  return NULL;
}

static void
trace_rhea_repair_collect_stats (TraceElement *element,
                                 GVariantDict *dict)
{
  TraceRheaRepair *self = TRACE_RHEA_REPAIR (element);
  RheaRepairStats s;

  TRACE_ELEMENT_CLASS (trace_rhea_repair_parent_class)->collect_stats (element, dict);
  if (self->repair == NULL)
    return;
  rhea_repair_get_stats (self->repair, &s);
  g_variant_dict_insert (dict, "methods", "t", s.methods);
  g_variant_dict_insert (dict, "returns", "t", s.returns);
  g_variant_dict_insert (dict, "throws", "t", s.throws);
  g_variant_dict_insert (dict, "throws-caught", "t", s.throws_caught);
  g_variant_dict_insert (dict, "unwound", "t", s.unwound);
  g_variant_dict_insert (dict, "missing-ends", "t", s.missing_ends);
  g_variant_dict_insert (dict, "closed-at-eos", "t", s.closed_at_eos);
  g_variant_dict_insert (dict, "unmatched-returns", "t", s.unmatched_returns);
  g_variant_dict_insert (dict, "unmatched-throws", "t", s.unmatched_throws);
  g_variant_dict_insert (dict, "unmatched-ends", "t", s.unmatched_ends);
  g_variant_dict_insert (dict, "hold-overflows", "t", s.hold_overflows);
  g_variant_dict_insert (dict, "hold-total-overflows", "t", s.hold_total_overflows);
  g_variant_dict_insert (dict, "too-deep", "t", s.too_deep);
}

static void
trace_rhea_repair_set_property (GObject *object,
                                guint prop_id,
                                const GValue *value,
                                GParamSpec *pspec)
{
  TraceRheaRepair *self = TRACE_RHEA_REPAIR (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_MARKERS:
      self->opts.markers = g_value_get_boolean (value);
      break;
    case PROP_MARKER_ENDS:
      self->opts.marker_ends = g_value_get_enum (value);
      break;
    case PROP_CRASH_TAG:
      self->opts.crash_tag = g_value_get_boolean (value);
      break;
    case PROP_MAX_HOLD:
      self->opts.max_hold = g_value_get_uint (value);
      break;
    case PROP_MAX_HOLD_TOTAL:
      self->opts.max_hold_total = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_rhea_repair_get_property (GObject *object,
                                guint prop_id,
                                GValue *value,
                                GParamSpec *pspec)
{
  TraceRheaRepair *self = TRACE_RHEA_REPAIR (object);

  switch (prop_id)
    {
    case PROP_MARKERS:
      g_value_set_boolean (value, self->opts.markers);
      break;
    case PROP_MARKER_ENDS:
      g_value_set_enum (value, self->opts.marker_ends);
      break;
    case PROP_CRASH_TAG:
      g_value_set_boolean (value, self->opts.crash_tag);
      break;
    case PROP_MAX_HOLD:
      g_value_set_uint (value, self->opts.max_hold);
      break;
    case PROP_MAX_HOLD_TOTAL:
      g_value_set_uint (value, self->opts.max_hold_total);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_rhea_repair_finalize (GObject *object)
{
  g_clear_pointer (&TRACE_RHEA_REPAIR (object)->repair, rhea_repair_free);
  G_OBJECT_CLASS (trace_rhea_repair_parent_class)->finalize (object);
}

static void
trace_rhea_repair_class_init (TraceRheaRepairClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseTransformClass *trans_class = TRACE_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->set_property = trace_rhea_repair_set_property;
  object_class->get_property = trace_rhea_repair_get_property;
  object_class->finalize = trace_rhea_repair_finalize;
  trans_class->start = trace_rhea_repair_start;
  trans_class->stop = trace_rhea_repair_stop;
  trans_class->transform_ip = trace_rhea_repair_transform_ip;
  trans_class->drain = trace_rhea_repair_drain;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_rhea_repair_collect_stats;

  properties[PROP_MARKERS] = g_param_spec_boolean ("markers", "Markers",
                                                   "Read B:/E:/T: method markers (off: only balance plain slices)",
                                                   DEFAULT_MARKERS, rw);
  properties[PROP_MARKER_ENDS] = g_param_spec_enum ("marker-ends", "Marker ends",
                                                    "Whether each marker is followed by a plain end of its own",
                                                    marker_ends_get_type (), DEFAULT_MARKER_ENDS, rw);
  properties[PROP_CRASH_TAG] = g_param_spec_boolean ("crash-tag", "Crash tag",
                                                     "Rename repaired slices as btrace does (… : CrashTag)",
                                                     DEFAULT_CRASH_TAG, rw);
  properties[PROP_MAX_HOLD] = g_param_spec_uint ("max-hold", "Max hold",
                                                 "Events held per thread while a throw's catcher is unknown; "
                                                 "at the limit the oldest throws are taken as escaped",
                                                 16, G_MAXINT32, DEFAULT_MAX_HOLD, rw);
  properties[PROP_MAX_HOLD_TOTAL] = g_param_spec_uint ("max-hold-total", "Max hold total",
                                                       "Events held by all threads together (about 100 bytes "
                                                       "each); over it the thread holding the most is cut "
                                                       "as at max-hold",
                                                       16, G_MAXINT32, DEFAULT_MAX_HOLD_TOTAL, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "RheaTrace repair", "Filter/Trace",
                                    "Turns B:/E:/T: method markers into balanced slices and repairs unbalanced ones",
                                    "tracepipe");
}

static void
trace_rhea_repair_init (TraceRheaRepair *self)
{
  self->opts.markers = DEFAULT_MARKERS;
  self->opts.marker_ends = DEFAULT_MARKER_ENDS;
  self->opts.crash_tag = DEFAULT_CRASH_TAG;
  self->opts.max_hold = DEFAULT_MAX_HOLD;
  self->opts.max_hold_total = DEFAULT_MAX_HOLD_TOTAL;
}

TRACE_ELEMENT_REGISTER_DEFINE (rhea_repair, "rhea-repair", TRACE_RANK_NONE, TRACE_TYPE_RHEA_REPAIR)
