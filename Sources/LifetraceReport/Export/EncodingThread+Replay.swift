extension EncodingThread {
    /// The relay's side: makes a batch's calls on the encoder, with the names carried so far. Used on the relay's
    /// thread alone.
    final class Replay<Encoder: ExportEncoder> {
        /// The encoder the calls are made on.
        let encoder: Encoder
        /// The names by key, each a copy of its own: the caller's thread counts references to the original. A key
        /// stands for one text for the whole export (``ExportName/key``), so the first text it came with is its text.
        private let names = InPlace<[ExportName?]>([])

        /// A replay on `encoder`.
        init(_ encoder: Encoder) {
            self.encoder = encoder
        }

        deinit {
            names.free()
        }

        /// Makes `batch`'s calls, in order, then empties it.
        func replay(_ batch: Batch) {
            let contents = batch.contents
            for position in 0..<contents.value.callCount {
                let call = batch.calls[position]
                switch call.kind {
                case .start:
                    encoder.start(origin: call.t)
                case .declareProcess:
                    encoder.declare(contents.value.processes[Int(call.side)])
                case .declareTrack:
                    encoder.declare(call.track, name: contents.value.trackNames[Int(call.side)])
                case .slice:
                    encoder.slice(
                        on: call.track, name: name(call.name, contents), category: call.category, from: call.t,
                        to: call.end, arguments(call, contents))
                case .begin:
                    encoder.begin(
                        on: call.track, name: name(call.name, contents), category: call.category, at: call.t,
                        arguments(call, contents))
                case .end:
                    encoder.end(on: call.track, at: call.t, arguments(call, contents))
                case .instant where call.notes >= 0:
                    encoder.instant(
                        on: call.track, name: name(call.name, contents), category: call.category, at: call.t,
                        arguments(call, contents), notes: contents.value.notes[Int(call.notes)])
                case .instant:
                    encoder.instant(
                        on: call.track, name: name(call.name, contents), category: call.category, at: call.t,
                        arguments(call, contents))
                }
            }
            contents.value.removeAll()
        }

        /// The name `reference` stands for (``ExportCall/name``), kept by key the first time it comes.
        @inline(__always)
        private func name(_ reference: Int32, _ contents: InPlace<Batch.Contents>) -> ExportName {
            if reference >= 0 { return names.value[Int(reference)]! }
            let carried = contents.value.names[Int(-1 - reference)]
            guard carried.key >= 0 else { return carried }
            let own = carried.ownCopy()
            names.value.extend(toHold: carried.key, with: nil)
            names.value[carried.key] = own
            return own
        }

        /// The arguments of `call`, whose extra values are in `contents`.
        @inline(__always)
        private func arguments(_ call: ExportCall, _ contents: InPlace<Batch.Contents>) -> ExportArguments {
            var arguments = ExportArguments(
                index: call.index, event: call.event,
                extras: call.side >= 0 ? contents.value.extras[Int(call.side)] : ExportExtras())
            arguments.endsSlice = call.endsSlice
            return arguments
        }
    }
}
