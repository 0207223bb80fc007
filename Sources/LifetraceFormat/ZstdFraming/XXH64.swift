/// XXH64, the 64-bit xxHash that zstd frames carry the low 4 bytes of as their content checksum
/// (RFC 8878 §3.1.1: "Content_Checksum").
///
/// Written from the xxHash specification (`doc/xxhash_spec.md`, "XXH64 algorithm description").
struct XXH64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The hash of `bytes` with `seed`.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var position = 0
        var hash: UInt64
        if count >= 32 {
            var v1 = seed &+ prime1 &+ prime2
            var v2 = seed &+ prime2
            var v3 = seed
            var v4 = seed &- prime1
            while position + 32 <= count {
                v1 = round(v1, load64(bytes, position))
                v2 = round(v2, load64(bytes, position + 8))
                v3 = round(v3, load64(bytes, position + 16))
                v4 = round(v4, load64(bytes, position + 24))
                position += 32
            }
            hash = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            hash = mergeRound(hash, v1)
            hash = mergeRound(hash, v2)
            hash = mergeRound(hash, v3)
            hash = mergeRound(hash, v4)
        } else {
            hash = seed &+ prime5
        }
        hash = hash &+ UInt64(count)
        while position + 8 <= count {
            hash ^= round(0, load64(bytes, position))
            hash = rotl(hash, 27) &* prime1 &+ prime4
            position += 8
        }
        if position + 4 <= count {
            hash ^= UInt64(bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian) &* prime1
            hash = rotl(hash, 23) &* prime2 &+ prime3
            position += 4
        }
        while position < count {
            hash ^= UInt64(bytes[position]) &* prime5
            hash = rotl(hash, 11) &* prime1
            position += 1
        }
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* prime3
        hash ^= hash >> 32
        return hash
    }

    @inline(__always)
    private static func load64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func rotl(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotl(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func mergeRound(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
        (accumulator ^ round(0, value)) &* prime1 &+ prime4
    }
}
