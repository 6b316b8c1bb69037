/* tracepipe tests - elements with every kind of property, for the parser
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "test-elements.h"

/* --- enum and flags types --- */

static GType
test_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { 0, "TEST_MODE_FAST", "fast" },
    { 1, "TEST_MODE_SLOW", "slow" },
    { 2, "TEST_MODE_EXACT_MATCH", "exact-match" },
    { 0, NULL, NULL },
  };

  if (type == 0)
    type = g_enum_register_static ("TestMode", values);
  return type;
}

static GType
test_opts_get_type (void)
{
  static GType type = 0;
  static const GFlagsValue values[] = {
    { 1, "TEST_OPTS_A", "a" },
    { 2, "TEST_OPTS_B", "b" },
    { 4, "TEST_OPTS_C", "c" },
    { 0, NULL, NULL },
  };

  if (type == 0)
    type = g_flags_register_static ("TestOpts", values);
  return type;
}

/* --- test-props --- */

#define TEST_TYPE_PROPS (test_props_get_type ())
G_DECLARE_FINAL_TYPE (TestProps, test_props, TEST, PROPS, TraceElement)

enum
{
  PROP_0,
  PROP_INT,
  PROP_UINT,
  PROP_INT64,
  PROP_UINT64,
  PROP_DOUBLE,
  PROP_BOOL,
  PROP_MODE,
  PROP_OPTS,
  PROP_TEXT,
  PROP_OFFSET,
  PROP_COUNTER,
  N_PROPS
};

struct _TestProps
{
  TraceElement parent;
  GValue values[N_PROPS];
};

G_DEFINE_TYPE (TestProps, test_props, TRACE_TYPE_ELEMENT)

static guint n_alive;

static void
test_props_set_property (GObject *object,
                         guint prop_id,
                         const GValue *value,
                         GParamSpec *pspec)
{
  g_value_copy (value, &TEST_PROPS (object)->values[prop_id]);
}

static void
test_props_get_property (GObject *object,
                         guint prop_id,
                         GValue *value,
                         GParamSpec *pspec)
{
  g_value_copy (&TEST_PROPS (object)->values[prop_id], value);
}

static void
test_props_finalize (GObject *object)
{
  TestProps *self = TEST_PROPS (object);

  for (guint i = 1; i < N_PROPS; i++)
    g_value_unset (&self->values[i]);
  n_alive--;
  G_OBJECT_CLASS (test_props_parent_class)->finalize (object);
}

static void
test_props_class_init (TestPropsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamSpec *props[N_PROPS] = { NULL };
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->set_property = test_props_set_property;
  object_class->get_property = test_props_get_property;
  object_class->finalize = test_props_finalize;
  props[PROP_INT] = g_param_spec_int ("int", NULL, "An int", -10, 100, 0, rw);
  props[PROP_UINT] = g_param_spec_uint ("uint", NULL, "A uint", 0, 1000, 0, rw);
  props[PROP_INT64] = g_param_spec_int64 ("int64", NULL, "An int64", G_MININT64, G_MAXINT64, 0, rw);
  props[PROP_UINT64] = g_param_spec_uint64 ("uint64", NULL, "A uint64", 0, G_MAXUINT64, 0, rw);
  props[PROP_DOUBLE] = g_param_spec_double ("double", NULL, "A double", 0.0, 1.0, 0.5, rw);
  props[PROP_BOOL] = g_param_spec_boolean ("bool", NULL, "A boolean", FALSE, rw);
  props[PROP_MODE] = g_param_spec_enum ("mode", NULL, "An enum", test_mode_get_type (), 0, rw);
  props[PROP_OPTS] = g_param_spec_flags ("opts", NULL, "Flags", test_opts_get_type (), 0, rw);
  props[PROP_TEXT] = g_param_spec_string ("text", NULL, "A string", NULL, rw);
  props[PROP_OFFSET] = g_param_spec_int64 ("offset", NULL, "An offset in nanoseconds",
                                           G_MININT64, G_MAXINT64, 0, rw);
  props[PROP_COUNTER] = g_param_spec_uint ("counter", NULL, "Read-only", 0, G_MAXUINT, 0,
                                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  trace_param_spec_add_keyword (props[PROP_INT64], "big", G_GINT64_CONSTANT (1) << 40);
  trace_param_spec_set_time (props[PROP_OFFSET]);
  g_object_class_install_properties (object_class, N_PROPS, props);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Test properties", "Test",
                                    "Has a property of every type", "tests");
}

static void
test_props_init (TestProps *self)
{
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (self), &n);

  /* Hold every property's default, so reading one never set works. */
  for (guint i = 0; i < n; i++)
    if (pspecs[i]->owner_type == TEST_TYPE_PROPS)
      {
        g_value_init (&self->values[pspecs[i]->param_id], pspecs[i]->value_type);
        g_param_value_set_default (pspecs[i], &self->values[pspecs[i]->param_id]);
      }
  n_alive++;
}

