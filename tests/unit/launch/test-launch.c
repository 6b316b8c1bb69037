/* tracepipe tests - launch descriptions: the graphs they build, the errors they give
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include <trace/trace.h>

#include "test-elements.h"

/* --- describing a built pipeline, independently of the parser --- */

static char *
format_value (const GValue *v)
{
  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (v)))
    {
    case G_TYPE_INT:
      return g_strdup_printf ("%d", g_value_get_int (v));
    case G_TYPE_UINT:
      return g_strdup_printf ("%u", g_value_get_uint (v));
    case G_TYPE_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, g_value_get_int64 (v));
    case G_TYPE_UINT64:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, g_value_get_uint64 (v));
    case G_TYPE_DOUBLE:
      return g_strdup_printf ("%g", g_value_get_double (v));
    case G_TYPE_BOOLEAN:
      return g_strdup (g_value_get_boolean (v) ? "true" : "false");
    case G_TYPE_STRING:
      return g_strdup_printf ("[%s]", g_value_get_string (v) ? g_value_get_string (v) : "(null)");
    case G_TYPE_ENUM:
      {
        g_autoptr (GEnumClass) klass = g_type_class_ref (G_VALUE_TYPE (v));

        return g_strdup (g_enum_get_value (klass, g_value_get_enum (v))->value_nick);
      }
    case G_TYPE_FLAGS:
      return g_strdup_printf ("0x%x", g_value_get_flags (v));
    default:
      g_assert_not_reached ();
    }
}

/* "name:factory" of every element, in the order they were added. */
static char *
describe_elements (TraceElement *pipeline)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (const GList *l = trace_bin_get_children (TRACE_BIN (pipeline)); l; l = l->next)
    g_string_append_printf (s, "%s%s:%s", s->len ? " " : "", trace_element_get_name (l->data),
                            trace_element_get_factory_name (l->data));
  return g_strdup (s->str);
}

/* "element.pad>element.pad" for every link, by source element and pad. */
static char *
describe_links (TraceElement *pipeline)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (const GList *l = trace_bin_get_children (TRACE_BIN (pipeline)); l; l = l->next)
    for (const GList *p = trace_element_get_pads (l->data); p; p = p->next)
      {
        TracePad *peer = trace_pad_get_peer (p->data);

        if (trace_pad_get_direction (p->data) != TRACE_PAD_SRC || peer == NULL)
          continue;
        g_string_append_printf (s, "%s%s.%s>%s.%s", s->len ? " " : "", trace_element_get_name (l->data),
                                trace_pad_get_name (p->data),
                                trace_element_get_name (trace_pad_get_parent_element (peer)),
                                trace_pad_get_name (peer));
      }
  return g_strdup (s->str);
}

/* Checks "element.prop=value" or "element.pad::prop=value". */
static void
check_property (TraceElement *pipeline,
                const char *expectation)
{
  g_auto (GStrv) kv = g_strsplit (expectation, "=", 2);
  g_auto (GStrv) path = g_strsplit (kv[0], ".", 2);
  TraceElement *element = trace_bin_get_by_name (TRACE_BIN (pipeline), path[0]);
  GObject *object = G_OBJECT (element);
  const char *prop = path[1], *colons;
  g_auto (GValue) value = G_VALUE_INIT;
  g_autofree char *pad_name = NULL, *text = NULL;

  g_assert_nonnull (element);
  if ((colons = strstr (prop, "::")) != NULL)
    {
      pad_name = g_strndup (prop, colons - prop);
      object = G_OBJECT (trace_element_get_static_pad (element, pad_name));
      g_assert_nonnull (object);
      prop = colons + 2;
    }
  g_value_init (&value, g_object_class_find_property (G_OBJECT_GET_CLASS (object), prop)->value_type);
  g_object_get_property (object, prop, &value);
  text = format_value (&value);
  g_assert_cmpstr (text, ==, kv[1]);
}

/* --- valid descriptions --- */

