#include <gtk/gtk.h>
// malloc_trim, for the gallery UI test's trimmed memory figure.
#include <malloc.h>
