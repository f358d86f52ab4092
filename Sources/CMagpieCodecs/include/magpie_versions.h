#ifndef MAGPIE_VERSIONS_H
#define MAGPIE_VERSIONS_H

/// The libjpeg-turbo version Magpie was built against, e.g. "2.1.5".
const char *mp_libjpeg_turbo_version(void);

/// The libpng version Magpie runs with, e.g. "1.6.39".
const char *mp_libpng_version(void);

#endif
