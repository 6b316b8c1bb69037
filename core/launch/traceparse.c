/* tracepipe - building pipelines from launch descriptions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "trace/trace.h"
#include "trace-private.h"

/* Three stages, so that every error has a position and nothing is half
 * built: the lexer turns the text into tokens that remember their byte
 * offsets; the parser groups them into chains of endpoints and links; the
 * builder creates all elements, then resolves the links (so references may
 * point forward), then checks that every pad is linked. On any error the
 * whole pipeline is dropped.
 */

/* In tracevalue.c: "did you mean" hints. */
G_GNUC_INTERNAL const char *_trace_suggest_name (const char *name,
                                                 GPtrArray *candidates);
G_GNUC_INTERNAL char *_trace_unknown_property_message (GObject *object,
                                                       const char *owner,
                                                       const char *key);
G_GNUC_INTERNAL char *_trace_unknown_element_message (const char *name);

typedef enum
{
  TOK_WORD,    /* a factory name: fakesrc */
  TOK_PROP,    /* key=value */
  TOK_PADPROP, /* pad::key=value */
  TOK_REF,     /* name.  or  name.pad */
  TOK_LINK,    /* ! */
  TOK_END,
} TokenKind;

typedef struct
{
  TokenKind kind;
  gsize offset;       /* where the token starts */
  gsize value_offset; /* where the value of a PROP/PADPROP starts */
  char *name;         /* factory, key, or referenced element */
  char *pad;          /* pad of a PADPROP or REF, or NULL */
  char *value;        /* the unquoted, unescaped value */
} Token;

typedef struct
{
  const Token *factory;
  GPtrArray *props; /* const Token*: PROP and PADPROP */
  TraceElement *element;
} ElementNode;

typedef struct
{
  ElementNode *node; /* set for an element, or once a reference resolves */
  const Token *ref;  /* set for a reference */
  TracePad *pad;
} Endpoint;

typedef struct
{
  Endpoint src;
  Endpoint sink;
  gsize offset; /* of the '!' */
} Link;

typedef struct
{
  const char *text;
  GArray *tokens; /* Token */
  guint pos;
  GPtrArray *nodes;           /* ElementNode* */
  GArray *links;              /* Link */
  GHashTable *names;          /* element name -> ElementNode* */
  GHashTable *explicit_names; /* every name=… value, so no default name takes one */
  GHashTable *next_number;    /* factory -> the number its next default name tries */
  TraceElement *pipeline;
} Parser;

static void
token_clear (gpointer data)
{
  Token *t = data;

  g_free (t->name);
  g_free (t->pad);
  g_free (t->value);
}

static void
element_node_free (gpointer data)
{
  ElementNode *node = data;

  g_ptr_array_unref (node->props);
  g_clear_object (&node->element);
  g_free (node);
}

static void
parser_init (Parser *p,
             const char *text)
{
  memset (p, 0, sizeof *p);
  p->text = text;
  p->tokens = g_array_new (FALSE, TRUE, sizeof (Token));
  g_array_set_clear_func (p->tokens, token_clear);
  p->nodes = g_ptr_array_new_with_free_func (element_node_free);
  p->links = g_array_new (FALSE, TRUE, sizeof (Link));
  p->names = g_hash_table_new (g_str_hash, g_str_equal);
  p->explicit_names = g_hash_table_new (g_str_hash, g_str_equal);
  p->next_number = g_hash_table_new (g_str_hash, g_str_equal);
}

static void
parser_clear (Parser *p)
{
  g_hash_table_unref (p->names);
  g_hash_table_unref (p->explicit_names);
  g_hash_table_unref (p->next_number);
  g_array_unref (p->links);
  g_ptr_array_unref (p->nodes);
  g_array_unref (p->tokens);
  g_clear_object (&p->pipeline);
}

/* --- positions and errors --- */

static void
offset_to_line_column (const char *text,
                       gsize offset,
                       guint *line,
                       guint *column)
{
  const char *line_start = text;

  *line = 1;
  for (gsize i = 0; i < offset && text[i] != '\0'; i++)
    if (text[i] == '\n')
      {
        (*line)++;
        line_start = text + i + 1;
      }
  /* Columns count characters, not bytes, so that a caret under a UTF-8
   * path lands where the user sees it. */
  *column = 1 + g_utf8_strlen (line_start, text + offset - line_start);
}

static gboolean
parse_error (Parser *p,
             GError **error,
             gsize offset,
             TraceParseError code,
             const char *format,
             ...) G_GNUC_PRINTF (5, 6);

