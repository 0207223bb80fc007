extension Array {
    /// Empties the array one element at a time from the end, keeping its storage: for the few elements of a
    /// process's lanes and tracks, cheaper than `removeAll(keepingCapacity: true)`, which replaces the whole range
    /// through the general `replaceSubrange` and destroys the elements as an array.
    @inline(__always)
    mutating func removeEachKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}

extension Array {
    /// Grows the array with `filler` until `index` is one of its indices: a table by a name's number (``ExportName/key``)
    /// whose numbers come one after another as ``ExportNameCache`` makes them.
    mutating func extend(toHold index: Int, with filler: Element) {
        guard index >= count else { return }
        append(contentsOf: repeatElement(filler, count: index + 1 - count))
    }
}
