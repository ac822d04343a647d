/*
 * The map as PNG (render.h est_render_png): the size it draws at and its
 * bound, a document librsvg refuses, and that a map can pull in no file
 * of the machine: a PNG the test writes next to it, named by absolute
 * path, file: URL or relative path, is not drawn, while the same picture
 * as a data: URL is (so the check can see a drawn image).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>

#include "render/render.h"
#include "util/error.h"
#include "util/util.h"

struct reader {
	const unsigned char *data;
	size_t len, at;
};

static cairo_status_t read_png(void *closure, unsigned char *out, unsigned int len)
{
	struct reader *r = closure;

	if (r->len - r->at < len)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(out, r->data + r->at, len);
	r->at += len;
	return CAIRO_STATUS_SUCCESS;
}

static unsigned long be32(const unsigned char *p)
{
	return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

/* Draw `svg` and check the PNG's signature and IHDR size; the decoded surface in *out. */
static void draw(cairo_surface_t **out, const char *svg, int width, unsigned long want_w,
		 unsigned long want_h)
{
	unsigned char *png = NULL;
	size_t len = 0;
	struct reader r;

	if (est_render_png(&png, &len, svg, strlen(svg), width) != 0)
		fail_msg("est_render_png: %s", est_error_message());
	assert_true(len > 33);
	assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
	assert_memory_equal(png + 12, "IHDR", 4);
	assert_int_equal(be32(png + 16), want_w);
	assert_int_equal(be32(png + 20), want_h);
	r = (struct reader){png, len, 0};
	*out = cairo_image_surface_create_from_png_stream(read_png, &r);
	assert_int_equal(cairo_surface_status(*out), CAIRO_STATUS_SUCCESS);
	free(png);
}

/* The pixel at (x, y) as 0xRRGGBB (the tests draw opaque colours only). */
static unsigned long pixel(cairo_surface_t *s, int x, int y)
{
	const unsigned char *row = cairo_image_surface_get_data(s) + y * cairo_image_surface_get_stride(s);

	return ((const uint32_t *)(const void *)row)[x] & 0xffffff; /* native-endian ARGB32 */
}

static void test_size_and_colour(void **state)
{
	cairo_surface_t *s;

	(void)state;
	draw(&s, "<svg xmlns='http://www.w3.org/2000/svg' width='200' height='100'>"
		 "<rect x='0' y='0' width='100' height='100' fill='#ff0000'/></svg>", 1000, 1000, 500);
	assert_int_equal(pixel(s, 250, 250), 0xff0000);
	assert_int_equal(pixel(s, 750, 250), 0xffffff); /* drawn on white */
	cairo_surface_destroy(s);
	/* Each channel in its place, and a half-transparent fill blended with the white. */
	draw(&s, "<svg xmlns='http://www.w3.org/2000/svg' width='200' height='100'>"
		 "<rect x='0' y='0' width='100' height='100' fill='#336699'/>"
		 "<rect x='100' y='0' width='100' height='100' fill='#0000ff' fill-opacity='0.5'/></svg>",
	     200, 200, 100);
	assert_int_equal(pixel(s, 50, 50), 0x336699);
	assert_int_equal(pixel(s, 150, 50) & 0xff, 0xff);
	assert_in_range(pixel(s, 150, 50) >> 16, 0x7e, 0x81);
	assert_int_equal(pixel(s, 150, 50) >> 16, (pixel(s, 150, 50) >> 8) & 0xff);
	cairo_surface_destroy(s);
	/* A viewBox alone gives the ratio. */
	draw(&s, "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 300'/>", 100, 100, 300);
	cairo_surface_destroy(s);
}

static void test_huge_dimensions_are_bounded(void **state)
{
	cairo_surface_t *s;

	(void)state;
	draw(&s, "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='100000000'/>", 1000,
	     1000, EST_RENDER_PNG_MAX_SIDE);
	cairo_surface_destroy(s);
	draw(&s, "<svg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/>", 1000000,
	     EST_RENDER_PNG_MAX_SIDE, EST_RENDER_PNG_MAX_SIDE);
	cairo_surface_destroy(s);
}