static gboolean
parse_error (Parser *p,
             GError **error,
             gsize offset,
             TraceParseError code,
             const char *format,
             ...)
{
  g_autofree char *message = NULL, *shown = NULL;
  guint line, column;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  offset_to_line_column (p->text, offset, &line, &column);
  /* Names, values and references of any length are quoted in messages:
   * a 100 MB one must not make a 100 MB line. */
  shown = _trace_cut_quoted_segments (message);
  g_set_error (error, TRACE_PARSE_ERROR, code, "%u:%u: %s", line, column, shown);
  return FALSE;
}

/* --- lexer --- */

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-' || c == '%';
}

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static gsize
skip_space_and_comments (const char *text,
                         gsize i)
{
  for (;;)
    {
      while (is_space (text[i]))
        i++;
      if (text[i] != '#')
        return i;
      while (text[i] != '\0' && text[i] != '\n')
        i++;
    }
}

static gsize
read_ident (const char *text,
            gsize i)
{
  while (is_ident_char (text[i]))
    i++;
  return i;
}

static Token *
push_token (Parser *p,
            TokenKind kind,
            gsize offset)
{
  Token t = { kind, offset, offset, NULL, NULL, NULL };

  g_array_append_val (p->tokens, t);
  return &g_array_index (p->tokens, Token, p->tokens->len - 1);
}

/* Inside "…": \" \\ \n \t are escapes; any other backslash stays, so a
 * Windows-like path "C:\data" survives. Inside '…': only \' and \\. */
static gboolean
lex_quoted (Parser *p,
            gsize *i,
            GString *out,
            GError **error)
{
  const char *text = p->text;
  char quote = text[*i];
  gsize start = *i, j = *i + 1;

  for (; text[j] != quote; j++)
    {
      if (text[j] == '\0')
        return parse_error (p, error, start, TRACE_PARSE_ERROR_SYNTAX,
                            "unterminated quoted text: the %s quote here is never closed",
                            quote == '"' ? "double" : "single");
      if (text[j] != '\\' || text[j + 1] == '\0')
        {
          g_string_append_c (out, text[j]);
          continue;
        }
      if (text[j + 1] == quote || text[j + 1] == '\\')
        g_string_append_c (out, text[++j]);
      else if (quote == '"' && text[j + 1] == 'n')
        g_string_append_c (out, '\n'), j++;
      else if (quote == '"' && text[j + 1] == 't')
        g_string_append_c (out, '\t'), j++;
      else
        g_string_append_c (out, '\\');
    }
  *i = j + 1;
  return TRUE;
}

/* A value runs to the next blank or '!'; quoted pieces and backslash
 * escapes may be glued together as in a shell: "my file".txt */
static gboolean
lex_value (Parser *p,
           gsize key_offset,
           const char *key,
           gsize *i,
           Token *tok,
           GError **error)
{
  const char *text = p->text;
  g_autoptr (GString) value = g_string_new (NULL);
  gsize j = *i;

  while (text[j] == ' ' || text[j] == '\t')
    j++;
  if (text[j] == '\0' || is_space (text[j]) || text[j] == '!')
    return parse_error (p, error, key_offset, TRACE_PARSE_ERROR_SYNTAX,
                        "\"%s=\" has no value (write %s=\"\" for an empty one)", key, key);
  tok->value_offset = j;
  while (text[j] != '\0' && !is_space (text[j]) && text[j] != '!')
    {
      if (text[j] == '"' || text[j] == '\'')
        {
          if (!lex_quoted (p, &j, value, error))
            return FALSE;
        }
      else if (text[j] == '\\' && text[j + 1] != '\0')
        {
          g_string_append_c (value, text[j + 1]);
          j += 2;
        }
      else
        g_string_append_c (value, text[j++]);
    }
  tok->value = g_string_free (g_steal_pointer (&value), FALSE);
  *i = j;
  return TRUE;
}

/* The character at @c for a message: the whole UTF-8 sequence (one byte
 * of it is no text), or `\xNN` for a byte that starts none, since the
 * description may hold any bytes (a file name) and messages are UTF-8. */
static char *
describe_char (const char *c)
{
  const char *next = g_utf8_next_char (c);

  if (memchr (c, '\0', next - c) != NULL || !g_utf8_validate (c, next - c, NULL))
    return g_strdup_printf ("\\x%02x", (guchar) *c);
  return g_strndup (c, next - c);
}

static gboolean
check_token_end (Parser *p,
                 gsize i,
                 const char *what,
                 GError **error)
{
  const char *c = p->text + i;
  g_autofree char *ch = NULL;

  if (*c == '\0' || is_space (*c) || *c == '!' || *c == '#')
    return TRUE;
  ch = describe_char (c);
  return parse_error (p, error, i, TRACE_PARSE_ERROR_SYNTAX,
                      "unexpected \"%s\" after %s", ch, what);
}