typedef struct
{
  const char *description;
  const char *elements;
  const char *links;
  const char *properties; /* ';'-separated checks, or NULL */
} ValidCase;

static const ValidCase valid_cases[] = {
  /* chains and default names */
  { "fakesrc ! fakesink", "fakesrc0:fakesrc fakesink0:fakesink", "fakesrc0.src>fakesink0.sink", NULL },
  { "fakesrc num-events=10 ! identity ! fakesink",
    "fakesrc0:fakesrc identity0:identity fakesink0:fakesink",
    "fakesrc0.src>identity0.sink identity0.src>fakesink0.sink", "fakesrc0.num-events=10" },
  { "fakesrc name=s ! fakesink name=k", "s:fakesrc k:fakesink", "s.src>k.sink", NULL },
  { "fakesrc ! fakesink  fakesrc ! fakesink", "fakesrc0:fakesrc fakesink0:fakesink fakesrc1:fakesrc fakesink1:fakesink",
    "fakesrc0.src>fakesink0.sink fakesrc1.src>fakesink1.sink", NULL },
  /* a default name skips a name the user gave to a later element */
  { "fakesrc ! fakesink  fakesrc ! fakesink name=fakesink0",
    "fakesrc0:fakesrc fakesink1:fakesink fakesrc1:fakesrc fakesink0:fakesink",
    "fakesrc0.src>fakesink1.sink fakesrc1.src>fakesink0.sink", NULL },
  /* branches through a tee */
  { "fakesrc ! tee name=t  t. ! fakesink  t. ! fakesink",
    "fakesrc0:fakesrc t:tee fakesink0:fakesink fakesink1:fakesink",
    "fakesrc0.src>t.sink t.src_0>fakesink0.sink t.src_1>fakesink1.sink", NULL },
  { "fakesrc ! tee name=t ! fakesink  t. ! queue ! fakesink",
    "fakesrc0:fakesrc t:tee fakesink0:fakesink queue0:queue fakesink1:fakesink",
    "fakesrc0.src>t.sink t.src_0>fakesink0.sink t.src_1>queue0.sink queue0.src>fakesink1.sink", NULL },
  { "fakesrc ! tee name=t  t.src_5 ! fakesink  t.src_2 ! fakesink",
    "fakesrc0:fakesrc t:tee fakesink0:fakesink fakesink1:fakesink",
    "fakesrc0.src>t.sink t.src_5>fakesink0.sink t.src_2>fakesink1.sink", NULL },
  /* merges into a funnel, forward references */
  { "funnel name=f ! fakesink  fakesrc ! f.  fakesrc ! f.",
    "f:funnel fakesink0:fakesink fakesrc0:fakesrc fakesrc1:fakesrc",
    "f.src>fakesink0.sink fakesrc0.src>f.sink_0 fakesrc1.src>f.sink_1", NULL },
  { "fakesrc ! m.  funnel name=m ! fakesink", "fakesrc0:fakesrc m:funnel fakesink0:fakesink",
    "fakesrc0.src>m.sink_0 m.src>fakesink0.sink", NULL },
  /* a named request pad is taken first, whatever the order */
  { "fakesrc ! f.  fakesrc ! f.sink_0  funnel name=f ! fakesink",
    "fakesrc0:fakesrc fakesrc1:fakesrc f:funnel fakesink0:fakesink",
    "fakesrc0.src>f.sink_1 fakesrc1.src>f.sink_0 f.src>fakesink0.sink", NULL },
  /* references on both sides, names that are numbers */
  { "fakesrc name=a fakesink name=b a. ! b.", "a:fakesrc b:fakesink", "a.src>b.sink", NULL },
  { "fakesrc name=100 fakesink name=101 100. ! 101.", "100:fakesrc 101:fakesink", "100.src>101.sink", NULL },
  { "fakesrc name=s s.src ! fakesink", "s:fakesrc fakesink0:fakesink", "s.src>fakesink0.sink", NULL },
  /* layout: blanks around '=', comments, line breaks anywhere, CRLF */
  { "fakesrc num-events = 7 ! fakesink", "fakesrc0:fakesrc fakesink0:fakesink", "fakesrc0.src>fakesink0.sink",
    "fakesrc0.num-events=7" },
  { "# convert\nfakesrc num-events=3 # three events\n  !\n fakesink # end\n",
    "fakesrc0:fakesrc fakesink0:fakesink", "fakesrc0.src>fakesink0.sink", "fakesrc0.num-events=3" },
  { "fakesrc\r\n!\tfakesink\r\n", "fakesrc0:fakesrc fakesink0:fakesink", "fakesrc0.src>fakesink0.sink", NULL },
  { "fakesrc num-events=1 num-events=2 ! fakesink", "fakesrc0:fakesrc fakesink0:fakesink",
    "fakesrc0.src>fakesink0.sink", "fakesrc0.num-events=2" },
  /* quoting and escapes */
  { "test-props name=p text=\"a b ! c\"", "p:test-props", "", "p.text=[a b ! c]" },
  { "test-props name=p text='it\\'s # here'", "p:test-props", "", "p.text=[it's # here]" },
  { "test-props name=p text=\"say \\\"hi\\\" \\\\ now\"", "p:test-props", "", "p.text=[say \"hi\" \\ now]" },
  { "test-props name=p text=\"a\\tb\"", "p:test-props", "", "p.text=[a\tb]" },
  { "test-props name=p text=\"C:\\data\"", "p:test-props", "", "p.text=[C:\\data]" },
  { "test-props name=p text=a\\ b\\!", "p:test-props", "", "p.text=[a b!]" },
  { "test-props name=p text=\"my file\".txt", "p:test-props", "", "p.text=[my file.txt]" },
  { "test-props name=p text=\"\"", "p:test-props", "", "p.text=[]" },
  { "test-props name=p text=a#b", "p:test-props", "", "p.text=[a#b]" },
  { "test-props name=p text=données", "p:test-props", "", "p.text=[données]" },
  /* values converted through the property's type */
  { "test-props name=p int=-10 uint=1000 double=0.25", "p:test-props", "", "p.int=-10;p.uint=1000;p.double=0.25" },
  { "test-props name=p int=100 uint=0x10", "p:test-props", "", "p.int=100;p.uint=16" },
  { "test-props name=p int64=-9223372036854775808 uint64=18446744073709551615", "p:test-props", "",
    "p.int64=-9223372036854775808;p.uint64=18446744073709551615" },
  { "test-props name=p int64=big", "p:test-props", "", "p.int64=1099511627776" },
  { "test-props name=a bool=yes  test-props name=b bool=TRUE  test-props name=c bool=0",
    "a:test-props b:test-props c:test-props", "", "a.bool=true;b.bool=true;c.bool=false" },
  { "test-props name=a mode=slow  test-props name=b mode=TEST_MODE_EXACT_MATCH  test-props name=c mode=1",
    "a:test-props b:test-props c:test-props", "", "a.mode=slow;b.mode=exact-match;c.mode=slow" },
  { "test-props name=a opts=a+c  test-props name=b opts=TEST_OPTS_B|a  test-props name=c opts=\"\"",
    "a:test-props b:test-props c:test-props", "", "a.opts=0x5;b.opts=0x3;c.opts=0x0" },
  { "test-props name=a offset=5ms  test-props name=b offset=1.5s  test-props name=c offset=-20us  "
    "test-props name=d offset=250",
    "a:test-props b:test-props c:test-props d:test-props", "",
    "a.offset=5000000;b.offset=1500000000;c.offset=-20000;d.offset=250" },
  /* properties of request pads */
  { "fakesrc ! m.sink_1  fakesrc ! m.sink_0  test-mux name=m sink_1::offset=5ms ! fakesink",
    "fakesrc0:fakesrc fakesrc1:fakesrc m:test-mux fakesink0:fakesink",
    "fakesrc0.src>m.sink_1 fakesrc1.src>m.sink_0 m.src>fakesink0.sink", "m.sink_1::offset=5000000;m.sink_0::offset=0" },
  { "test-mux name=m sink_1::offset=2s sink_0::offset=-1ms ! fakesink  fakesrc ! m.  fakesrc ! m.",
    "m:test-mux fakesink0:fakesink fakesrc0:fakesrc fakesrc1:fakesrc",
    "m.src>fakesink0.sink fakesrc0.src>m.sink_0 fakesrc1.src>m.sink_1",
    "m.sink_0::offset=-1000000;m.sink_1::offset=2000000000" },
};