static void test_not_svg(void **state)
{
	unsigned char *png = (unsigned char *)"x";
	size_t len = 1;
	const char *bad = "<svg xmlns='http://www.w3.org/2000/svg'><rect></svg";

	(void)state;
	assert_int_equal(est_render_png(&png, &len, bad, strlen(bad), 800), EST_EINVAL);
	assert_null(png);
	assert_int_equal(len, 0);
	assert_non_null(strstr(est_error_message(), "map.svg: librsvg cannot read it"));
	est_error_clear();
}

static cairo_status_t to_buf(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static void test_no_local_files(void **state)
{
	char dir[] = "/tmp/est-png-XXXXXX", path[64], *svg, *b64 = NULL;
	cairo_surface_t *red = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10), *s;
	cairo_t *cr = cairo_create(red);
	FILE *f;
	size_t len = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/red.png", dir);
	cairo_set_source_rgb(cr, 1, 0, 0);
	cairo_paint(cr);
	cairo_destroy(cr);
	assert_int_equal(cairo_surface_write_to_png(red, path), CAIRO_STATUS_SUCCESS);
	assert_int_equal(chdir(dir), 0); /* a relative "red.png" would find it here */
	svg = est_strdup_printf(
		"<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' "
		"width='100' height='100'>"
		"<image x='0' y='0' width='50' height='50' xlink:href='%s'/>"
		"<image x='50' y='0' width='50' height='50' xlink:href='file://%s'/>"
		"<image x='0' y='50' width='50' height='50' href='red.png'/>"
		"<image x='50' y='50' width='50' height='50' xlink:href='/etc/passwd'/></svg>",
		path, path);
	draw(&s, svg, 100, 100, 100);
	assert_int_equal(pixel(s, 25, 25), 0xffffff);
	assert_int_equal(pixel(s, 75, 25), 0xffffff);
	assert_int_equal(pixel(s, 25, 75), 0xffffff);
	assert_int_equal(pixel(s, 75, 75), 0xffffff);
	cairo_surface_destroy(s);
	free(svg);

	/* The same picture inside the document is drawn: the check above can see an image. */
	f = open_memstream(&b64, &len);
	assert_int_equal(cairo_surface_write_to_png_stream(red, to_buf, f), CAIRO_STATUS_SUCCESS);
	fclose(f);
	{
		static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
		char *enc = calloc(len * 2 + 8, 1);
		size_t o = 0;

		for (size_t i = 0; i < len; i += 3) {
			unsigned long v = (unsigned long)(unsigned char)b64[i] << 16 |
					  (i + 1 < len ? (unsigned long)(unsigned char)b64[i + 1] << 8 : 0) |
					  (i + 2 < len ? (unsigned char)b64[i + 2] : 0);
			enc[o++] = a[v >> 18 & 63];
			enc[o++] = a[v >> 12 & 63];
			enc[o++] = i + 1 < len ? a[v >> 6 & 63] : '=';
			enc[o++] = i + 2 < len ? a[v & 63] : '=';
		}
		svg = est_strdup_printf("<svg xmlns='http://www.w3.org/2000/svg' "
					"xmlns:xlink='http://www.w3.org/1999/xlink' width='100' height='100'>"
					"<image x='0' y='0' width='50' height='50' "
					"xlink:href='data:image/png;base64,%s'/></svg>", enc);
		free(enc);
	}
	draw(&s, svg, 100, 100, 100);
	assert_int_equal(pixel(s, 25, 25), 0xff0000);
	assert_int_equal(pixel(s, 75, 75), 0xffffff);
	cairo_surface_destroy(s);
	free(svg);
	free(b64);
	cairo_surface_destroy(red);
	unlink(path);
	assert_int_equal(chdir("/"), 0);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_and_colour),
		cmocka_unit_test(test_huge_dimensions_are_bounded),
		cmocka_unit_test(test_not_svg),
		cmocka_unit_test(test_no_local_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
