//! What the library's integration tests share: where the test Syzygy
//! tables are.

pub mod tables;
