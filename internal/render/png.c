/*
 * The map as PNG for mail (render.h est_render_png): librsvg reads the SVG
 * text render made from map.svg.mustache, cairo draws it on an image
 * surface and libpng writes the PNG. Mail clients that show no SVG inline
 * show this picture; map.svg itself stays attached and committed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <librsvg/rsvg.h>
#include <png.h>

#include "render/render.h"
#include "util/error.h"

#define MIN_SIDE 16

struct png_buf {
	unsigned char *ptr;
	size_t len, cap;
	int oom;
};

/* libpng's output: appended to the png_buf; out of memory ends the write (png_error). */
static void png_out(png_structp p, png_bytep data, size_t len)
{
	struct png_buf *b = png_get_io_ptr(p);

	if (b->cap - b->len < len) {
		size_t cap = b->cap ? b->cap : 65536;
		unsigned char *grown;

		while (cap - b->len < len)
			cap *= 2;
		if (!(grown = realloc(b->ptr, cap))) {
			b->oom = 1;
			png_error(p, "out of memory");
		}
		b->ptr = grown;
		b->cap = cap;
	}
	memcpy(b->ptr + b->len, data, len);
	b->len += len;
}

static void png_no_flush(png_structp p)
{
	(void)p;
}

/* libpng's errors end the write (the caller says what failed); its warnings are not ours to print. */
static void png_fail(png_structp p, png_const_charp msg)
{
	(void)msg;
	png_longjmp(p, 1);
}

static void png_quiet(png_structp p, png_const_charp msg)
{
	(void)p;
	(void)msg;
}

/*
 * One row of cairo's ARGB32 (premultiplied, native-endian words) as 8-bit
 * RGB over white, into `rgb`: a premultiplied channel c of alpha a over
 * white is c + 255 - a.
 */
static void row_over_white(unsigned char *rgb, const uint32_t *argb, int width)
{
	for (int x = 0; x < width; x++) {
		uint32_t px = argb[x], a = px >> 24;

		rgb[3 * x] = (unsigned char)(((px >> 16) & 0xff) + 255 - a);
		rgb[3 * x + 1] = (unsigned char)(((px >> 8) & 0xff) + 255 - a);
		rgb[3 * x + 2] = (unsigned char)((px & 0xff) + 255 - a);
	}
}

/*
 * `surface` as an 8-bit RGB PNG into `b`. zlib's fastest level with the
 * Sub filter: a map is flat colour, which this packs about as small as
 * cairo's own writer (zlib's default level) in a third of its time.
 * 0, or -1 (b->oom set when memory ran out).
 */
static int write_png(struct png_buf *b, cairo_surface_t *surface)
{
	int width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface);
	int stride = cairo_image_surface_get_stride(surface);
	const unsigned char *data = cairo_image_surface_get_data(surface);
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_fail, png_quiet);
	png_infop info = p ? png_create_info_struct(p) : NULL;
	unsigned char *rgb = malloc((size_t)width * 3);
	int done = -1;

	if (!p || !info || !rgb) {
		b->oom = 1;
		goto out;
	}
	if (setjmp(png_jmpbuf(p)))
		goto out;
	png_set_write_fn(p, b, png_out, png_no_flush);
	png_set_compression_level(p, 1);
	png_set_filter(p, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
	png_set_IHDR(p, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(p, info);
	for (int y = 0; y < height; y++) {
		row_over_white(rgb, (const uint32_t *)(const void *)(data + (size_t)y * stride), width);
		png_write_row(p, rgb);
	}
	png_write_end(p, NULL);
	done = 0;
out:
	png_destroy_write_struct(&p, &info);
	free(rgb);
	return done;
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
	if (write_png(&png, surface) < 0) {
		error = png.oom ? est_error_set(EST_ENOMEM, "out of memory") :
				  est_error_set(EST_ERROR, "map.png: libpng cannot write the PNG");
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
