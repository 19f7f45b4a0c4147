//! Where the repository's own files are for a tool that runs anywhere in
//! it: a manifest (`docs/data/manifest.toml`, `docs/nets/manifest.toml`)
//! found from the working directory up, else beside the sources the
//! binary was built from.

use std::path::{Path, PathBuf};

/// The repository's file `relative` (a path from its root): the first
/// that exists of the working directory's and its parents', then the one
/// beside the sources this binary was built from (their path is fixed at
/// compile time).
///
/// # Errors
///
/// The places looked in, in words, when none of them has it.
pub fn find_repository_file(relative: &str) -> Result<PathBuf, Vec<String>> {
    let mut looked = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        for dir in cwd.ancestors() {
            let path = dir.join(relative);
            if path.is_file() {
                return Ok(path);
            }
        }
        looked.push(format!("{relative} in {} and its parents", cwd.display()));
    }
    let path = sources_root().join(relative);
    if path.is_file() {
        return Ok(path);
    }
    looked.push(path.display().to_string());
    Err(looked)
}

/// The root of the repository whose sources this binary was built from.
pub fn sources_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The root of the repository that holds `file`, a file `relative` from
/// that root (`docs/nets/manifest.toml`: two folders up); `None` when
/// `file`'s path is shorter than that.
pub fn root_of(file: &Path, relative: &str) -> Option<PathBuf> {
    let depth = Path::new(relative).components().count();
    let mut root = file;
    for _ in 0..depth {
        root = root.parent()?;
    }
    Some(if root.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        root.to_path_buf()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repositorys_files_are_found_and_their_root_too() {
        let found = find_repository_file("docs/data/manifest.toml").expect("this repository's");
        assert!(found.is_file());
        let root = root_of(&found, "docs/data/manifest.toml").unwrap();
        assert!(root.join("Cargo.toml").is_file(), "{}", root.display());
        assert_eq!(
            root_of(
                Path::new("docs/nets/manifest.toml"),
                "docs/nets/manifest.toml"
            ),
            Some(PathBuf::from("."))
        );
        assert_eq!(
            root_of(Path::new("manifest.toml"), "docs/nets/manifest.toml"),
            None
        );
        let looked = find_repository_file("docs/no-such-file.toml").unwrap_err();
        assert_eq!(looked.len(), 2, "{looked:?}");
    }
}
