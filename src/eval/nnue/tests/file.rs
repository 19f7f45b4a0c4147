//! The net file: a round trip byte for byte at every width and layout, a
//! version 1 file read as before, every kind of bad file with its own
//! error, and no input that panics the reader.

use std::sync::OnceLock;

use proptest::prelude::*;

use shakmaty::Position as _;

use super::super::any::{AnyNet, AnyStack};
use super::super::arch::{Layout, WIDTHS};
use super::super::crc::crc32;
use super::super::error::NetError;
use super::super::file::NetFile;
use super::super::file::{HEADER_LEN, MAX_FILE_LEN, VERSION, file_len, header_len, payload_len};
use super::super::float::FloatNet;
use super::super::net::Net;
use super::{for_each_width, positions, random_float_net, random_games, random_net};
use crate::eval::score_model::{ScoreModel, ScoreModelError};
use sha2::{Digest, Sha256};

/// The size of a 256-wide file.
const FILE_LEN: usize = file_len(256);

/// A valid file of a random net, 256 wide.
fn valid_file() -> Vec<u8> {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| random_net::<256>(41, 505, Layout::KingMirrored).to_bytes())
        .clone()
}

/// A valid file of a random net, 32 wide (for the property tests: small).
pub(super) fn small_file() -> Vec<u8> {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| random_net::<32>(43, 505, Layout::KingMirrored).to_bytes())
        .clone()
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

/// A version 3 file without a score model as the version 2 format has it:
/// version 2, no score model fields, resealed.
fn as_version_2(v3: &[u8]) -> Vec<u8> {
    assert_eq!(u32::from_le_bytes(v3[8..12].try_into().unwrap()), VERSION);
    assert!(v3[44..112].iter().all(|&b| b == 0), "no score model");
    let mut v2 = v3[..44].to_vec();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    v2.extend_from_slice(&v3[112..]);
    resealed(v2)
}

/// A version 3 file of a plain net without a score model as the version 1
/// format has it: version 1, no layout field, resealed.
fn as_version_1(v3: &[u8]) -> Vec<u8> {
    let v2 = as_version_2(v3);
    assert_eq!(
        u32::from_le_bytes(v2[40..44].try_into().unwrap()),
        0,
        "plain"
    );
    let mut v1 = v2[..40].to_vec();
    v1[8..12].copy_from_slice(&1u32.to_le_bytes());
    v1.extend_from_slice(&v2[44..]);
    resealed(v1)
}

/// The net of the file `path`.
pub(super) fn load(path: &std::path::Path) -> Result<AnyNet, NetError> {
    NetFile::load(path).map(|file| file.net)
}

/// A score model as a fit gives one (s6-g2's).
fn fitted_model() -> ScoreModel {
    ScoreModel::net(
        [-946.076, 2407.064, -1936.437, 589.700],
        [-463.316, 1066.263, -710.164, 198.611],
    )
    .expect("a fitted model")
}

#[test]
fn a_net_file_round_trips_byte_for_byte_at_every_width_and_layout() {
    fn check<const H: usize>(layout: Layout)
    where
        AnyNet: From<Net<H>>,
        Net<H>: TryFrom<AnyNet, Error = NetError>,
    {
        let net = random_net::<H>(42, i16::MAX, layout);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len(H));
        let read = AnyNet::from_bytes(&bytes).expect("a written net reads back");
        assert_eq!((read.hidden(), read.layout()), (H, layout));
        assert!(read == AnyNet::from(net.clone()));
        assert_eq!(read.to_bytes(), bytes);
        assert!(Net::<H>::try_from(read).unwrap() == net);
        // And through a file.
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("net.bin");
        std::fs::write(&path, &bytes).expect("the file is written");
        assert!(load(&path).expect("the file reads") == AnyNet::from(net.clone()));
        // With a score model: the same weights, and the model read back.
        let file = NetFile::new(AnyNet::from(net), Some(fitted_model()));
        let with_model = file.to_bytes();
        assert_eq!(with_model.len(), bytes.len());
        assert_eq!(
            with_model[HEADER_LEN..with_model.len() - 4],
            bytes[HEADER_LEN..bytes.len() - 4]
        );
        assert_eq!(NetFile::from_bytes(&with_model), Ok(file));
    }
    for layout in Layout::ALL {
        for_each_width!(check(layout));
    }
    assert_eq!(
        file_len(256),
        394_872,
        "112-byte header, weights, 4-byte checksum"
    );
}

