// GTK's C API comes with the binding: `import MagpieGTK` is enough to call
// `gtk_widget_set_size_request` or any other GTK function on a view's
// widget, without importing the binding's system module by name.
@_exported import CGTK4