static void
test_valid (gconstpointer data)
{
  const ValidCase *c = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) pipeline = trace_parse_launch (c->description, &error);
  g_autofree char *elements = NULL, *links = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (pipeline);
  g_assert_true (TRACE_IS_PIPELINE (pipeline));
  g_assert_false (g_object_is_floating (pipeline));
  elements = describe_elements (pipeline);
  g_assert_cmpstr (elements, ==, c->elements);
  links = describe_links (pipeline);
  g_assert_cmpstr (links, ==, c->links);
  if (c->properties != NULL)
    {
      g_auto (GStrv) checks = g_strsplit (c->properties, ";", -1);

      for (guint i = 0; checks[i] != NULL; i++)
        check_property (pipeline, checks[i]);
    }
}

/* --- invalid descriptions: code and exact message with line:column --- */

typedef struct
{
  const char *description;
  TraceParseError code;
  const char *message;
} InvalidCase;

#define PROPS_LIST "name, int, uint, int64, uint64, double, bool, mode, opts, text, offset"

static const InvalidCase invalid_cases[] = {
  /* empty and syntax */
  { "", TRACE_PARSE_ERROR_EMPTY, "1:1: empty pipeline description" },
  { "  # only a comment\n\n", TRACE_PARSE_ERROR_EMPTY, "1:1: empty pipeline description" },
  { "fakesrc !", TRACE_PARSE_ERROR_SYNTAX, "1:9: \"!\" has nothing after it to link to" },
  { "! fakesink", TRACE_PARSE_ERROR_SYNTAX, "1:1: \"!\" has nothing before it to link from" },
  { "fakesrc ! ! fakesink", TRACE_PARSE_ERROR_SYNTAX, "1:9: \"!\" has nothing after it to link to" },
  { "fakesrc ! fakesink ;", TRACE_PARSE_ERROR_SYNTAX, "1:20: unexpected character \";\"" },
  { "fakesrc \"x\" ! fakesink", TRACE_PARSE_ERROR_SYNTAX,
    "1:9: unexpected quoted text: quotes go around a value, after \"key=\"" },
  { "test-props text=\"abc", TRACE_PARSE_ERROR_SYNTAX,
    "1:17: unterminated quoted text: the double quote here is never closed" },
  { "test-props\n  text='abc", TRACE_PARSE_ERROR_SYNTAX,
    "2:8: unterminated quoted text: the single quote here is never closed" },
  { "test-props int= ! fakesink", TRACE_PARSE_ERROR_SYNTAX, "1:12: \"int=\" has no value (write int=\"\" for an empty one)" },
  { "num-events=5 ! fakesink", TRACE_PARSE_ERROR_SYNTAX, "1:1: property \"num-events\" has no element before it" },
  { "fakesrc ! t. num=1  tee name=t ! fakesink", TRACE_PARSE_ERROR_SYNTAX,
    "1:14: property \"num\" follows the reference \"t.\": set properties where the element is created, "
    "after its factory name" },
  { "fakesrc ! t.src.x", TRACE_PARSE_ERROR_SYNTAX, "1:16: unexpected \".\" after t.src" },
  { "fakesrc ! .src", TRACE_PARSE_ERROR_SYNTAX,
    "1:11: unexpected \".\": a reference is a name followed by a dot, such as \"t.\" or \"t.src_0\"" },
  { "test-mux sink_0:: ! fakesink", TRACE_PARSE_ERROR_SYNTAX, "1:18: expected a property name after \"sink_0::\"" },
  { "test-mux sink_0::offset ! fakesink", TRACE_PARSE_ERROR_SYNTAX,
    "1:10: expected \"=\" and a value after \"sink_0::offset\"" },
  { "fakesrc\xff ! fakesink", TRACE_PARSE_ERROR_SYNTAX, "1:8: unexpected character \"\\xff\"" },
  { "fakesrc ! \xe9t", TRACE_PARSE_ERROR_SYNTAX, "1:11: unexpected character \"\\xe9\"" },
  /* elements */
  { "fakesrc ! fakesnk", TRACE_PARSE_ERROR_NO_SUCH_ELEMENT, "1:11: no element \"fakesnk\" (did you mean \"fakesink\"?)" },
  { "test-prosp", TRACE_PARSE_ERROR_NO_SUCH_ELEMENT, "1:1: no element \"test-prosp\" (did you mean \"test-props\"?)" },
  { "fakesrc\n  ! xyzzy", TRACE_PARSE_ERROR_NO_SUCH_ELEMENT, "2:5: no element \"xyzzy\" (trace-inspect lists the elements)" },
  /* properties and values */
  { "test-props itn=5", TRACE_PARSE_ERROR_NO_SUCH_PROPERTY,
    "1:12: element \"test-props\" has no property \"itn\" (did you mean \"int\"?; its properties: " PROPS_LIST ")" },
  { "test-props text=données itn=1", TRACE_PARSE_ERROR_NO_SUCH_PROPERTY,
    "1:25: element \"test-props\" has no property \"itn\" (did you mean \"int\"?; its properties: " PROPS_LIST ")" },
  { "test-props zzzzzz=1", TRACE_PARSE_ERROR_NO_SUCH_PROPERTY,
    "1:12: element \"test-props\" has no property \"zzzzzz\" (its properties: " PROPS_LIST ")" },
  { "test-props counter=1", TRACE_PARSE_ERROR_NO_SUCH_PROPERTY,
    "1:12: the property \"counter\" of element \"test-props\" cannot be set (it is read-only)" },
  { "test-props int=abc", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:16: \"abc\" is not a valid value for \"int\" (an integer from -10 to 100)" },
  { "test-props int=101", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:16: \"101\" is not a valid value for \"int\" (an integer from -10 to 100)" },
  { "test-props uint=-1", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:17: \"-1\" is not a valid value for \"uint\" (an integer from 0 to 1000)" },
  { "test-props uint64=18446744073709551616", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:19: \"18446744073709551616\" is not a valid value for \"uint64\" (a non-negative 64-bit integer)" },
  { "test-props int64=huge", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:18: \"huge\" is not a valid value for \"int64\" (an integer or \"big\")" },
  { "test-props double=1.5", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:19: \"1.5\" is not a valid value for \"double\" (a number from 0 to 1)" },
  { "test-props bool=maybe", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:17: \"maybe\" is not a valid value for \"bool\" (a boolean: true or false, yes or no, 1 or 0)" },
  { "test-props mode=fsat", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:17: \"fsat\" is not a valid value for \"mode\" (one of \"fast\", \"slow\", \"exact-match\"; did you mean \"fast\"?)" },
  { "test-props opts=a+d", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:17: \"a+d\" is not a valid value for \"opts\" (flags joined with \"+\" from \"a\", \"b\", \"c\")" },
  { "test-props offset=5parsecs", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:19: \"5parsecs\" is not a valid value for \"offset\" (a time such as 5ms, 1.5s or 200us; "
    "a number alone is in nanoseconds)" },
  /* names and references */
  { "fakesrc name=a ! fakesink name=a", TRACE_PARSE_ERROR_DUPLICATE_NAME,
    "1:32: the name \"a\" is already used by the fakesrc at 1:1" },
  { "fakesrc ! m.", TRACE_PARSE_ERROR_NO_SUCH_REFERENCE, "1:11: no element named \"m\" for the reference \"m.\"" },
  { "m. ! fakesink", TRACE_PARSE_ERROR_NO_SUCH_REFERENCE, "1:1: no element named \"m\" for the reference \"m.\"" },
  { "funnel name=mux ! fakesink  fakesrc ! mx.", TRACE_PARSE_ERROR_NO_SUCH_REFERENCE,
    "1:39: no element named \"mx\" for the reference \"mx.\" (did you mean \"mux\"?)" },
  { "fakesrc ! tee name=t ! fakesink  t.", TRACE_PARSE_ERROR_UNLINKED,
    "1:34: the reference \"t.\" is not linked to anything" },
  /* pads */
  { "fakesrc", TRACE_PARSE_ERROR_UNLINKED,
    "1:1: the source pad \"src\" of fakesrc0 is not linked (link it with \"!\" to where its events should go)" },
  { "fakesrc ! fakesink fakesink", TRACE_PARSE_ERROR_UNLINKED,
    "1:20: the sink pad \"sink\" of fakesink1 is not linked (link something to it with \"!\", or it would wait for ever)" },
  { "fakesink ! fakesrc", TRACE_PARSE_ERROR_LINK,
    "1:10: cannot link fakesink0 to fakesrc0: fakesink0 has no source pad (a fakesink cannot come before \"!\")" },
  { "fakesrc ! fakesrc", TRACE_PARSE_ERROR_LINK,
    "1:9: cannot link fakesrc0 to fakesrc1: fakesrc1 has no sink pad (a fakesrc cannot come after \"!\")" },
  { "fakesrc name=s ! fakesink  s. ! fakesink", TRACE_PARSE_ERROR_LINK,
    "1:31: cannot link s to fakesink1: every source pad of s is already linked "
    "(use a tee to send one stream to several elements)" },
  { "fakesrc ! fakesink name=k  fakesrc ! k.", TRACE_PARSE_ERROR_LINK,
    "1:36: cannot link fakesrc1 to k: every sink pad of k is already linked (use a funnel to merge several streams)" },
  { "test-other-src ! fakesink", TRACE_PARSE_ERROR_LINK,
    "1:16: cannot link test-other-src0:src (test/other) to fakesink0:sink (trace/events): the media types differ" },
  { "fakesrc ! tee name=t  t.foo ! fakesink", TRACE_PARSE_ERROR_NO_SUCH_PAD,
    "1:23: \"t\" has no pad \"foo\" (its pads: sink, src_%u on request)" },
  { "fakesrc ! tee name=t  t.sink ! fakesink", TRACE_PARSE_ERROR_LINK,
    "1:23: the pad \"sink\" of \"t\" is a sink pad; it cannot be before \"!\"" },
  { "fakesrc ! tee name=t  t.src_0 ! fakesink  t.src_0 ! fakesink", TRACE_PARSE_ERROR_LINK,
    "1:51: cannot link t:src_0 to fakesink1:sink: t:src_0 is already linked" },
  { "test-mux name=m sink_7::offset=1 ! fakesink  fakesrc ! m.", TRACE_PARSE_ERROR_NO_SUCH_PAD,
    "1:17: m has no pad \"sink_7\" (its pads: src, sink_0, sink_%u on request); a request pad exists once a link "
    "names it, as in \"… ! m.sink_7\"" },
  { "fakesrc ! m.sink_0  test-mux name=m sink_0::ofset=1 ! fakesink", TRACE_PARSE_ERROR_NO_SUCH_PROPERTY,
    "1:37: the pad \"sink_0\" of m has no property \"ofset\" (did you mean \"offset\"?; its properties: offset)" },
  { "fakesrc ! m.sink_0  test-mux name=m sink_0::offset=soon ! fakesink", TRACE_PARSE_ERROR_BAD_VALUE,
    "1:52: \"soon\" is not a valid value for \"offset\" (a time such as 5ms, 1.5s or 200us; a number alone is in "
    "nanoseconds)" },
};