static gboolean
lex_reference (Parser *p,
               gsize start,
               gsize *i,
               GError **error)
{
  Token *tok = push_token (p, TOK_REF, start);
  gsize dot = *i, end = read_ident (p->text, dot + 1);
  g_autofree char *what = NULL;

  tok->name = g_strndup (p->text + start, dot - start);
  if (end > dot + 1)
    tok->pad = g_strndup (p->text + dot + 1, end - dot - 1);
  what = g_strndup (p->text + start, end - start);
  *i = end;
  return check_token_end (p, end, what, error);
}

static gboolean
lex_pad_property (Parser *p,
                  gsize start,
                  gsize *i,
                  GError **error)
{
  Token *tok = push_token (p, TOK_PADPROP, start);
  gsize key_start = *i + 2, key_end = read_ident (p->text, key_start), j;

  tok->pad = g_strndup (p->text + start, *i - start);
  if (key_end == key_start)
    return parse_error (p, error, key_start, TRACE_PARSE_ERROR_SYNTAX,
                        "expected a property name after \"%s::\"", tok->pad);
  tok->name = g_strndup (p->text + key_start, key_end - key_start);
  j = key_end;
  while (p->text[j] == ' ' || p->text[j] == '\t')
    j++;
  if (p->text[j] != '=')
    return parse_error (p, error, start, TRACE_PARSE_ERROR_SYNTAX,
                        "expected \"=\" and a value after \"%s::%s\"", tok->pad, tok->name);
  *i = j + 1;
  return lex_value (p, start, tok->name, i, tok, error);
}

static gboolean
lex_word (Parser *p,
          gsize *i,
          GError **error)
{
  const char *text = p->text;
  gsize start = *i, end = read_ident (text, start), j = end;
  Token *tok;

  if (text[end] == '.')
    {
      *i = end;
      return lex_reference (p, start, i, error);
    }
  if (text[end] == ':' && text[end + 1] == ':')
    {
      *i = end;
      return lex_pad_property (p, start, i, error);
    }
  while (is_space (text[j]))
    j++;
  if (text[j] == '=')
    {
      tok = push_token (p, TOK_PROP, start);
      tok->name = g_strndup (text + start, end - start);
      *i = j + 1;
      return lex_value (p, start, tok->name, i, tok, error);
    }
  tok = push_token (p, TOK_WORD, start);
  tok->name = g_strndup (text + start, end - start);
  *i = end;
  return TRUE;
}

static gboolean
lex_unexpected (Parser *p,
                gsize i,
                GError **error)
{
  const char *c = p->text + i;
  g_autofree char *ch = describe_char (c);

  if (*c == '"' || *c == '\'')
    return parse_error (p, error, i, TRACE_PARSE_ERROR_SYNTAX,
                        "unexpected quoted text: quotes go around a value, after \"key=\"");
  if (*c == '.')
    return parse_error (p, error, i, TRACE_PARSE_ERROR_SYNTAX,
                        "unexpected \".\": a reference is a name followed by a dot, such as \"t.\" or \"t.src_0\"");
  if (*c == '=')
    return parse_error (p, error, i, TRACE_PARSE_ERROR_SYNTAX,
                        "unexpected \"=\": a property needs a name before it, such as \"location=…\"");
  return parse_error (p, error, i, TRACE_PARSE_ERROR_SYNTAX, "unexpected character \"%s\"", ch);
}

static gboolean
lex (Parser *p,
     GError **error)
{
  gsize i = 0;

  /* Not checked for UTF-8: a value may be a file name, which is any
   * bytes the filesystem takes; names and keywords are ASCII anyway. */
  for (;;)
    {
      i = skip_space_and_comments (p->text, i);
      if (p->text[i] == '\0')
        break;
      if (p->text[i] == '!')
        push_token (p, TOK_LINK, i++);
      else if (is_ident_char (p->text[i]))
        {
          if (!lex_word (p, &i, error))
            return FALSE;
        }
      else
        return lex_unexpected (p, i, error);
    }
  push_token (p, TOK_END, i);
  return TRUE;
}

/* --- parser: tokens to element nodes and links --- */

static const Token *
peek (Parser *p)
{
  return &g_array_index (p->tokens, Token, p->pos);
}

