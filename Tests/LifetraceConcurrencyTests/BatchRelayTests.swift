import LifetraceConcurrency
import Testing

/// The relay's thread works through the batches in the order they were handed over, the caller never holds more
/// batches than the relay has, and finishing waits for every batch handed over.
@Suite struct BatchRelayTests {
    final class Batch {
        var numbers: [Int] = []
    }

    /// What the thread saw, read once the relay has finished (joining the thread orders its writes before).
    final class Seen {
        var numbers: [Int] = []
        var batches = 0
        /// The pauses' sums, kept so that the pauses are not optimized away.
        var spin = 0
    }

    @Test(arguments: [2, 3, 5])
    func everyBatchIsWorkedInOrderAndReused(batchCount: Int) {
        let seen = Seen()
        let batches = (0..<batchCount).map { _ in Batch() }
        let identities = Set(batches.map(ObjectIdentifier.init))
        let relay = BatchRelay(batches: batches) { batch in
            // Slower than the caller now and then, so that the caller waits for a batch to come back.
            var spin = 0
            for step in 0..<(batch.numbers.first ?? 0) % 3 * 50_000 { spin &+= step }
            seen.spin &+= spin
            seen.numbers.append(contentsOf: batch.numbers)
            seen.batches += 1
            batch.numbers.removeAll(keepingCapacity: true)
        }
        var taken = Set<ObjectIdentifier>()
        for start in stride(from: 0, to: 10_000, by: 100) {
            let batch = relay.take()
            #expect(batch.numbers.isEmpty, "a batch comes back emptied")
            taken.insert(ObjectIdentifier(batch))
            batch.numbers.append(contentsOf: start..<start + 100)
            relay.submit(batch)
        }
        relay.finish()
        #expect(seen.numbers == Array(0..<10_000))
        #expect(seen.batches == 100)
        #expect(taken.isSubset(of: identities), "only the relay's batches go round")
        relay.finish()
    }

    @Test func finishingWithNothingHandedOverStopsTheThread() {
        let seen = Seen()
        let relay = BatchRelay(batches: [Batch(), Batch()]) { _ in seen.batches += 1 }
        _ = relay.take()
        relay.finish()
        #expect(seen.batches == 0)
    }
}
