#include "CMagpieGTK.h"

// A widget with one child that fills it, telling a callback when its size
// changes: what a view needs to load images at the size it shows them.
// The callback runs from an idle source after allocation, never inside it,
// so it may set images (and so queue resizes) freely.

struct _MagpieFrame {
  GtkWidget parent_instance;
  GtkWidget *child;
  MagpieResizeCallback callback;
  gpointer data;
  GDestroyNotify destroy;
  int width, height;
  guint idle;
};

G_DEFINE_FINAL_TYPE(MagpieFrame, magpie_frame, GTK_TYPE_WIDGET)

static void magpie_frame_measure(GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                                 int *natural, int *minimum_baseline, int *natural_baseline) {
  MagpieFrame *self = MAGPIE_FRAME(widget);
  if (self->child != NULL) {
    gtk_widget_measure(self->child, orientation, for_size, minimum, natural, minimum_baseline, natural_baseline);
  }
}

static gboolean magpie_frame_report(gpointer data) {
  MagpieFrame *self = MAGPIE_FRAME(data);
  self->idle = 0;
  if (self->callback != NULL) self->callback(self, self->width, self->height, self->data);
  return G_SOURCE_REMOVE;
}

static void magpie_frame_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
  MagpieFrame *self = MAGPIE_FRAME(widget);
  if (self->child != NULL) gtk_widget_allocate(self->child, width, height, baseline, NULL);
  if (width == self->width && height == self->height) return;
  self->width = width;
  self->height = height;
  if (self->idle == 0 && self->callback != NULL) {
    self->idle = g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, magpie_frame_report, g_object_ref(self), g_object_unref);
  }
}

static void magpie_frame_dispose(GObject *object) {
  MagpieFrame *self = MAGPIE_FRAME(object);
  g_clear_pointer(&self->child, gtk_widget_unparent);
  if (self->idle != 0) {
    g_source_remove(self->idle);
    self->idle = 0;
  }
  if (self->destroy != NULL) self->destroy(self->data);
  self->destroy = NULL;
  self->callback = NULL;
  self->data = NULL;
  G_OBJECT_CLASS(magpie_frame_parent_class)->dispose(object);
}

static void magpie_frame_class_init(MagpieFrameClass *class) {
  G_OBJECT_CLASS(class)->dispose = magpie_frame_dispose;
  GTK_WIDGET_CLASS(class)->measure = magpie_frame_measure;
  GTK_WIDGET_CLASS(class)->size_allocate = magpie_frame_size_allocate;
}

static void magpie_frame_init(MagpieFrame *self) { (void)self; }

GtkWidget *magpie_frame_new(GtkWidget *child) {
  MagpieFrame *self = g_object_new(MAGPIE_TYPE_FRAME, NULL);
  self->child = child;
  gtk_widget_set_parent(child, GTK_WIDGET(self));
  return GTK_WIDGET(self);
}

void magpie_frame_set_resize_callback(GtkWidget *frame, MagpieResizeCallback callback, gpointer data,
                                      GDestroyNotify destroy) {
  MagpieFrame *self = MAGPIE_FRAME(frame);
  if (self->destroy != NULL) self->destroy(self->data);
  self->callback = callback;
  self->data = data;
  self->destroy = destroy;
}
