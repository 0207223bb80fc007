extension Array {
    /// Empties the array one element at a time from the end, keeping its storage: for the few elements of a
    /// process's lanes and tracks, cheaper than `removeAll(keepingCapacity: true)`, which replaces the whole range
    /// through the general `replaceSubrange` and destroys the elements as an array.
    @inline(__always)
    mutating func removeEachKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}
