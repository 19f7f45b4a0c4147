//! What the engine knows for certain about some endgames, whichever
//! evaluation plays: mating a bare king ([`known_win`]), king and pawn
//! against king ([`kpk`], solved), and the material that cannot win
//! ([`verdict`], which lays all of it over a net's output).
//!
//! The hand-crafted evaluation reads [`known_win`] among its terms; a net
//! knows none of this on its own (it learned from games that seldom reach
//! these endings, and its scores there are flat), so its output goes
//! through [`verdict::net_with_knowledge`].

pub mod known_win;
pub mod kpk;
pub mod verdict;
