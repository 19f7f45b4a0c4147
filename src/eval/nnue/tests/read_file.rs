//! The one reader of net files from disk (`read_file`): bounded in size,
//! a typed error for a file too large, cut, missing or endless, and no
//! file, cut or grown past the largest size, that panics it.

use proptest::prelude::*;

use super::super::error::NetError;
use super::super::file::{MAX_FILE_LEN, read_file};
use super::file::{load, small_file};

#[test]
fn the_one_reader_of_net_files_is_bounded_in_size() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("the file is written");
        path
    };
    let good = small_file();
    // A whole file reads; cut, it is truncated (its header measures it).
    let path = write("good.nnue", &good);
    assert_eq!(read_file(&path).unwrap(), good);
    assert!(load(&path).is_ok());
    let cut = write("cut.nnue", &good[..good.len() - 3]);
    assert_eq!(
        load(&cut),
        Err(NetError::Truncated {
            found: good.len() - 3,
            expected: good.len()
        })
    );
    // Larger than the largest net file: refused, having read no more than
    // one byte past that size.
    let mut huge = good.clone();
    huge.resize(MAX_FILE_LEN + 100, 7);
    let huge = write("huge.nnue", &huge);
    assert_eq!(
        read_file(&huge),
        Err(NetError::TooLarge {
            found: (MAX_FILE_LEN + 100) as u64,
            limit: MAX_FILE_LEN
        })
    );
    // Exactly as large as the largest net file: read, and then judged by
    // its header.
    let mut largest = good.clone();
    largest.resize(MAX_FILE_LEN, 0);
    let largest = write("largest.nnue", &largest);
    assert_eq!(
        load(&largest),
        Err(NetError::TrailingBytes {
            found: MAX_FILE_LEN,
            expected: good.len()
        })
    );
    // Nothing there, or a folder.
    for path in [dir.path().join("missing.nnue"), dir.path().to_path_buf()] {
        assert!(
            matches!(read_file(&path), Err(NetError::Io { .. })),
            "{}",
            path.display()
        );
    }
    // A device that never ends.
    let zero = std::path::Path::new("/dev/zero");
    if zero.exists() {
        assert_eq!(
            read_file(zero),
            Err(NetError::TooLarge {
                found: MAX_FILE_LEN as u64 + 1,
                limit: MAX_FILE_LEN
            })
        );
    }
    assert_eq!(
        NetError::TooLarge {
            found: 5_000_000,
            limit: 800_000
        }
        .to_string(),
        "net file too large: 5000000 bytes or more; the largest net file this engine reads has \
         800000"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_file_cut_or_grown_is_read_or_refused_never_a_panic(
        len in 0..MAX_FILE_LEN + 64,
        fill in any::<u8>(),
    ) {
        // Through the file: a valid net cut to `len` bytes, or grown to
        // them with `fill`, up to past the largest net file.
        let mut bytes = small_file();
        bytes.resize(len, fill);
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("net.nnue");
        std::fs::write(&path, &bytes).expect("the file is written");
        match load(&path) {
            Ok(net) => prop_assert_eq!(net.to_bytes(), bytes),
            Err(NetError::TooLarge { found, .. }) => {
                prop_assert!(len > MAX_FILE_LEN);
                prop_assert_eq!(found, len as u64);
            }
            Err(_) => prop_assert!(len <= MAX_FILE_LEN),
        }
    }
}
