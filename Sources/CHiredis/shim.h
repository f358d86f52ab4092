// hiredis (Debian libhiredis-dev) for MagpieRedis. Not through pkg-config:
// hiredis.pc's cflags carry -D_FILE_OFFSET_BITS=64, a flag SwiftPM
// prohibits and warns about; the header is in /usr/include/hiredis.
#include <hiredis/hiredis.h>
