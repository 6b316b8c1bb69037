/* A loadable test plugin with one element, "test-echo". */
#include <trace/trace.h>

#define TEST_TYPE_ECHO (test_echo_get_type ())
G_DECLARE_FINAL_TYPE (TestEcho, test_echo, TEST, ECHO, TraceBaseTransform)
struct _TestEcho
{
  TraceBaseTransform parent_instance;
};
G_DEFINE_FINAL_TYPE (TestEcho, test_echo, TRACE_TYPE_BASE_TRANSFORM)

static void
test_echo_class_init (TestEchoClass *klass)
{
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Echo", "Filter/Test",
                                    "Passes events through (a test plugin)", "tests");
}

static void
test_echo_init (TestEcho *self)
{
  trace_base_transform_set_passthrough (TRACE_BASE_TRANSFORM (self), TRUE);
}

TRACE_ELEMENT_REGISTER_DEFINE (test_echo, "test-echo", TRACE_RANK_NONE, TEST_TYPE_ECHO)

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  return TRACE_ELEMENT_REGISTER (test_echo, plugin);
}

TRACE_PLUGIN_DEFINE (testgood, "A plugin for the registry tests", plugin_init, "1.0", "LGPL-2.1-or-later", "tests")