static gboolean
parse_endpoint (Parser *p,
                Endpoint *ep,
                GError **error)
{
  const Token *t = peek (p);
  ElementNode *node;

  memset (ep, 0, sizeof *ep);
  if (t->kind == TOK_REF)
    {
      ep->ref = t;
      p->pos++;
      if (peek (p)->kind == TOK_PROP || peek (p)->kind == TOK_PADPROP)
        return parse_error (p, error, peek (p)->offset, TRACE_PARSE_ERROR_SYNTAX,
                            "property \"%s\" follows the reference \"%s.\": set properties "
                            "where the element is created, after its factory name",
                            peek (p)->name, t->name);
      return TRUE;
    }
  if (t->kind == TOK_PROP || t->kind == TOK_PADPROP)
    return parse_error (p, error, t->offset, TRACE_PARSE_ERROR_SYNTAX,
                        "property \"%s\" has no element before it", t->name);
  g_assert (t->kind == TOK_WORD);
  node = g_new0 (ElementNode, 1);
  node->factory = t;
  node->props = g_ptr_array_new ();
  g_ptr_array_add (p->nodes, node);
  for (p->pos++; peek (p)->kind == TOK_PROP || peek (p)->kind == TOK_PADPROP; p->pos++)
    g_ptr_array_add (node->props, (gpointer) peek (p));
  ep->node = node;
  return TRUE;
}

static gboolean
parse_chain (Parser *p,
             GError **error)
{
  Endpoint prev;
  const Token *first = peek (p);
  gboolean linked = FALSE;

  if (first->kind == TOK_LINK)
    return parse_error (p, error, first->offset, TRACE_PARSE_ERROR_SYNTAX,
                        "\"!\" has nothing before it to link from");
  if (!parse_endpoint (p, &prev, error))
    return FALSE;
  while (peek (p)->kind == TOK_LINK)
    {
      Link link = { { 0 }, { 0 }, peek (p)->offset };
      TokenKind next;

      p->pos++;
      next = peek (p)->kind;
      if (next == TOK_END || next == TOK_LINK)
        return parse_error (p, error, link.offset, TRACE_PARSE_ERROR_SYNTAX,
                            "\"!\" has nothing after it to link to");
      link.src = prev;
      if (!parse_endpoint (p, &link.sink, error))
        return FALSE;
      prev = link.sink;
      g_array_append_val (p->links, link);
      linked = TRUE;
    }
  if (first->kind == TOK_REF && !linked)
    return parse_error (p, error, first->offset, TRACE_PARSE_ERROR_UNLINKED,
                        "the reference \"%s.%s\" is not linked to anything",
                        first->name, first->pad ? first->pad : "");
  return TRUE;
}

static gboolean
parse (Parser *p,
       GError **error)
{
  if (peek (p)->kind == TOK_END)
    return parse_error (p, error, 0, TRACE_PARSE_ERROR_EMPTY,
                        "empty pipeline description");
  while (peek (p)->kind != TOK_END)
    if (!parse_chain (p, error))
      return FALSE;
  return TRUE;
}

/* --- builder: elements and their properties --- */

static gboolean
no_such_property (Parser *p,
                  const Token *t,
                  GObject *object,
                  const char *owner,
                  GError **error)
{
  g_autofree char *message = _trace_unknown_property_message (object, owner, t->name);

  return parse_error (p, error, t->offset, TRACE_PARSE_ERROR_NO_SUCH_PROPERTY, "%s", message);
}

static gboolean
set_property (Parser *p,
              const Token *t,
              GObject *object,
              const char *owner,
              GError **error)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), t->name);
  g_auto (GValue) value = G_VALUE_INIT;
  g_autoptr (GError) local = NULL;

  if (pspec == NULL)
    return no_such_property (p, t, object, owner, error);
  if (!(pspec->flags & G_PARAM_WRITABLE) || (pspec->flags & G_PARAM_CONSTRUCT_ONLY))
    return parse_error (p, error, t->offset, TRACE_PARSE_ERROR_NO_SUCH_PROPERTY,
                        "the property \"%s\" of %s cannot be set (it is read-only)",
                        t->name, owner);
  if (!trace_value_from_string (pspec, t->value, &value, &local))
    return parse_error (p, error, t->value_offset, TRACE_PARSE_ERROR_BAD_VALUE,
                        "%s", local->message);
  g_object_set_property (object, t->name, &value);
  return TRUE;
}

static gboolean
no_such_element (Parser *p,
                 const Token *t,
                 GError **error)
{
  g_autofree char *message = _trace_unknown_element_message (t->name);

  return parse_error (p, error, t->offset, TRACE_PARSE_ERROR_NO_SUCH_ELEMENT, "%s", message);
}

/* The last name=… of the element, or NULL. */
static const Token *
find_name_prop (ElementNode *node)
{
  const Token *found = NULL;

  for (guint i = 0; i < node->props->len; i++)
    {
      const Token *t = g_ptr_array_index (node->props, i);

      if (t->kind == TOK_PROP && strcmp (t->name, "name") == 0)
        found = t;
    }
  return found;
}

