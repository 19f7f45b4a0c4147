//! Small helpers the tools share and no engine code needs.
//!
//! | file | what it owns |
//! |---|---|
//! | `progress.rs` | progress bars on stderr, hidden when it is not a terminal |
//! | `repo.rs` | the repository's own files (the manifests) from anywhere in it |

pub mod progress;
pub mod repo;