#[test]
fn every_width_of_the_list_is_quantised_written_read_and_evaluated_alike() {
    // A walk over `WIDTHS` at run time, through the dispatch every width
    // read from a file takes (`at_width`): a width in the list without its
    // compiled code, or the other way round, fails here.
    let games = random_games(2, 1, 12);
    let boards = positions(&games);
    for (i, &hidden) in WIDTHS.iter().enumerate() {
        for layout in Layout::ALL {
            let float = random_float_net(hidden, layout, 60 + i as u64, 0.12, 0.15);
            let net = float.quantise().expect("a width of the list is quantised");
            assert_eq!((net.hidden(), net.layout()), (hidden, layout));
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_len(hidden), "width {hidden}");
            let read = AnyNet::from_bytes(&bytes).expect("a written net reads back");
            assert_eq!(read, net, "width {hidden} {layout:?}");
            let mut stack = AnyStack::default();
            stack.fit(&read, 4);
            assert_eq!(stack.plies(), 4);
            for pos in &boards {
                let (board, stm) = (pos.board(), pos.turn());
                let quantised = read.evaluate_board(board, stm);
                stack.set_root(&read, board);
                assert_eq!(stack.evaluate(0, &read, board, stm), Some(quantised));
                // Small weights: the integer net stays near the float one.
                let float_cp = float.evaluate(board, stm);
                assert!(
                    (quantised as f32 - float_cp).abs() < 40.0,
                    "width {hidden}: {quantised} against {float_cp}"
                );
            }
        }
    }
    assert_eq!(
        FloatNet::zeroed(100, Layout::Plain).quantise(),
        Err(NetError::UnsupportedWidth { found: 100 })
    );
    assert_eq!(MAX_FILE_LEN, file_len(WIDTHS[WIDTHS.len() - 1]));
}

#[test]
fn version_1_and_2_files_read_as_nets_without_a_score_model() {
    fn check<const H: usize>()
    where
        AnyNet: From<Net<H>>,
    {
        for layout in Layout::ALL {
            let net = random_net::<H>(44, 505, layout);
            let v2 = as_version_2(&net.to_bytes());
            assert_eq!(v2.len(), header_len(2) + payload_len(H) + 4);
            let read = NetFile::from_bytes(&v2).expect("a version 2 file reads");
            assert_eq!((read.version, read.model), (2, None));
            assert!(read.net == AnyNet::from(net));
        }
        let net = random_net::<H>(44, 505, Layout::Plain);
        let v1 = as_version_1(&net.to_bytes());
        assert_eq!(v1.len(), header_len(1) + payload_len(H) + 4);
        let read = NetFile::from_bytes(&v1).expect("a version 1 file reads");
        assert_eq!((read.version, read.model), (1, None));
        assert_eq!(read.net.layout(), Layout::Plain);
        assert!(read.net == AnyNet::from(net));
        // Cut or extended, it is measured by its own header.
        assert_eq!(
            AnyNet::from_bytes(&v1[..v1.len() - 1]),
            Err(NetError::Truncated {
                found: v1.len() - 1,
                expected: v1.len()
            })
        );
    }
    for_each_width!(check());
    // A net trained before version 2 is such a file (version 1, 256 wide).
    let old = include_bytes!("../../../../nets/s6-k250wd03.nnue");
    assert_eq!(u32::from_le_bytes(old[8..12].try_into().unwrap()), 1);
    let net = AnyNet::from_bytes(old).expect("a version 1 net reads");
    assert_eq!((net.hidden(), net.layout()), (256, Layout::Plain));
    assert_eq!(as_version_1(&net.to_bytes()), old.to_vec());
    // And one of version 2.
    let old = include_bytes!("../../../../nets/s6-e40.nnue");
    assert_eq!(u32::from_le_bytes(old[8..12].try_into().unwrap()), 2);
    let net = AnyNet::from_bytes(old).expect("a version 2 net reads");
    assert_eq!(as_version_2(&net.to_bytes()), old.to_vec());
}

