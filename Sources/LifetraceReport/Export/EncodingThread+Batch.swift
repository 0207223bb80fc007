extension EncodingThread {
    /// Calls to make and what they refer to, filled on the caller's thread and made on the relay's.
    final class Batch {
        /// What a batch holds besides its calls.
        struct Contents {
            /// The calls in ``Batch/calls``.
            var callCount = 0
            /// The names whose text crosses with this batch (``ExportCall/name``).
            var names: [ExportName] = []
            /// The arguments' extra values (``ExportCall/side``).
            var extras: [ExportExtras] = []
            /// The instants' notes (``ExportCall/notes``).
            var notes: [[ExportNote]] = []
            /// The processes declared (``ExportCall/side``).
            var processes: [ExportProcess] = []
            /// The tracks' names (``ExportCall/side``).
            var trackNames: [ExportTrackName] = []
            /// The blocks the calls' events point into.
            var blocks: [PinnedBlock] = []

            /// Empties the batch for its next use, keeping its memory.
            mutating func removeAll() {
                callCount = 0
                names.removeAll(keepingCapacity: true)
                extras.removeAll(keepingCapacity: true)
                notes.removeAll(keepingCapacity: true)
                processes.removeAll(keepingCapacity: true)
                trackNames.removeAll(keepingCapacity: true)
                blocks.removeAll(keepingCapacity: true)
            }
        }

        /// Room for the calls, plain values (``ExportCall``): written and read in place, with no count or uniqueness
        /// check of an array per call, and never destroyed.
        let calls: UnsafeMutablePointer<ExportCall>
        /// Kept at one address, so that adding a call takes no exclusivity check on a class's property. The batch
        /// holds it: a copy of it is used only while the batch is.
        let contents = InPlace(Contents())

        /// A batch with room for `capacity` calls.
        init(capacity: Int) {
            calls = .allocate(capacity: capacity)
        }

        deinit {
            calls.deallocate()
            contents.free()
        }
    }
}
