//! The net file: a round trip byte for byte, every kind of bad file with
//! its own error, and no input that panics the reader.

use std::sync::OnceLock;

use proptest::prelude::*;

use super::super::crc::crc32;
use super::super::error::NetError;
use super::super::file::{FILE_LEN, HEADER_LEN, PAYLOAD_LEN};
use super::super::net::Net;
use super::random_net;

/// A valid file of a random net.
fn valid_file() -> Vec<u8> {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| random_net(41, 505).to_bytes()).clone()
}

/// `bytes` with the checksum recomputed (so that a change reaches the
/// checks after the checksum's).
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 4;
    let crc = crc32(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

/// `bytes` with the u32 at `offset` set to `value`, resealed.
fn with_u32(bytes: &[u8], offset: usize, value: u32) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    resealed(bytes)
}

#[test]
fn a_net_file_round_trips_byte_for_byte() {
    let net = random_net(42, i16::MAX);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), FILE_LEN);
    assert_eq!(
        FILE_LEN, 394_800,
        "40-byte header, weights, 4-byte checksum"
    );
    let read = Net::from_bytes(&bytes).expect("a written net reads back");
    assert!(read == net);
    assert_eq!(read.to_bytes(), bytes);
    // And through a file.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("net.bin");
    std::fs::write(&path, &bytes).expect("the file is written");
    assert!(Net::load(&path).expect("the file reads") == net);
}

#[test]
fn the_file_starts_with_the_header_of_the_spec() {
    let bytes = valid_file();
    assert_eq!(&bytes[..8], b"SHEARSNN");
    let fields: Vec<u32> = bytes[8..HEADER_LEN]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(fields, [1, 768, 256, 1, 1, 255, 64, 400]);
    // The first weight is W1[feature 0][neuron 0]; the last before the
    // checksum is b2.
    let net = Net::from_bytes(&bytes).unwrap();
    let first = i16::from_le_bytes([bytes[HEADER_LEN], bytes[HEADER_LEN + 1]]);
    assert_eq!(first, net.column(0).0[0]);
    let second_feature = HEADER_LEN + 256 * 2;
    let w = i16::from_le_bytes([bytes[second_feature], bytes[second_feature + 1]]);
    assert_eq!(w, net.column(1).0[0]);
    let b2_at = HEADER_LEN + PAYLOAD_LEN - 4;
    let b2 = i32::from_le_bytes(bytes[b2_at..b2_at + 4].try_into().unwrap());
    assert_eq!(b2, net.output_bias());
}

