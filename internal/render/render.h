/*
 * Logic-less Mustache templates over jansson data (docs/mail.md).
 *
 * The renderer passes every test of the required modules of the Mustache
 * spec (comments, delimiters, interpolation, inverted, partials, sections).
 * The optional modules are not supported: no lambdas, no dynamic partial
 * names, no template inheritance.
 *
 * Data rules, as the spec gives them:
 * - names resolve through the context stack, innermost first; "a.b.c"
 *   resolves "a" that way and then "b" and "c" only inside the value found;
 *   "." is the innermost context itself;
 * - false, null, a missing name and the empty array are falsy; everything
 *   else is truthy, including "" and 0 (the spec's "!!data" rule);
 * - an array section renders once per element, any other truthy value
 *   renders once with the value pushed on the context stack;
 * - strings are inserted as they are, integers in decimal ("85"), reals in
 *   the shortest form that reads back to the same double ("1.21", "100"),
 *   true and false as "true" and "false", null and misses as nothing,
 *   arrays and objects as compact JSON.
 */
#ifndef EST_RENDER_RENDER_H
#define EST_RENDER_RENDER_H

#include <jansson.h>

/* Partials nested deeper than this while rendering make est_render fail. */
#define EST_RENDER_MAX_PARTIAL_DEPTH 64

/*
 * A partial loader: put the template text of the partial `name` (as
 * written in {{>name}}, whitespace trimmed) into *out, a new NUL-terminated
 * heap string that est_render frees. `payload` is what the caller gave
 * est_render. Each name is asked for at most once per est_render call.
 *
 * Returns 0; EST_ENOTFOUND when there is no such partial (it renders as
 * nothing, as the spec asks, and the error message is cleared); any other
 * negative EST_E* code aborts the rendering and est_render returns it with
 * the loader's message.
 */
typedef int (*est_render_partial_fn)(char **out, const char *name, void *payload);

/* Flags for est_render. */
enum {
	EST_RENDER_ESCAPE_HTML = 0, /* {{x}} escapes & " ' < > (the spec default) */
	EST_RENDER_NO_ESCAPE = 1,   /* {{x}} inserts text as {{{x}}} does: plain text, mail */
};

/*
 * Render `template` (NUL-terminated Mustache text) against `data` into
 * *out, a new NUL-terminated heap string the caller frees with free().
 *
 * `data` is borrowed; it may be NULL, which renders as an empty context
 * (every name misses). `flags` is EST_RENDER_ESCAPE_HTML or
 * EST_RENDER_NO_ESCAPE. `partials` loads {{>name}} partials and is given
 * `payload`; with NULL every partial renders as nothing.
 *
 * Errors (with *out untouched):
 * - EST_EINVAL: a malformed template or partial: a tag never closed, a
 *   section never closed, a close tag that does not match the open
 *   section, an empty tag or a name with spaces, a bad set-delimiter tag,
 *   sections nested more than 100 deep;
 *   the message names the line and the tag, e.g.
 *   `line 4: section "units" is never closed; add {{/units}} after its
 *   body`, with
 *   `partial "name": ` in front when the fault is inside a partial (the
 *   caller may add the file name with est_error_prefix). Also EST_EINVAL
 *   when partials nest deeper than EST_RENDER_MAX_PARTIAL_DEPTH, or when
 *   `template` or `out` is NULL or `flags` is unknown.
 * - EST_ENOMEM.
 * - whatever the partial loader returns other than 0 and EST_ENOTFOUND.
 */
int est_render(char **out, const char *template, const json_t *data, int flags,
	       est_render_partial_fn partials, void *payload);

/*
 * A ready-made est_render_partial_fn: reads DIR/NAME.mustache, where `dir`
 * is the folder path (a const char *, NUL-terminated) passed to est_render
 * as its payload. *out is a new heap string the caller frees.
 *
 * Errors: EST_EINVAL for a name that is empty, contains '/' or '\\', or
 * starts with '.' (a template may not reach outside its folder), or a file
 * over 1 MiB; EST_ENOTFOUND when there is no such file; EST_EIO;
 * EST_ENOMEM.
 */
int est_render_file_partials(char **out, const char *name, void *dir);

/* The largest side, in pixels, est_render_png draws, whatever size the SVG claims. */
#define EST_RENDER_PNG_MAX_SIDE 4096

/*
 * The picture of an SVG document (the rendered map.svg) as PNG, for mail
 * clients that show no SVG (render/png.c: librsvg and cairo draw, libpng
 * writes; 8-bit RGB). The image
 * is `width` pixels wide (clamped to 16..EST_RENDER_PNG_MAX_SIDE) and as
 * high as the document's aspect ratio makes it, clamped to
 * EST_RENDER_PNG_MAX_SIDE too, so a document claiming huge dimensions
 * costs no more than a 4096 x 4096 surface; it is drawn on white.
 *
 * The SVG is read with no base file: librsvg then loads no external
 * reference (a file, an http: address, another SVG); only data: URLs
 * inside the document itself are drawn. *png_out is a new buffer of
 * *len_out bytes (caller frees with free()).
 *
 * Errors: EST_EINVAL (the bytes are not an SVG librsvg can read, or it
 * cannot draw it; the message gives librsvg's reason); EST_ERROR (cairo
 * could not make the surface, or libpng could not write it); EST_ENOMEM.
 */
int est_render_png(unsigned char **png_out, size_t *len_out, const char *svg, size_t svg_len,
		   int width);

#endif