static gboolean
duplicate_name (Parser *p,
                gsize offset,
                const char *name,
                GError **error)
{
  ElementNode *other = g_hash_table_lookup (p->names, name);
  guint line = 0, column = 0;

  if (other != NULL)
    offset_to_line_column (p->text, other->factory->offset, &line, &column);
  if (other == NULL)
    return parse_error (p, error, offset, TRACE_PARSE_ERROR_DUPLICATE_NAME,
                        "the name \"%s\" is already used in the pipeline", name);
  return parse_error (p, error, offset, TRACE_PARSE_ERROR_DUPLICATE_NAME,
                      "the name \"%s\" is already used by the %s at %u:%u",
                      name, other->factory->name, line, column);
}

/* Unnamed elements are numbered per factory within the description
 * (fakesrc0, fakesrc1), skipping names the user gave, so the names in
 * messages do not depend on what else the process built before. */
static char *
default_name (Parser *p,
              ElementNode *node)
{
  const char *factory = node->factory->name;

  /* Numbers only grow, so each factory's count resumes where it stopped:
   * n elements of one factory cost n probes, not n². */
  for (guint i = GPOINTER_TO_UINT (g_hash_table_lookup (p->next_number, factory));; i++)
    {
      char *candidate = g_strdup_printf ("%s%u", factory, i);

      if (!g_hash_table_contains (p->names, candidate) &&
          !g_hash_table_contains (p->explicit_names, candidate))
        {
          g_hash_table_insert (p->next_number, (gpointer) factory, GUINT_TO_POINTER (i + 1));
          return candidate;
        }
      g_free (candidate);
    }
}

static gboolean
create_element (Parser *p,
                ElementNode *node,
                GError **error)
{
  const Token *name_tok = find_name_prop (node);
  g_autofree char *generated = name_tok ? NULL : default_name (p, node);
  const char *name = name_tok ? name_tok->value : generated;
  g_autoptr (GError) local = NULL;
  g_autofree char *owner = NULL;

  if (g_hash_table_contains (p->names, name))
    return duplicate_name (p, name_tok->value_offset, name, error);
  /* A name is in every message of its element, unquoted: keep it short. */
  if (name_tok != NULL && strlen (name) > TRACE_QUOTED_VALUE_MAX)
    return parse_error (p, error, name_tok->value_offset, TRACE_PARSE_ERROR_BAD_VALUE,
                        "an element name is at most %d bytes, and \"%s\" has %" G_GSIZE_FORMAT, TRACE_QUOTED_VALUE_MAX,
                        name, strlen (name));
  node->element = trace_element_factory_make_checked (node->factory->name, name, &local);
  if (node->element == NULL)
    {
      if (g_error_matches (local, TRACE_CORE_ERROR, TRACE_CORE_ERROR_NO_SUCH_ELEMENT) ||
          trace_element_factory_find (node->factory->name) == NULL)
        return no_such_element (p, node->factory, error);
      return parse_error (p, error, node->factory->offset, TRACE_PARSE_ERROR_NO_SUCH_ELEMENT,
                          "could not create a \"%s\": %s", node->factory->name, local->message);
    }
  g_object_ref_sink (node->element);
  owner = g_strdup_printf ("element \"%s\"", node->factory->name);
  for (guint i = 0; i < node->props->len; i++)
    {
      const Token *t = g_ptr_array_index (node->props, i);

      if (t->kind == TOK_PROP && t != name_tok && strcmp (t->name, "name") != 0 &&
          !set_property (p, t, G_OBJECT (node->element), owner, error))
        return FALSE;
    }
  name = trace_element_get_name (node->element);
  if (g_hash_table_contains (p->names, name) || !trace_bin_add (TRACE_BIN (p->pipeline), node->element))
    return duplicate_name (p, name_tok ? name_tok->value_offset : node->factory->offset, name, error);
  g_hash_table_insert (p->names, (gpointer) name, node);
  return TRUE;
}

/* --- builder: pads and links --- */

/* The REQUEST template of @direction. */
static TracePadTemplate *
find_request_template (TraceElement *element,
                       TracePadDirection direction)
{
  g_autoptr (GList) templates = trace_element_class_get_pad_template_list (TRACE_ELEMENT_GET_CLASS (element));

  for (GList *l = templates; l != NULL; l = l->next)
    {
      TracePadTemplate *templ = l->data;

      if (trace_pad_template_get_presence (templ) == TRACE_PAD_REQUEST &&
          trace_pad_template_get_direction (templ) == direction)
        return templ;
    }
  return NULL;
}