#[test]
fn every_kind_of_bad_file_gets_its_error() {
    let good = valid_file();
    let read = |bytes: &[u8]| Net::from_bytes(bytes).expect_err("a bad file is refused");

    // Not a net file at all.
    assert_eq!(
        read(b"PK\x03\x04 a zip file"),
        NetError::BadMagic {
            found: b"PK\x03\x04 a z".to_vec()
        }
    );
    let mut wrong_magic = good.clone();
    wrong_magic[7] = b'M';
    assert!(matches!(read(&wrong_magic), NetError::BadMagic { .. }));

    // Too short, at every stage.
    for len in [
        0,
        5,
        8,
        20,
        HEADER_LEN,
        HEADER_LEN + 1000,
        FILE_LEN - 4,
        FILE_LEN - 1,
    ] {
        assert_eq!(
            read(&good[..len]),
            NetError::Truncated {
                found: len,
                expected: FILE_LEN
            },
            "{len} bytes"
        );
    }

    // Too long.
    let mut long = good.clone();
    long.push(0);
    assert_eq!(
        read(&long),
        NetError::TrailingBytes {
            found: FILE_LEN + 1,
            expected: FILE_LEN
        }
    );

    // Another version.
    assert_eq!(
        read(&with_u32(&good, 8, 2)),
        NetError::UnsupportedVersion {
            found: 2,
            expected: 1
        }
    );

    // Another architecture, field by field.
    let fields = [
        ("inputs", 768),
        ("hidden", 256),
        ("buckets", 1),
        ("activation", 1),
        ("QA", 255),
        ("QB", 64),
        ("SCALE", 400),
    ];
    for (i, (field, expected)) in fields.into_iter().enumerate() {
        let found = if field == "hidden" { 128 } else { expected + 1 };
        assert_eq!(
            read(&with_u32(&good, 12 + 4 * i, found)),
            NetError::WrongArchitecture {
                field,
                found,
                expected
            }
        );
    }
    // A net of another width is refused as such, not as truncated.
    let mut narrow = with_u32(&good, 16, 128);
    narrow.truncate(HEADER_LEN + 100);
    assert!(matches!(
        read(&narrow),
        NetError::WrongArchitecture {
            field: "hidden",
            ..
        }
    ));

    // A corrupt byte anywhere: in the header, the weights or the checksum.
    for at in [30, HEADER_LEN + 12_345, FILE_LEN - 6, FILE_LEN - 1] {
        let mut corrupt = good.clone();
        corrupt[at] ^= 0x10;
        assert!(
            matches!(
                read(&corrupt),
                NetError::ChecksumMismatch { .. } | NetError::WrongArchitecture { .. }
            ),
            "byte {at}"
        );
    }
    let mut corrupt = good.clone();
    corrupt[HEADER_LEN + 12_345] ^= 0x10;
    let stored = u32::from_le_bytes(good[FILE_LEN - 4..].try_into().unwrap());
    assert_eq!(
        read(&corrupt),
        NetError::ChecksumMismatch {
            stored,
            computed: crc32(&corrupt[..FILE_LEN - 4])
        }
    );

    // An output weight outside ±127 (with a valid checksum).
    let w2_at = HEADER_LEN + (768 * 256 + 256) * 2;
    let mut big = good.clone();
    big[w2_at + 2 * 300..w2_at + 2 * 300 + 2].copy_from_slice(&(-128i16).to_le_bytes());
    assert_eq!(
        read(&resealed(big)),
        NetError::OutputWeightOutOfRange {
            index: 300,
            value: -128
        }
    );

    // A file that is not there.
    let missing = std::path::Path::new("no/such/folder/net.bin");
    assert!(matches!(Net::load(missing), Err(NetError::Io { .. })));
}

#[test]
fn the_errors_say_what_is_wrong() {
    let message = |e: NetError| e.to_string();
    assert_eq!(
        message(NetError::BadMagic {
            found: b"\x00ab\n".to_vec()
        }),
        "not a Shears net file: it starts with \"\\x00ab\\n\", not \"SHEARSNN\""
    );
    assert_eq!(
        message(NetError::WrongArchitecture {
            field: "hidden",
            found: 128,
            expected: 256
        }),
        "wrong net architecture: hidden is 128 in the file, 256 in this engine"
    );
    assert_eq!(
        message(NetError::TrailingBytes {
            found: 12,
            expected: 10
        }),
        "net file has 2 bytes after its end (12 bytes, a net of this architecture has 10)"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_bytes_never_panic_the_reader(
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
        with_header in any::<bool>(),
    ) {
        let mut input = if with_header { valid_file()[..HEADER_LEN].to_vec() } else { Vec::new() };
        input.extend(bytes);
        prop_assert!(Net::from_bytes(&input).is_err());
    }

    #[test]
    fn mutated_files_never_panic_the_reader(
        changes in proptest::collection::vec((0..FILE_LEN, any::<u8>()), 1..8),
        cut in proptest::option::of(0..FILE_LEN + 8),
        reseal in any::<bool>(),
    ) {
        let mut bytes = valid_file();
        for (at, value) in changes {
            bytes[at] = value;
        }
        if reseal {
            bytes = resealed(bytes);
        }
        if let Some(cut) = cut {
            bytes.resize(cut, 0);
        }
        // Any answer but a panic; a net read is the file it was read from.
        if let Ok(net) = Net::from_bytes(&bytes) {
            prop_assert_eq!(net.to_bytes(), bytes);
        }
    }
}
