// hiredis (Debian libhiredis-dev) for MagpieRedis. Not through pkg-config:
// hiredis.pc's cflags carry -D_FILE_OFFSET_BITS=64, a flag SwiftPM
// prohibits and warns about; the header is in /usr/include/hiredis.
#include <hiredis/hiredis.h>

// epoll and eventfd for RedisEventLoop, behind small functions: struct
// epoll_event is packed on x86-64, which Swift does not import.
#include <sys/epoll.h>
#include <sys/eventfd.h>

/// What mp_epoll_wait reports per descriptor.
enum { MP_READABLE = 1, MP_WRITABLE = 2 };

/// epoll_ctl for `fd`, watching readability (with hang-ups) and, when
/// `writable`, writability.
static inline int mp_epoll_ctl(int poller, int op, int fd, int writable) {
  struct epoll_event event = {0};
  event.events = EPOLLIN | EPOLLRDHUP | (writable ? EPOLLOUT : 0);
  event.data.fd = fd;
  return epoll_ctl(poller, op, fd, op == EPOLL_CTL_DEL ? NULL : &event);
}

/// epoll_wait for up to 64 descriptors: each ready one in `fds`, with
/// MP_READABLE (data, error or hang-up) and MP_WRITABLE in `flags`.
static inline int mp_epoll_wait(int poller, int *fds, int *flags, int capacity, int timeout) {
  struct epoll_event events[64];
  if (capacity > 64) capacity = 64;
  int count = epoll_wait(poller, events, capacity, timeout);
  for (int i = 0; i < count; i++) {
    fds[i] = events[i].data.fd;
    unsigned e = events[i].events;
    flags[i] = ((e & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP)) ? MP_READABLE : 0) | ((e & EPOLLOUT) ? MP_WRITABLE : 0);
  }
  return count;
}

static inline int mp_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
static inline int mp_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
static inline int mp_epoll_add(void) { return EPOLL_CTL_ADD; }
static inline int mp_epoll_mod(void) { return EPOLL_CTL_MOD; }
static inline int mp_epoll_del(void) { return EPOLL_CTL_DEL; }
