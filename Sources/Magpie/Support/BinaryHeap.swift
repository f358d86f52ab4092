/// A binary heap: the element that comes first by `comesFirst` is at the
/// top; push and pop in O(log n).
struct BinaryHeap<Element> {
  private var elements: [Element] = []
  private let comesFirst: (Element, Element) -> Bool

  /// An empty heap ordered by `comesFirst`.
  init(by comesFirst: @escaping (Element, Element) -> Bool) {
    self.comesFirst = comesFirst
  }

  /// How many elements it holds.
  var count: Int { elements.count }

  /// The elements, in no particular order.
  var unordered: [Element] { elements }

  /// Adds `element`.
  mutating func push(_ element: Element) {
    elements.append(element)
    var child = elements.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard comesFirst(elements[child], elements[parent]) else { break }
      elements.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes and returns the first element.
  mutating func pop() -> Element? {
    guard !elements.isEmpty else { return nil }
    elements.swapAt(0, elements.count - 1)
    let first = elements.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var best = parent
      if left < elements.count, comesFirst(elements[left], elements[best]) { best = left }
      if right < elements.count, comesFirst(elements[right], elements[best]) { best = right }
      guard best != parent else { break }
      elements.swapAt(parent, best)
      parent = best
    }
    return first
  }

  /// Keeps only the elements `isIncluded` accepts.
  mutating func filter(_ isIncluded: (Element) -> Bool) {
    let kept = elements.filter(isIncluded)
    elements = []
    for element in kept { push(element) }
  }
}
