#ifndef MAGPIE_HTTPD_H
#define MAGPIE_HTTPD_H

#include <stdint.h>
#include <microhttpd.h>

/// The libmicrohttpd calls Swift cannot make itself (MHD_start_daemon and
/// MHD_get_daemon_info are variadic).

/// Starts a daemon on `host` (an IPv4 or IPv6 literal) and `port` (0: any
/// free port): an epoll thread pool of `threads` threads, suspend/resume
/// allowed, idle connections closed after `idle_timeout_s` seconds, at most
/// `connection_limit` connections. NULL when it cannot start (`errno` set
/// where the cause is a system call's).
struct MHD_Daemon *mp_httpd_start(const char *host, uint16_t port, unsigned int threads,
                                  unsigned int idle_timeout_s, unsigned int connection_limit,
                                  MHD_AccessHandlerCallback handler, void *handler_cls,
                                  MHD_RequestCompletedCallback completed, void *completed_cls);

/// The port the daemon listens on.
uint16_t mp_httpd_port(struct MHD_Daemon *daemon);

#endif
