#ifndef MAGPIE_SYNCFS_H
#define MAGPIE_SYNCFS_H

// syncfs(2) for the disk cache's flush. glibc declares it only under
// _GNU_SOURCE, which Swift's Glibc module does not set; this is the same
// declaration, so it agrees with <unistd.h> wherever both are seen.
extern int syncfs(int fd);

/// syncfs(2): writes back everything dirty on the file system holding `fd`.
static inline int mp_syncfs(int fd) { return syncfs(fd); }

#endif
