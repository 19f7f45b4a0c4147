//! CRC-32 (IEEE 802.3, reflected, polynomial `0xEDB88320`, initial value
//! and final XOR `0xFFFFFFFF`): the checksum of the net file, and of the
//! trainer's checkpoints. The same function as zlib's `crc32` and the
//! `crc32fast` crate's `hash`, so files written by either read the same.
//!
//! Our own, a byte at a time through a table built at compile time, rather
//! than the `crc32fast` crate: its SIMD kernels (AVX2, AVX-512) are compiled
//! in whatever the target, behind a run-time check, and `.ci/run` checks the
//! portable build for any AVX instruction at all. A net is read once, so
//! the table's speed (about 1 byte a cycle: a third of a millisecond for a
//! net file) is plenty.

/// The reflected IEEE polynomial.
const POLYNOMIAL: u32 = 0xEDB8_8320;

/// The CRC of every byte value, one bit at a time.
const TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut bit = 0;
        while bit < 8 {
            c = if c & 1 == 1 {
                POLYNOMIAL ^ (c >> 1)
            } else {
                c >> 1
            };
            bit += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
};

/// The CRC-32 of `bytes`.
///
/// ```
/// use shears::eval::nnue::crc32;
/// assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
/// assert_eq!(crc32(b""), 0);
/// ```
pub fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |crc, &b| {
        TABLE[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_checksums() {
        assert_eq!(crc32(b"a"), 0xE8B7_BE43);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
        assert_eq!(crc32(&[0u8; 32]), 0x190A_55AD);
        assert_eq!(crc32(&[0xFFu8; 32]), 0xFF6C_AB0B);
    }
}