static gboolean
has_direction (TraceElement *element,
               TracePadDirection direction)
{
  g_autoptr (GList) templates = trace_element_class_get_pad_template_list (TRACE_ELEMENT_GET_CLASS (element));

  for (const GList *l = trace_element_get_pads (element); l != NULL; l = l->next)
    if (trace_pad_get_direction (l->data) == direction)
      return TRUE;
  for (GList *l = templates; l != NULL; l = l->next)
    if (trace_pad_template_get_direction (l->data) == direction)
      return TRUE;
  return FALSE;
}

static const char *
direction_word (TracePadDirection direction)
{
  return direction == TRACE_PAD_SRC ? "source" : "sink";
}

static char *
describe_pads (TraceElement *element)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GList) templates = trace_element_class_get_pad_template_list (TRACE_ELEMENT_GET_CLASS (element));

  for (const GList *l = trace_element_get_pads (element); l != NULL; l = l->next)
    g_string_append_printf (s, "%s%s", s->len ? ", " : "", trace_pad_get_name (l->data));
  for (GList *l = templates; l != NULL; l = l->next)
    if (trace_pad_template_get_presence (l->data) == TRACE_PAD_REQUEST)
      g_string_append_printf (s, "%s%s on request", s->len ? ", " : "",
                              trace_pad_template_get_name_template (l->data));
  if (s->len == 0)
    g_string_append (s, "none");
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* An explicitly named pad: an existing one, or a new one from a REQUEST
 * template that matches the name (trace_element_request_pad() knows). */
static gboolean
get_named_pad (Parser *p,
               Endpoint *ep,
               TracePadDirection direction,
               GError **error)
{
  TraceElement *element = ep->node->element;
  const char *name = ep->ref->pad;
  TracePad *pad = trace_element_get_static_pad (element, name);

  if (pad == NULL)
    pad = trace_element_request_pad (element, name, NULL);
  if (pad == NULL)
    {
      g_autofree char *pads = describe_pads (element);

      return parse_error (p, error, ep->ref->offset, TRACE_PARSE_ERROR_NO_SUCH_PAD,
                          "\"%s\" has no pad \"%s\" (its pads: %s)", ep->ref->name, name, pads);
    }
  if (trace_pad_get_direction (pad) != direction)
    return parse_error (p, error, ep->ref->offset, TRACE_PARSE_ERROR_LINK,
                        "the pad \"%s\" of \"%s\" is a %s pad; it cannot be %s \"!\"",
                        name, ep->ref->name, direction_word (trace_pad_get_direction (pad)),
                        direction == TRACE_PAD_SRC ? "before" : "after");
  ep->pad = pad;
  return TRUE;
}

static gboolean
resolve_endpoint (Parser *p,
                  Endpoint *ep,
                  TracePadDirection direction,
                  GError **error)
{
  if (ep->ref == NULL)
    return TRUE;
  ep->node = g_hash_table_lookup (p->names, ep->ref->name);
  if (ep->node == NULL)
    {
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      const char *guess;

      for (guint i = 0; i < p->nodes->len; i++)
        {
          ElementNode *node = g_ptr_array_index (p->nodes, i);

          g_ptr_array_add (names, (gpointer) trace_element_get_name (node->element));
        }
      guess = _trace_suggest_name (ep->ref->name, names);
      return parse_error (p, error, ep->ref->offset, TRACE_PARSE_ERROR_NO_SUCH_REFERENCE,
                          "no element named \"%s\" for the reference \"%s.\"%s%s%s",
                          ep->ref->name, ep->ref->name,
                          guess ? " (did you mean \"" : "", guess ? guess : "", guess ? "\"?)" : "");
    }
  if (ep->ref->pad != NULL)
    return get_named_pad (p, ep, direction, error);
  return TRUE;
}

static const char *
endpoint_name (Endpoint *ep)
{
  return trace_element_get_name (ep->node->element);
}

static gboolean
no_free_pad (Parser *p,
             Link *link,
             TracePadDirection direction,
             GError **error)
{
  Endpoint *ep = direction == TRACE_PAD_SRC ? &link->src : &link->sink;
  const char *factory = trace_element_get_factory_name (ep->node->element);

  if (!has_direction (ep->node->element, direction))
    return parse_error (p, error, link->offset, TRACE_PARSE_ERROR_LINK,
                        "cannot link %s to %s: %s has no %s pad (a %s cannot come %s \"!\")",
                        endpoint_name (&link->src), endpoint_name (&link->sink), endpoint_name (ep),
                        direction_word (direction), factory ? factory : "element",
                        direction == TRACE_PAD_SRC ? "before" : "after");
  return parse_error (p, error, link->offset, TRACE_PARSE_ERROR_LINK,
                      "cannot link %s to %s: every %s pad of %s is already linked (%s)",
                      endpoint_name (&link->src), endpoint_name (&link->sink),
                      direction_word (direction), endpoint_name (ep),
                      direction == TRACE_PAD_SRC ? "use a tee to send one stream to several elements"
                                                 : "use a funnel to merge several streams");
}

