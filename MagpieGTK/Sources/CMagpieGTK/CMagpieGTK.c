#include "CMagpieGTK.h"

#include <poll.h>
#include <stdint.h>
#include <unistd.h>

// Private to swift-corelibs-libdispatch (dispatch/private/queue_private.h),
// exported for CoreFoundation's run loop: on Linux the handle is an eventfd
// libdispatch writes to whenever work lands on the main queue, and the
// callback drains that queue on the calling (main) thread.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

gulong magpie_signal_connect0(gpointer instance, const char *signal, MagpieSignalCallback0 callback,
                              gpointer data, GClosureNotify destroy) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(callback), data, destroy, 0);
}

gulong magpie_signal_connect_object(gpointer instance, const char *signal, MagpieSignalCallbackObject callback,
                                    gpointer data, GClosureNotify destroy) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(callback), data, destroy, 0);
}

gulong magpie_signal_connect_flags(gpointer instance, const char *signal, MagpieSignalCallbackFlags callback,
                                   gpointer data, GClosureNotify destroy) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(callback), data, destroy, 0);
}

gulong magpie_signal_connect_click(gpointer instance, const char *signal, MagpieSignalCallbackClick callback,
                                   gpointer data, GClosureNotify destroy) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(callback), data, destroy, 0);
}

void magpie_gesture_click_emit_released(gpointer gesture, double x, double y) {
  g_signal_emit_by_name(gesture, "released", 1, x, y);
}

static guint dispatch_source_id = 0;

static gboolean dispatch_source_dispatch(GSource *source, GSourceFunc callback, gpointer data) {
  (void)source;
  (void)callback;
  (void)data;
  int fd = _dispatch_get_main_queue_handle_4CF();
  // Clear the eventfd first so work queued while draining wakes us again;
  // poll first so a counter libdispatch already read never blocks us.
  struct pollfd ready = {.fd = fd, .events = POLLIN};
  if (poll(&ready, 1, 0) > 0 && (ready.revents & POLLIN)) {
    uint64_t value;
    ssize_t ignored = read(fd, &value, sizeof value);
    (void)ignored;
  }
  _dispatch_main_queue_callback_4CF(NULL);
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs dispatch_source_funcs = {
    .prepare = NULL,
    .check = NULL,
    .dispatch = dispatch_source_dispatch,
    .finalize = NULL,
};

guint magpie_dispatch_source_install(void) {
  if (dispatch_source_id != 0) return dispatch_source_id;
  GSource *source = g_source_new(&dispatch_source_funcs, sizeof(GSource));
  g_source_set_name(source, "Magpie main dispatch queue");
  g_source_add_unix_fd(source, _dispatch_get_main_queue_handle_4CF(), G_IO_IN);
  dispatch_source_id = g_source_attach(source, NULL);
  g_source_unref(source);
  // Work queued before the source existed signalled the fd already; the
  // source sees it on the next iteration.
  return dispatch_source_id;
}

void magpie_dispatch_source_remove(void) {
  if (dispatch_source_id == 0) return;
  g_source_remove(dispatch_source_id);
  dispatch_source_id = 0;
}

GtkWidget *magpie_widget(gpointer object) { return GTK_WIDGET(object); }
GdkPaintable *magpie_paintable(gpointer object) { return GDK_PAINTABLE(object); }
GtkListItem *magpie_list_item(gpointer object) { return GTK_LIST_ITEM(object); }
gboolean magpie_is_widget(gpointer object) { return GTK_IS_WIDGET(object); }
GType magpie_string_object_type(void) { return GTK_TYPE_STRING_OBJECT; }
