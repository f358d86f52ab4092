#include "heif_loader.h"

#include <stddef.h>
#include <stdint.h>
#include <libheif/heif.h>

#include "magpie_lazy.h"

// libheif's functions that MagpieHEIF calls, each forwarding to the library
// opened on first use (see magpie_lazy.h). The header above declares
// them, so a prototype that drifted from the library's would not compile.

#ifndef MP_HEIF_SONAME
#define MP_HEIF_SONAME "libheif.so"
#endif

MP_LAZY_LIBRARY_DEFINE(mp_heif, MP_HEIF_SONAME, "libheif.so")


// What a call answers when libheif is missing.
static struct heif_error mp_heif_missing(void) {
  struct heif_error error = {heif_error_Unsupported_feature, heif_suberror_Unspecified, "libheif could not be loaded"};
  return error;
}


MP_LAZY_FORWARD(mp_heif_library, struct heif_context *, heif_context_alloc, (void), (), NULL)
MP_LAZY_FORWARD_VOID(mp_heif_library, heif_context_free, (struct heif_context *context), (context))
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_context_get_primary_image_handle, (struct heif_context *ctx, struct heif_image_handle **handle), (ctx, handle), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_context_read_from_memory_without_copy, (struct heif_context *context, const void *mem, size_t size, const struct heif_reading_options *options), (context, mem, size, options), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_decode_image, (const struct heif_image_handle *in_handle, struct heif_image **out_img, enum heif_colorspace colorspace, enum heif_chroma chroma, const struct heif_decoding_options *options), (in_handle, out_img, colorspace, chroma, options), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_decoding_options *, heif_decoding_options_alloc, (void), (), NULL)
MP_LAZY_FORWARD_VOID(mp_heif_library, heif_decoding_options_free, (struct heif_decoding_options *options), (options))
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_get_bits_per_pixel_range, (const struct heif_image *image, enum heif_channel channel), (image, channel), 0)
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_get_height, (const struct heif_image *image, enum heif_channel channel), (image, channel), 0)
MP_LAZY_FORWARD(mp_heif_library, const uint8_t *, heif_image_get_plane_readonly, (const struct heif_image *image, enum heif_channel channel, int *out_stride), (image, channel, out_stride), NULL)
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_get_width, (const struct heif_image *image, enum heif_channel channel), (image, channel), 0)
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_handle_get_height, (const struct heif_image_handle *handle), (handle), 0)
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_handle_get_list_of_thumbnail_IDs, (const struct heif_image_handle *handle, heif_item_id *ids, int count), (handle, ids, count), 0)
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_handle_get_luma_bits_per_pixel, (const struct heif_image_handle *handle), (handle), 0)
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_handle_get_number_of_thumbnails, (const struct heif_image_handle *handle), (handle), 0)
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_image_handle_get_raw_color_profile, (const struct heif_image_handle *handle, void *out_data), (handle, out_data), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, size_t, heif_image_handle_get_raw_color_profile_size, (const struct heif_image_handle *handle), (handle), 0)
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_image_handle_get_thumbnail, (const struct heif_image_handle *main_image_handle, heif_item_id thumbnail_id, struct heif_image_handle **out_thumbnail_handle), (main_image_handle, thumbnail_id, out_thumbnail_handle), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_handle_get_width, (const struct heif_image_handle *handle), (handle), 0)
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_handle_has_alpha_channel, (const struct heif_image_handle *handle), (handle), 0)
MP_LAZY_FORWARD(mp_heif_library, int, heif_image_handle_is_premultiplied_alpha, (const struct heif_image_handle *handle), (handle), 0)
MP_LAZY_FORWARD_VOID(mp_heif_library, heif_image_handle_release, (const struct heif_image_handle *handle), (handle))
MP_LAZY_FORWARD_VOID(mp_heif_library, heif_image_release, (const struct heif_image *image), (image))
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_init, (struct heif_init_params *params), (params), mp_heif_missing())

// Encoding (HEIFEncoder): x265 through libheif's encoder plugin.
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_context_add_exif_metadata, (struct heif_context *ctx, const struct heif_image_handle *image_handle, const void *data, int size), (ctx, image_handle, data, size), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_context_encode_image, (struct heif_context *ctx, const struct heif_image *image, struct heif_encoder *encoder, const struct heif_encoding_options *options, struct heif_image_handle **out_image_handle), (ctx, image, encoder, options, out_image_handle), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_context_get_encoder_for_format, (struct heif_context *context, enum heif_compression_format format, struct heif_encoder **encoder), (context, format, encoder), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_context_write, (struct heif_context *ctx, struct heif_writer *writer, void *userdata), (ctx, writer, userdata), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_encoding_options *, heif_encoding_options_alloc, (void), (), NULL)
MP_LAZY_FORWARD_VOID(mp_heif_library, heif_encoding_options_free, (struct heif_encoding_options *options), (options))
MP_LAZY_FORWARD_VOID(mp_heif_library, heif_encoder_release, (struct heif_encoder *encoder), (encoder))
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_encoder_set_lossless, (struct heif_encoder *encoder, int enable), (encoder, enable), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_encoder_set_lossy_quality, (struct heif_encoder *encoder, int quality), (encoder, quality), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_encoder_set_parameter_string, (struct heif_encoder *encoder, const char *parameter_name, const char *value), (encoder, parameter_name, value), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_image_add_plane, (struct heif_image *image, enum heif_channel channel, int width, int height, int bit_depth), (image, channel, width, height, bit_depth), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_image_create, (int width, int height, enum heif_colorspace colorspace, enum heif_chroma chroma, struct heif_image **out_image), (width, height, colorspace, chroma, out_image), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, uint8_t *, heif_image_get_plane, (struct heif_image *image, enum heif_channel channel, int *out_stride), (image, channel, out_stride), NULL)
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_image_set_raw_color_profile, (struct heif_image *image, const char *profile_type_fourcc_string, const void *profile_data, const size_t profile_size), (image, profile_type_fourcc_string, profile_data, profile_size), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_color_profile_nclx *, heif_nclx_color_profile_alloc, (void), (), NULL)
MP_LAZY_FORWARD_VOID(mp_heif_library, heif_nclx_color_profile_free, (struct heif_color_profile_nclx *nclx_profile), (nclx_profile))
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_image_set_nclx_color_profile, (struct heif_image *image, const struct heif_color_profile_nclx *color_profile), (image, color_profile), mp_heif_missing())
MP_LAZY_FORWARD(mp_heif_library, struct heif_error, heif_register_decoder_plugin, (const struct heif_decoder_plugin *plugin), (plugin), mp_heif_missing())
MP_LAZY_FORWARD_VOID(mp_heif_library, heif_context_set_max_decoding_threads, (struct heif_context *ctx, int max_threads), (ctx, max_threads))
