import Foundation
import Magpie

/// The item references of a HEIF file (its `meta` box's `iref`) as a graph
/// of what decoding each item also decodes, checked before libheif decodes.
///
/// libheif 1.15 follows references without guarding against loops: a grid
/// (`dimg`) whose tile is an image whose alpha (`auxl`) is that grid again
/// makes it recurse forever, a hang with its decoding threads on and a
/// stack overflow (a crash, in libde265) with them off. The fuzzer found
/// such a file. Nested derived images can also multiply the work: a grid of
/// grids of 256 tiles each decodes 65,536 tiles. So a file is refused when
/// its references form a cycle, nest deeper than ``maximumDepth`` or make
/// one image decode more than ``maximumDecodes`` items.
///
/// References are read as libheif reads them: one after another from the
/// start of `iref`'s payload to its end, each one's own box size ignored.
/// Boxes that cannot be read leave the graph as far as it got; libheif then
/// reports the damage itself.
struct HEIFItemReferences {
  /// Derived images nested deeper than this are refused (a grid of grids is
  /// 2; real files use 1 or 2, alpha included).
  static let maximumDepth = 8
  /// Most items one image's decode may take (a 32768-pixel square image of
  /// 256-pixel tiles has 16,384).
  static let maximumDecodes = 16_384

  /// For each item, the items its decode also decodes: a derived image's
  /// inputs (`dimg`) and the auxiliary images (`auxl`: alpha, depth) that
  /// belong to it.
  private(set) var decodes: [UInt32: [UInt32]] = [:]

  /// The graph of `data`'s references.
  init(_ data: Data) {
    data.withUnsafeBytes { bytes in
      guard let meta = HEIFBoxes.child("meta", in: bytes, from: 0, to: bytes.count),
        let iref = HEIFBoxes.child("iref", in: bytes, from: meta.lowerBound + 4, to: meta.upperBound),
        iref.count >= 4
      else { return }
      readReferences(bytes, version: bytes[iref.lowerBound], from: iref.lowerBound + 4, to: iref.upperBound)
    }
  }

  /// Throws ``MagpieError/Code/corruptData`` for a reference cycle and
  /// ``MagpieError/Code/limitExceeded`` for nesting or work over the limits.
  func check() throws(MagpieError) {
    let order = try topologicalOrder()
    // Children come before their parents in `order`, so one pass suffices.
    var depth: [UInt32: Int] = [:]
    var count: [UInt32: Int] = [:]
    for item in order {
      let children = decodes[item] ?? []
      let itemDepth = 1 + (children.map { depth[$0] ?? 1 }.max() ?? 0)
      // Saturated: a hostile DAG's path count grows exponentially.
      let itemCount = children.reduce(1) { min($0 + (count[$1] ?? 1), Self.maximumDecodes + 1) }
      if itemDepth > Self.maximumDepth {
        throw MagpieError(
          .limitExceeded, "heic: item \(item) nests derived images \(itemDepth) deep, over \(Self.maximumDepth)")
      }
      if itemCount > Self.maximumDecodes {
        throw MagpieError(
          .limitExceeded,
          "heic: item \(item) needs over \(Self.maximumDecodes) item decodes, the most one image may take")
      }
      depth[item] = itemDepth
      count[item] = itemCount
    }
  }

  /// Every item with references, children before parents, found without
  /// recursion (a hostile file can chain thousands of references).
  private func topologicalOrder() throws(MagpieError) -> [UInt32] {
    enum Mark { case visiting, done }
    var marks: [UInt32: Mark] = [:]
    var order: [UInt32] = []
    for root in decodes.keys.sorted() where marks[root] == nil {
      var stack: [(item: UInt32, next: Int)] = [(root, 0)]
      marks[root] = .visiting
      while let top = stack.last {
        let children = decodes[top.item] ?? []
        guard top.next < children.count else {
          marks[top.item] = .done
          order.append(top.item)
          stack.removeLast()
          continue
        }
        stack[stack.count - 1].next += 1
        let child = children[top.next]
        switch marks[child] {
        case .visiting:
          throw MagpieError(
            .corruptData, "heic: item \(child)'s references lead back to itself (libheif would decode it forever)")
        case .done: continue
        case nil:
          marks[child] = .visiting
          stack.append((child, 0))
        }
      }
    }
    return order
  }

  private mutating func readReferences(_ bytes: UnsafeRawBufferPointer, version: UInt8, from start: Int, to end: Int) {
    let idSize = version == 0 ? 2 : 4
    var offset = start
    while offset < end {
      guard let header = HEIFBoxes.header(in: bytes, at: offset, end: end) else { return }
      offset += header.length
      guard let from = HEIFBoxes.uint(bytes, at: offset, size: idSize, end: end).map(UInt32.init),
        let count = HEIFBoxes.uint(bytes, at: offset + idSize, size: 2, end: end)
      else { return }
      offset += idSize + 2
      for _ in 0..<count {
        guard let to = HEIFBoxes.uint(bytes, at: offset, size: idSize, end: end).map(UInt32.init) else { return }
        offset += idSize
        switch header.type {
        case "dimg": decodes[from, default: []].append(to)
        case "auxl": decodes[to, default: []].append(from)
        default: break
        }
      }
    }
  }
}