#[test]
fn the_built_in_net_is_s6_g2_with_its_score_model_in_a_version_3_file() {
    let built_in = include_bytes!("../../../../nets/default.nnue");
    let file = NetFile::from_bytes(built_in).expect("the built-in net reads");
    assert_eq!(file.version, VERSION);
    assert_eq!((file.net.hidden(), file.net.layout()), (256, Layout::Plain));
    assert_eq!(file.model, Some(fitted_model()));
    // Written back byte for byte.
    assert_eq!(file.to_bytes(), built_in.to_vec());
    // Its weights are s6-g2's: without its model, as version 2, it is the
    // file s6-g2 was adopted as (docs/nets/manifest.toml).
    let v2 = as_version_2(&file.net.to_bytes());
    let sha: String = Sha256::digest(&v2)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        sha,
        "0dd15d793e1c60546e0145cd4480efc780e0979dac9ca0a253062749cfc9107b"
    );
}

#[test]
fn the_file_starts_with_the_header_of_the_spec() {
    let bytes = valid_file();
    assert_eq!(&bytes[..8], b"SHEARSNN");
    let fields: Vec<u32> = bytes[8..HEADER_LEN]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(fields[..10], [3, 768, 256, 1, 1, 255, 64, 400, 1, 0]);
    // No score model: its coefficients are 0.
    assert!(bytes[48..HEADER_LEN].iter().all(|&b| b == 0));
    assert_eq!(HEADER_LEN, 112);
    // With one: kind 1, then a(t) and b(t), highest power first, in f64.
    let model = fitted_model();
    let with_model = NetFile::new(AnyNet::from_bytes(&bytes).unwrap(), Some(model)).to_bytes();
    assert_eq!(
        u32::from_le_bytes(with_model[44..48].try_into().unwrap()),
        1
    );
    let coefficients: Vec<f64> = with_model[48..HEADER_LEN]
        .chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(coefficients[..4], model.a);
    assert_eq!(coefficients[4..], model.b);
    // The first weight is W1[feature 0][neuron 0]; the last before the
    // checksum is b2.
    let net = Net::<256>::try_from(AnyNet::from_bytes(&bytes).unwrap()).unwrap();
    let first = i16::from_le_bytes([bytes[HEADER_LEN], bytes[HEADER_LEN + 1]]);
    assert_eq!(first, net.column(0).0[0]);
    let second_feature = HEADER_LEN + 256 * 2;
    let w = i16::from_le_bytes([bytes[second_feature], bytes[second_feature + 1]]);
    assert_eq!(w, net.column(1).0[0]);
    let b2_at = HEADER_LEN + payload_len(256) - 4;
    let b2 = i32::from_le_bytes(bytes[b2_at..b2_at + 4].try_into().unwrap());
    assert_eq!(b2, net.output_bias());
    // A net of one width is not a net of another.
    assert_eq!(
        Net::<128>::try_from(AnyNet::from(net)),
        Err(NetError::WrongArchitecture {
            field: "hidden",
            found: 256,
            expected: 128
        })
    );
}

