#ifndef MAGPIE_XATTR_H
#define MAGPIE_XATTR_H

// Extended attributes for the disk cache's entry metadata. Swift's Glibc
// module does not make <sys/xattr.h> visible, so these forward to it.

#include <stddef.h>
#include <sys/types.h>
#include <sys/xattr.h>

/// fsetxattr(2): attaches `name` = `value` to the open file `fd`.
static inline int mp_fsetxattr(int fd, const char *name, const void *value, size_t size) {
  return fsetxattr(fd, name, value, size, 0);
}

/// getxattr(2): copies `name` of the file at `path` into `value`.
static inline ssize_t mp_getxattr(const char *path, const char *name, void *value, size_t size) {
  return getxattr(path, name, value, size);
}

#endif