/* An unnamed side of a link: the first free ALWAYS pad of the direction,
 * else a new pad from the REQUEST template. */
static gboolean
pick_pad (Parser *p,
          Link *link,
          TracePadDirection direction,
          GError **error)
{
  Endpoint *ep = direction == TRACE_PAD_SRC ? &link->src : &link->sink;
  TraceElement *element = ep->node->element;
  TracePadTemplate *templ;
  g_autoptr (GError) local = NULL;

  for (const GList *l = trace_element_get_pads (element); l != NULL; l = l->next)
    {
      TracePad *pad = l->data;
      TracePadTemplate *pt = trace_pad_get_template (pad);

      if (trace_pad_get_direction (pad) == direction && !trace_pad_is_linked (pad) &&
          (pt == NULL || trace_pad_template_get_presence (pt) == TRACE_PAD_ALWAYS))
        {
          ep->pad = pad;
          return TRUE;
        }
    }
  templ = find_request_template (element, direction);
  if (templ == NULL)
    return no_free_pad (p, link, direction, error);
  ep->pad = trace_element_request_pad (element, trace_pad_template_get_name_template (templ), &local);
  if (ep->pad == NULL)
    return parse_error (p, error, link->offset, TRACE_PARSE_ERROR_LINK,
                        "cannot link %s to %s: %s refused a new %s pad: %s",
                        endpoint_name (&link->src), endpoint_name (&link->sink), endpoint_name (ep),
                        direction_word (direction), local ? local->message : "no reason given");
  return TRUE;
}

static gboolean
link_pads (Parser *p,
           Link *link,
           GError **error)
{
  g_autoptr (GError) local = NULL;

  if (link->src.pad == NULL && !pick_pad (p, link, TRACE_PAD_SRC, error))
    return FALSE;
  if (link->sink.pad == NULL && !pick_pad (p, link, TRACE_PAD_SINK, error))
    return FALSE;
  if (!trace_pad_link (link->src.pad, link->sink.pad, &local))
    return parse_error (p, error, link->offset, TRACE_PARSE_ERROR_LINK, "%s", local->message);
  return TRUE;
}

