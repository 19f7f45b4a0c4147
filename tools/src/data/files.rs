//! Several data files read as one, as both fitters read them: their
//! [`Item`]s in the order given, each file's unfinished last game closed at
//! the file's end, and, with a limit, only the first N positions of them
//! all (`--positions N` of `tune` and `train`: a prefix of the data, the
//! last game cut where the prefix ends, as a file whose writer stopped).

use std::path::{Path, PathBuf};

use super::reader::{DataError, Item, Items, open};

/// The items of several files (see the module docs), each with the index
/// of its file in the list.
pub struct Files<'a> {
    paths: &'a [PathBuf],
    /// The file being read, and its index.
    current: Option<(usize, Items)>,
    /// The next file to open.
    next: usize,
    /// Positions still to hand out (`None`: all).
    left: Option<u64>,
    /// The game handed out last has no end yet.
    open: Option<u64>,
    done: bool,
}

/// Reads `paths` in order, the first `first` positions of them when given.
pub fn read_files(paths: &[PathBuf], first: Option<u64>) -> Files<'_> {
    Files {
        paths,
        current: None,
        next: 0,
        left: first,
        open: None,
        done: false,
    }
}

impl Files<'_> {
    /// The path of file `index`.
    pub fn path(&self, index: usize) -> &Path {
        &self.paths[index]
    }

    /// An end for the game handed out last, if it has none yet.
    fn close(&mut self) -> Option<Item> {
        self.open.take().map(|game| Item::GameEnd { game })
    }
}

impl Iterator for Files<'_> {
    type Item = Result<(usize, Item), DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            if self.left == Some(0) {
                self.done = true;
                let file = self.current.as_ref().map_or(0, |(i, _)| *i);
                return self.close().map(|end| Ok((file, end)));
            }
            let Some((file, items)) = &mut self.current else {
                if self.next == self.paths.len() {
                    self.done = true;
                    return None;
                }
                match open(&self.paths[self.next]) {
                    Ok(f) => self.current = Some((self.next, f.items())),
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                }
                self.next += 1;
                continue;
            };
            let file = *file;
            match items.next() {
                Some(Ok(Item::Position(p))) => {
                    self.open = Some(p.game);
                    if let Some(left) = &mut self.left {
                        *left -= 1;
                    }
                    return Some(Ok((file, Item::Position(p))));
                }
                Some(Ok(end @ Item::GameEnd { .. })) => {
                    self.open = None;
                    return Some(Ok((file, end)));
                }
                Some(Err(e)) => {
                    if !e.is_skippable() {
                        self.done = true;
                    }
                    return Some(Err(e));
                }
                None => {
                    self.current = None;
                    if let Some(end) = self.close() {
                        return Some(Ok((file, end)));
                    }
                }
            }
        }
    }
}