#[test]
fn every_kind_of_bad_file_gets_its_error() {
    let good = valid_file();
    let read = |bytes: &[u8]| AnyNet::from_bytes(bytes).expect_err("a bad file is refused");

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

    // Too short, at every stage: before the version, the header is measured
    // as this engine writes it; after it, by the version's own.
    for (len, expected) in [
        (0, HEADER_LEN),
        (5, HEADER_LEN),
        (8, HEADER_LEN),
        (20, HEADER_LEN),
        (HEADER_LEN - 1, HEADER_LEN),
        (HEADER_LEN, FILE_LEN),
        (HEADER_LEN + 1000, FILE_LEN),
        (FILE_LEN - 4, FILE_LEN),
        (FILE_LEN - 1, FILE_LEN),
    ] {
        assert_eq!(
            read(&good[..len]),
            NetError::Truncated {
                found: len,
                expected
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
    for version in [0, 4, u32::MAX] {
        assert_eq!(
            read(&with_u32(&good, 8, version)),
            NetError::UnsupportedVersion {
                found: version,
                expected: VERSION
            }
        );
    }

    // Another architecture, field by field.
    let fields = [
        ("inputs", 768),
        ("buckets", 1),
        ("activation", 1),
        ("QA", 255),
        ("QB", 64),
        ("SCALE", 400),
    ];
    for (field, expected) in fields {
        let i = [
            "inputs",
            "hidden",
            "buckets",
            "activation",
            "QA",
            "QB",
            "SCALE",
        ]
        .iter()
        .position(|&f| f == field)
        .unwrap();
        assert_eq!(
            read(&with_u32(&good, 12 + 4 * i, expected + 1)),
            NetError::WrongArchitecture {
                field,
                found: expected + 1,
                expected
            }
        );
    }
    // A width the engine does not play is refused as such, not as
    // truncated, whatever the file's size.
    for width in [0, 1, 100, 255, 1024, u32::MAX] {
        let mut odd = with_u32(&good, 16, width);
        assert_eq!(read(&odd), NetError::UnsupportedWidth { found: width });
        odd.truncate(HEADER_LEN + 100);
        assert_eq!(read(&odd), NetError::UnsupportedWidth { found: width });
    }
    // A supported width whose weights are not there is truncated.
    let narrow = with_u32(&good, 16, 512);
    assert_eq!(
        read(&narrow),
        NetError::Truncated {
            found: FILE_LEN,
            expected: file_len(512)
        }
    );
    // An unknown layout.
    assert_eq!(
        read(&with_u32(&good, 40, 2)),
        NetError::UnknownLayout { found: 2 }
    );
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
    assert!(matches!(load(missing), Err(NetError::Io { .. })));
}

#[test]
fn a_bad_score_model_gets_its_error() {
    let good = valid_file();
    let read = |bytes: &[u8]| AnyNet::from_bytes(bytes).expect_err("a bad file is refused");
    // An unknown kind of score model; coefficients without a model; a
    // model that is none.
    assert_eq!(
        read(&with_u32(&good, 44, 2)),
        NetError::UnknownScoreModel { found: 2 }
    );
    let mut stray = good.clone();
    stray[60] = 1;
    assert_eq!(read(&resealed(stray)), NetError::StrayScoreModel);
    assert_eq!(
        read(&with_u32(&good, 44, 1)),
        NetError::BadScoreModel(ScoreModelError::TooSmall {
            parameter: 'a',
            material: 3,
            value: "0.000".to_owned()
        })
    );
    let model = fitted_model();
    let mut nan = NetFile::new(AnyNet::from_bytes(&good).unwrap(), Some(model)).to_bytes();
    nan[48 + 8 * 5..48 + 8 * 6].copy_from_slice(&f64::NAN.to_le_bytes());
    assert!(matches!(
        read(&resealed(nan)),
        NetError::BadScoreModel(ScoreModelError::NotFinite {
            parameter: 'b',
            index: 1,
            ..
        })
    ));
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
            field: "QA",
            found: 128,
            expected: 255
        }),
        "wrong net architecture: QA is 128 in the file, 255 in this engine"
    );
    assert_eq!(
        message(NetError::UnsupportedWidth { found: 100 }),
        "net file of hidden width 100: this engine plays nets of 32, 64, 128, 256 or 512 hidden \
         neurons"
    );
    assert_eq!(
        message(NetError::UnsupportedVersion {
            found: 4,
            expected: 3
        }),
        "net file format version 4; this engine reads versions 1 to 3"
    );
    assert_eq!(
        message(NetError::UnknownScoreModel { found: 7 }),
        "net file of score model kind 7: this engine reads kinds 0 (none) and 1 (win/draw/loss \
         by material)"
    );
    assert_eq!(
        message(NetError::BadScoreModel(ScoreModelError::NotFinite {
            parameter: 'a',
            index: 0,
            value: "NaN".to_owned()
        })),
        "net file's score model coefficient 0 of a is NaN, not a finite number"
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
        prop_assert!(AnyNet::from_bytes(&input).is_err());
    }

    #[test]
    fn mutated_files_never_panic_the_reader(
        changes in proptest::collection::vec((0..file_len(32), any::<u8>()), 1..8),
        header_changes in proptest::collection::vec((0..HEADER_LEN, any::<u8>()), 0..3),
        cut in proptest::option::of(0..file_len(32) + 8),
        reseal in any::<bool>(),
    ) {
        let mut bytes = small_file();
        for (at, value) in changes.into_iter().chain(header_changes) {
            bytes[at] = value;
        }
        if reseal {
            bytes = resealed(bytes);
        }
        if let Some(cut) = cut {
            bytes.resize(cut, 0);
        }
        // Any answer but a panic; a net read is the file it was read from
        // (or, read as version 1, its version 2 twin).
        if let Ok(file) = NetFile::from_bytes(&bytes) {
            match file.version {
                1 => prop_assert_eq!(as_version_1(&file.net.to_bytes()), bytes),
                2 => prop_assert_eq!(as_version_2(&file.net.to_bytes()), bytes),
                _ => prop_assert_eq!(file.to_bytes(), bytes),
            }
        }
    }
}