static gboolean
set_pad_properties (Parser *p,
                    ElementNode *node,
                    GError **error)
{
  const char *name = trace_element_get_name (node->element);

  for (guint i = 0; i < node->props->len; i++)
    {
      const Token *t = g_ptr_array_index (node->props, i);
      TracePad *pad;
      g_autofree char *owner = NULL;

      if (t->kind != TOK_PADPROP)
        continue;
      pad = trace_element_get_static_pad (node->element, t->pad);
      if (pad == NULL)
        {
          g_autofree char *pads = describe_pads (node->element);

          return parse_error (p, error, t->offset, TRACE_PARSE_ERROR_NO_SUCH_PAD,
                              "%s has no pad \"%s\" (its pads: %s); a request pad exists once a "
                              "link names it, as in \"… ! %s.%s\"",
                              name, t->pad, pads, name, t->pad);
        }
      owner = g_strdup_printf ("the pad \"%s\" of %s", t->pad, name);
      if (!set_property (p, t, G_OBJECT (pad), owner, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_all_linked (Parser *p,
                  ElementNode *node,
                  GError **error)
{
  for (const GList *l = trace_element_get_pads (node->element); l != NULL; l = l->next)
    {
      TracePad *pad = l->data;

      if (!trace_pad_is_linked (pad))
        return parse_error (p, error, node->factory->offset, TRACE_PARSE_ERROR_UNLINKED,
                            "the %s pad \"%s\" of %s is not linked (%s)",
                            direction_word (trace_pad_get_direction (pad)), trace_pad_get_name (pad),
                            trace_element_get_name (node->element),
                            trace_pad_get_direction (pad) == TRACE_PAD_SRC
                                ? "link it with \"!\" to where its events should go"
                                : "link something to it with \"!\", or it would wait for ever");
    }
  return TRUE;
}

/* Two sinks that would write one file: the error points at the second
 * one's location (or its factory name). */
static gboolean
check_outputs (Parser *p,
               GError **error)
{
  g_autoptr (GError) local = NULL;
  TraceElement *first, *second;
  ElementNode *node;
  gsize offset;

  if (!_trace_file_sink_find_shared_output (TRACE_BIN (p->pipeline), &first, &second, &local))
    return TRUE;
  node = g_hash_table_lookup (p->names, trace_element_get_name (second));
  offset = node->factory->offset;
  for (guint i = 0; i < node->props->len; i++)
    {
      const Token *t = g_ptr_array_index (node->props, i);

      if (t->kind == TOK_PROP && strcmp (t->name, "location") == 0)
        offset = t->value_offset;
    }
  return parse_error (p, error, offset, TRACE_PARSE_ERROR_SAME_OUTPUT, "%s", local->message);
}

static gboolean
build (Parser *p,
       GError **error)
{
  p->pipeline = g_object_ref_sink (trace_pipeline_new (NULL));
  for (guint i = 0; i < p->nodes->len; i++)
    {
      const Token *name_tok = find_name_prop (g_ptr_array_index (p->nodes, i));

      if (name_tok != NULL)
        g_hash_table_add (p->explicit_names, name_tok->value);
    }
  for (guint i = 0; i < p->nodes->len; i++)
    if (!create_element (p, g_ptr_array_index (p->nodes, i), error))
      return FALSE;
  /* Named pads first, so that "a ! m.  b ! m.sink_0" gives sink_0 to b
   * and a new pad to a, whatever the order. */
  for (guint i = 0; i < p->links->len; i++)
    {
      Link *link = &g_array_index (p->links, Link, i);

      if (!resolve_endpoint (p, &link->src, TRACE_PAD_SRC, error) ||
          !resolve_endpoint (p, &link->sink, TRACE_PAD_SINK, error))
        return FALSE;
    }
  for (guint i = 0; i < p->links->len; i++)
    if (!link_pads (p, &g_array_index (p->links, Link, i), error))
      return FALSE;
  for (guint i = 0; i < p->nodes->len; i++)
    if (!set_pad_properties (p, g_ptr_array_index (p->nodes, i), error))
      return FALSE;
  for (guint i = 0; i < p->nodes->len; i++)
    if (!check_all_linked (p, g_ptr_array_index (p->nodes, i), error))
      return FALSE;
  return check_outputs (p, error);
}

/**
 * trace_parse_launch:
 * @description: a launch description such as
 *   `fakesrc num-events=10 ! fakesink`
 * @error: where to say what is wrong, in %TRACE_PARSE_ERROR, as
 *   `line:column: message`
 *
 * Builds a pipeline from a description (the grammar is in
 * `docs/launch-syntax.md`). Every element is created and every link made
 * before this returns; references may point forward. On any error nothing
 * is returned: there are no half-built pipelines.
 *
 * Returns: (transfer full) (nullable): a #TracePipeline, or %NULL
 */
TraceElement *
trace_parse_launch (const char *description,
                    GError **error)
{
  Parser p;
  TraceElement *result = NULL;

  g_return_val_if_fail (description != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  parser_init (&p, description);
  if (lex (&p, error) && parse (&p, error) && build (&p, error))
    result = g_steal_pointer (&p.pipeline);
  parser_clear (&p);
  return result;
}

/* key=value words from a shell keep their spaces: the value gets quotes. */
static void
append_argument (GString *out,
                 const char *arg)
{
  const char *eq = strchr (arg, '=');
  gboolean is_property = eq != NULL && eq > arg;

  for (const char *c = arg; is_property && c < eq; c++)
    if (!is_ident_char (*c) && *c != ':')
      is_property = FALSE;
  if (!is_property || eq[1] == '"' || eq[1] == '\'' || strpbrk (eq + 1, " \t\n!#\"'\\") == NULL)
    {
      g_string_append (out, arg);
      return;
    }
  g_string_append_len (out, arg, eq + 1 - arg);
  g_string_append_c (out, '"');
  for (const char *c = eq + 1; *c != '\0'; c++)
    {
      if (*c == '"' || *c == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *c);
    }
  g_string_append_c (out, '"');
}

/**
 * trace_parse_launchv:
 * @argv: (array zero-terminated=1): the words of a description, as a shell
 *   split them
 * @error: where to say what is wrong
 *
 * Joins @argv with spaces and parses the result with trace_parse_launch().
 * A word of the form `key=value` whose value holds blanks or special
 * characters (a shell already removed the user's quotes) is quoted, so
 * `location="my trace.txt"` typed in a shell works. Error positions refer
 * to the joined text.
 *
 * Returns: (transfer full) (nullable): a #TracePipeline, or %NULL
 */
TraceElement *
trace_parse_launchv (const char *const *argv,
                     GError **error)
{
  g_autoptr (GString) joined = g_string_new (NULL);

  g_return_val_if_fail (argv != NULL, NULL);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (joined, ' ');
      append_argument (joined, argv[i]);
    }
  return trace_parse_launch (joined->str, error);
}