static void
test_invalid (gconstpointer data)
{
  const InvalidCase *c = data;
  g_autoptr (GError) error = NULL;
  TraceElement *pipeline = trace_parse_launch (c->description, &error);

  g_assert_null (pipeline);
  g_assert_error (error, TRACE_PARSE_ERROR, (gint) c->code);
  g_assert_cmpstr (error->message, ==, c->message);
  /* Nothing half-built is left behind. */
  g_assert_cmpuint (test_props_get_n_alive (), ==, 0);
}

/* --- the rest of the API --- */

static void
test_no_error_location (void)
{
  g_assert_null (trace_parse_launch ("fakesrc ! nosuch", NULL));
}

static void
test_failed_parse_frees_elements (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) pipeline = trace_parse_launch ("test-props name=a  test-props name=b", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (test_props_get_n_alive (), ==, 2);
  g_clear_object (&pipeline);
  g_assert_cmpuint (test_props_get_n_alive (), ==, 0);

  /* the two elements created before the error are gone too */
  g_assert_null (trace_parse_launch ("test-props name=a  test-props name=b  test-props name=a", &error));
  g_assert_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_DUPLICATE_NAME);
  g_assert_cmpuint (test_props_get_n_alive (), ==, 0);
}

static void
test_launchv (void)
{
  const char *const split[] = { "test-props", "name=p", "text=my trace.txt", "int=5", NULL };
  const char *const quotes[] = { "test-props", "name=p", "text=say \"x\" \\ !", NULL };
  const char *const one_word[] = { "fakesrc num-events=4 ! fakesink name=k", NULL };
  const char *const bad[] = { "fakesrc", "!", "fakesnk", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) a = trace_parse_launchv (split, &error);
  g_autoptr (TraceElement) b = NULL, c = NULL;

  g_assert_no_error (error);
  check_property (a, "p.text=[my trace.txt]");
  check_property (a, "p.int=5");
  b = trace_parse_launchv (quotes, &error);
  g_assert_no_error (error);
  check_property (b, "p.text=[say \"x\" \\ !]");
  c = trace_parse_launchv (one_word, &error);
  g_assert_no_error (error);
  check_property (c, "fakesrc0.num-events=4");
  g_assert_null (trace_parse_launchv (bad, &error));
  g_assert_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_NO_SUCH_ELEMENT);
  g_assert_cmpstr (error->message, ==, "1:11: no element \"fakesnk\" (did you mean \"fakesink\"?)");
}