guint
test_props_get_n_alive (void)
{
  return n_alive;
}

/* --- test-other-src --- */

#define TEST_TYPE_OTHER_SRC (test_other_src_get_type ())
G_DECLARE_FINAL_TYPE (TestOtherSrc, test_other_src, TEST, OTHER_SRC, TraceElement)

struct _TestOtherSrc
{
  TraceElement parent;
};

G_DEFINE_TYPE (TestOtherSrc, test_other_src, TRACE_TYPE_ELEMENT)

static const TraceStaticPadTemplate other_src_template =
    TRACE_STATIC_PAD_TEMPLATE ("src", TRACE_PAD_SRC, TRACE_PAD_ALWAYS, "test/other");

static void
test_other_src_class_init (TestOtherSrcClass *klass)
{
  trace_element_class_add_static_pad_template (TRACE_ELEMENT_CLASS (klass), &other_src_template);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Other source", "Source/Test",
                                    "Has a src pad that is not trace/events", "tests");
}

static void
test_other_src_init (TestOtherSrc *self)
{
  TracePadTemplate *templ = trace_element_class_get_pad_template (TRACE_ELEMENT_GET_CLASS (self), "src");

  trace_element_add_pad (TRACE_ELEMENT (self), trace_pad_new_from_template (templ, "src"));
}

/* --- test-mux and its pads --- */

#define TEST_TYPE_MUX_PAD (test_mux_pad_get_type ())
G_DECLARE_FINAL_TYPE (TestMuxPad, test_mux_pad, TEST, MUX_PAD, TracePad)

struct _TestMuxPad
{
  TracePad parent;
  gint64 offset;
};

G_DEFINE_TYPE (TestMuxPad, test_mux_pad, TRACE_TYPE_PAD)

static void
test_mux_pad_set_property (GObject *object,
                           guint prop_id,
                           const GValue *value,
                           GParamSpec *pspec)
{
  TEST_MUX_PAD (object)->offset = g_value_get_int64 (value);
}

static void
test_mux_pad_get_property (GObject *object,
                           guint prop_id,
                           GValue *value,
                           GParamSpec *pspec)
{
  g_value_set_int64 (value, TEST_MUX_PAD (object)->offset);
}

static void
test_mux_pad_class_init (TestMuxPadClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamSpec *offset = g_param_spec_int64 ("offset", NULL, "Added to timestamps, in nanoseconds",
                                           G_MININT64, G_MAXINT64, 0,
                                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);

  object_class->set_property = test_mux_pad_set_property;
  object_class->get_property = test_mux_pad_get_property;
  trace_param_spec_set_time (offset);
  g_object_class_install_property (object_class, 1, offset);
}

static void
test_mux_pad_init (TestMuxPad *self)
{
}

#define TEST_TYPE_MUX (test_mux_get_type ())
G_DECLARE_FINAL_TYPE (TestMux, test_mux, TEST, MUX, TraceElement)

struct _TestMux
{
  TraceElement parent;
};

G_DEFINE_TYPE (TestMux, test_mux, TRACE_TYPE_ELEMENT)

static const TraceStaticPadTemplate mux_sink_template =
    TRACE_STATIC_PAD_TEMPLATE ("sink_%u", TRACE_PAD_SINK, TRACE_PAD_REQUEST, TRACE_MEDIA_TYPE_EVENTS);
static const TraceStaticPadTemplate mux_src_template =
    TRACE_STATIC_PAD_TEMPLATE ("src", TRACE_PAD_SRC, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

static void
test_mux_class_init (TestMuxClass *klass)
{
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);

  trace_element_class_add_static_pad_template_with_type (element_class, &mux_sink_template, TEST_TYPE_MUX_PAD);
  trace_element_class_add_static_pad_template (element_class, &mux_src_template);
  trace_element_class_set_metadata (element_class, "Test mux", "Muxer/Test",
                                    "N:1 with a property on each request pad", "tests");
}

static void
test_mux_init (TestMux *self)
{
  TracePadTemplate *templ = trace_element_class_get_pad_template (TRACE_ELEMENT_GET_CLASS (self), "src");

  trace_element_add_pad (TRACE_ELEMENT (self), trace_pad_new_from_template (templ, "src"));
}

void
test_elements_register (void)
{
  g_assert_true (trace_element_register (NULL, "test-props", TRACE_RANK_NONE, TEST_TYPE_PROPS));
  g_assert_true (trace_element_register (NULL, "test-other-src", TRACE_RANK_NONE, TEST_TYPE_OTHER_SRC));
  g_assert_true (trace_element_register (NULL, "test-mux", TRACE_RANK_NONE, TEST_TYPE_MUX));
}
