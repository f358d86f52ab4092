#ifndef CMAGPIEGTK_H
#define CMAGPIEGTK_H

#include <gtk/gtk.h>

/// A signal handler taking only the instance: "map", "unmap", "clicked",
/// "activate".
typedef void (*MagpieSignalCallback0)(gpointer instance, gpointer data);
/// A signal handler taking the instance and one object: the list item of a
/// GtkSignalListItemFactory's "setup", "bind", "unbind".
typedef void (*MagpieSignalCallbackObject)(gpointer instance, gpointer object, gpointer data);
/// A signal handler taking the instance and a flags value:
/// "state-flags-changed".
typedef void (*MagpieSignalCallbackFlags)(gpointer instance, guint flags, gpointer data);

/// A signal handler taking the instance, a press count and a position:
/// GtkGestureClick's "pressed" and "released".
typedef void (*MagpieSignalCallbackClick)(gpointer instance, gint presses, gdouble x, gdouble y, gpointer data);

/// g_signal_connect_data with a typed callback; `destroy` runs when the
/// handler is disconnected or the instance finalized.
gulong magpie_signal_connect0(gpointer instance, const char *signal, MagpieSignalCallback0 callback,
                              gpointer data, GClosureNotify destroy);
gulong magpie_signal_connect_object(gpointer instance, const char *signal, MagpieSignalCallbackObject callback,
                                    gpointer data, GClosureNotify destroy);
gulong magpie_signal_connect_flags(gpointer instance, const char *signal, MagpieSignalCallbackFlags callback,
                                   gpointer data, GClosureNotify destroy);
gulong magpie_signal_connect_click(gpointer instance, const char *signal, MagpieSignalCallbackClick callback,
                                   gpointer data, GClosureNotify destroy);

/// Emits `gesture`'s "released" as a single click at (x, y) does: what a
/// test without a pointer device can do.
void magpie_gesture_click_emit_released(gpointer gesture, double x, double y);

/// Adds to the default GLib main context the one source that drains the
/// main dispatch queue (the Swift main actor's executor) whenever
/// libdispatch signals it. Call on the main thread, before any
/// dispatch_main(). Returns the source id; idempotent.
guint magpie_dispatch_source_install(void);
/// Removes the source magpie_dispatch_source_install added, if any.
void magpie_dispatch_source_remove(void);

/// Told a MagpieFrame's new size (after its allocation, from an idle
/// source).
typedef void (*MagpieResizeCallback)(gpointer frame, int width, int height, gpointer data);

#define MAGPIE_TYPE_FRAME (magpie_frame_get_type())
G_DECLARE_FINAL_TYPE(MagpieFrame, magpie_frame, MAGPIE, FRAME, GtkWidget)

/// A new widget (floating) whose one child, `child`, fills it.
GtkWidget *magpie_frame_new(GtkWidget *child);
/// Calls `callback` whenever the frame's allocated size changes; `destroy`
/// drops `data` when replaced or when the frame is disposed.
void magpie_frame_set_resize_callback(GtkWidget *frame, MagpieResizeCallback callback, gpointer data,
                                      GDestroyNotify destroy);

/// Checked casts (the GTK_* macros Swift cannot import).
GtkWidget *magpie_widget(gpointer object);
GdkPaintable *magpie_paintable(gpointer object);
GtkListItem *magpie_list_item(gpointer object);
gboolean magpie_is_widget(gpointer object);

/// GTK_TYPE_STRING_OBJECT etc. are macros around functions; exposed here.
GType magpie_string_object_type(void);

#endif