static void
add_tests (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (valid_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/launch/valid/%02u", i);

      g_test_add_data_func (path, &valid_cases[i], test_valid);
    }
  for (guint i = 0; i < G_N_ELEMENTS (invalid_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/launch/invalid/%02u", i);

      g_test_add_data_func (path, &invalid_cases[i], test_invalid);
    }
  g_test_add_func ("/launch/no-error-location", test_no_error_location);
  g_test_add_func ("/launch/failed-parse-frees-elements", test_failed_parse_frees_elements);
  g_test_add_func ("/launch/launchv", test_launchv);
}

void add_value_tests (void);

int
main (int argc,
      char **argv)
{
  g_autofree char *empty_dir = NULL;

  g_test_init (&argc, &argv, NULL);
  /* Only the core elements and ours: the messages must not depend on
   * which plugins happen to be built (or fail to load) next to us. */
  empty_dir = g_dir_make_tmp ("launch-test-XXXXXX", NULL);
  g_setenv ("TRACEPIPE_PLUGIN_PATH", "", TRUE);
  g_setenv ("TRACEPIPE_PLUGIN_SYSTEM_PATH", empty_dir, TRUE);
  trace_init (&argc, &argv);
  test_elements_register ();
  add_tests ();
  add_value_tests ();
  {
    int ret = g_test_run ();

    g_rmdir (empty_dir);
    return ret;
  }
}
