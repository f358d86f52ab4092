import Foundation

/// How GTK draws, chosen before `gtk_init`. GTK 4 draws with OpenGL by
/// default; on a machine without a GPU (Xvfb, a VM, a server) that GL is
/// Mesa's llvmpipe, which costs a process about 60 MB of resident memory
/// (LLVM and the driver mapped and initialised) and draws an image grid
/// no faster than cairo. `GSK_RENDERER=cairo` alone does not save it: GDK
/// still opens GL. ``useSoftwareRendering()`` does both.
public enum GTKRenderer {
  /// Makes GTK draw with cairo and never open GL (`GSK_RENDERER=cairo`,
  /// `GDK_DEBUG=gl-disable`), unless the environment already names another
  /// renderer, which is left alone. Call before `gtk_init`. Whether GTK
  /// will draw in software.
  @discardableResult
  public static func useSoftwareRendering() -> Bool {
    let environment = ProcessInfo.processInfo.environment
    if let renderer = environment["GSK_RENDERER"], !renderer.isEmpty, renderer != "cairo" { return false }
    setenv("GSK_RENDERER", "cairo", 1)
    let debug = environment["GDK_DEBUG"] ?? ""
    if !debug.split(separator: ",").contains("gl-disable") {
      setenv("GDK_DEBUG", debug.isEmpty ? "gl-disable" : debug + ",gl-disable", 1)
    }
    return true
  }
}
