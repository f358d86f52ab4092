// Little CMS 2: ICC profile parsing and colour transforms (errors are
// return values, never longjmp).
#include <lcms2.h>

// The pixel formats Magpie transforms, as constants: lcms2 spells them as
// macros of macros, which Swift does not import.
static const cmsUInt32Number MP_LCMS_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number MP_LCMS_CMYK_8_INVERTED = TYPE_CMYK_8_REV;
