/*
 * The map as PNG for mail (render.h est_render_png): librsvg reads the SVG
 * text render made from map.svg.mustache, cairo draws it on an image
 * surface and writes the PNG. Mail clients that show no SVG inline show
 * this picture; map.svg itself stays attached and committed.
 */
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <librsvg/rsvg.h>

#include "render/render.h"
#include "util/error.h"

#define MIN_SIDE 16

struct png_buf {
	unsigned char *ptr;
	size_t len, cap;
	int oom;
};

static cairo_status_t png_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct png_buf *b = closure;

	if (b->cap - b->len < len) {
		size_t cap = b->cap ? b->cap : 65536;
		unsigned char *grown;

		while (cap - b->len < len)
			cap *= 2;
		if (!(grown = realloc(b->ptr, cap))) {
			b->oom = 1;
			return CAIRO_STATUS_NO_MEMORY;
		}
		b->ptr = grown;
		b->cap = cap;
	}
	memcpy(b->ptr + b->len, data, len);
	b->len += len;
	return CAIRO_STATUS_SUCCESS;
}

static int clamp(double v)
{
	if (!(v >= MIN_SIDE)) /* NaN too */
		return MIN_SIDE;
	return v > EST_RENDER_PNG_MAX_SIDE ? EST_RENDER_PNG_MAX_SIDE : (int)(v + 0.5);
}

/*
 * The picture's height for `width`: the document's own aspect ratio, from
 * its size in pixels or else its viewBox; square when it states neither.
 */
static int height_for(RsvgHandle *handle, int width)
{
	gdouble w = 0, h = 0;
	gboolean has_w, has_h, has_box;
	RsvgLength lw, lh;
	RsvgRectangle box;

	if (rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) && w > 0 && h > 0)
		return clamp(width * (h / w));
	rsvg_handle_get_intrinsic_dimensions(handle, &has_w, &lw, &has_h, &lh, &has_box, &box);
	if (has_box && box.width > 0 && box.height > 0)
		return clamp(width * (box.height / box.width));
	return width;
}

static int rsvg_failed(GError *gerr, const char *what)
{
	int error = est_error_set(EST_EINVAL, "map.svg: librsvg cannot %s it: %s; fix the map "
				  "template (render it with estafette report --format svg)", what,
				  gerr && gerr->message ? gerr->message : "no reason given");
	if (gerr)
		g_error_free(gerr);
	return error;
}

int est_render_png(unsigned char **png_out, size_t *len_out, const char *svg, size_t svg_len,
		   int width)
{
	RsvgHandle *handle = NULL;
	cairo_surface_t *surface = NULL;
	cairo_t *cr = NULL;
	GError *gerr = NULL;
	struct png_buf png = {0};
	int error = 0, height;

	*png_out = NULL;
	*len_out = 0;
	if (!svg)
		return est_error_set(EST_EINVAL, "map.svg: no SVG text to draw");
	width = clamp(width);
	/* No base file: librsvg refuses every reference but data: URLs (url_resolver). */
	if (!(handle = rsvg_handle_new_from_data((const guint8 *)svg, svg_len, &gerr)))
		return rsvg_failed(gerr, "read");
	height = height_for(handle, width);
	surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
	if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
		error = est_error_set(EST_ERROR, "map.png: cairo cannot make a %d x %d surface: %s",
				      width, height, cairo_status_to_string(cairo_surface_status(surface)));
		goto out;
	}
	cr = cairo_create(surface);
	/* White beneath: a transparent map is unreadable in a dark mail client. */
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	RsvgRectangle viewport = {0, 0, width, height};
	if (!rsvg_handle_render_document(handle, cr, &viewport, &gerr)) {
		error = rsvg_failed(gerr, "draw");
		goto out;
	}
	cairo_surface_flush(surface);
	if (cairo_surface_write_to_png_stream(surface, png_write, &png) != CAIRO_STATUS_SUCCESS) {
		error = png.oom ? est_error_set(EST_ENOMEM, "out of memory") :
				  est_error_set(EST_ERROR, "map.png: cairo cannot write the PNG");
		goto out;
	}
	*png_out = png.ptr;
	*len_out = png.len;
	png.ptr = NULL;
out:
	free(png.ptr);
	if (cr)
		cairo_destroy(cr);
	cairo_surface_destroy(surface);
	g_object_unref(handle);
	return error;
}
