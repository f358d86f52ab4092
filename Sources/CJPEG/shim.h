// libjpeg-turbo's classic API. jpeglib.h needs stdio.h and size_t first.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
