// The BMI2 build of the progressive scan decoder (see
// magpie_jpeg_scan_impl.h), run on CPUs that have BMI2, POPCNT and LZCNT;
// magpie_jpeg_scan_portable.c has the portable one.

#include "magpie_jpeg_progressive.h"

#if MP_PROG_AVAILABLE
#define MP_SCAN_BMI2 1
#include "magpie_jpeg_scan_impl.h"
#endif
