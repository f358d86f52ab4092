// The portable build of the progressive scan decoder (see
// magpie_jpeg_scan_impl.h); magpie_jpeg_scan_bmi2.c has the BMI2 one.

#include "magpie_jpeg_progressive.h"

#if MP_PROG_AVAILABLE
#define MP_SCAN_BMI2 0
#include "magpie_jpeg_scan_impl.h"
#endif
